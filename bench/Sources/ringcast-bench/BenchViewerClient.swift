import ArgumentParser
import Foundation
import RingCastClient

#if canImport(Glibc)
    import Glibc
#endif

/// The WebSocket client that holds the benchmark's viewers. It reports to a `BenchRecorder`
/// from its own thread.
protocol BenchViewerClient: AnyObject {
    /// Starts opening viewer `viewer` on `path` (with query) of the server.
    func connect(viewer: Int, path: String)

    /// Closes every viewer and stops the client's thread, within a few seconds.
    func shutdown()
}

/// Connections being opened at once: enough to fill 2000 viewers in seconds without overflowing
/// the server's listen backlog.
private let connectBatch = 100

extension BenchViewerClient {
    /// Opens viewers 0 to `viewers` − 1 on `path`, `connectBatch` at a time, and waits for the
    /// handshakes: 10 s plus 20 ms a viewer at most. Fails when none opened, warns when some did not.
    func open(viewers: Int, path: String, address: ServerAddress, recorder: BenchRecorder) throws(BenchFailure) {
        let deadline = BenchSystem.now() + 10_000_000_000 + UInt64(viewers) * 20_000_000
        var issued = 0
        while BenchSystem.now() < deadline {
            // Viewers not issued yet also count as connecting in the census.
            let handshaking = recorder.census().connecting - (viewers - issued)
            if issued == viewers, handshaking == 0 { break }
            if handshaking < connectBatch / 2, issued < viewers {
                for index in issued..<min(viewers, issued + connectBatch) {
                    connect(viewer: index, path: path)
                }
                issued = min(viewers, issued + connectBatch)
            }
            usleep(5_000)
        }
        let census = recorder.census()
        guard census.open > 0 else {
            let reasons = recorder.snapshot().endings.sorted { $0.value > $1.value }.prefix(3)
                .map { "\($0.value)× \($0.key)" }.joined(separator: "; ")
            throw BenchFailure("no viewer could connect to ws://\(address.host):\(address.port)\(path): \(reasons)")
        }
        if census.open < viewers {
            FileHandle.standardError.write(Data("warning: \(census.open) of \(viewers) viewers connected\n".utf8))
        }
    }
}

/// Which `BenchViewerClient` to use (`--client`).
enum BenchClientKind: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// `BenchSocketClient`: receive-only, on epoll; costs little more than the kernel's copy.
    case raw
    /// `BenchLWSClient`: RingCastTransport's libwebsockets client. Its 4.1.6 parser takes every
    /// payload byte through a state machine, which caps one client thread at a few hundred
    /// viewers of 4 KiB frames at 60 fps.
    case lws

    func make(address: ServerAddress, recorder: BenchRecorder) throws(BenchFailure) -> any BenchViewerClient {
        switch self {
        case .raw: try BenchSocketClient(address: address, recorder: recorder)
        case .lws: try BenchLWSClient(address: address, recorder: recorder)
        }
    }
}
