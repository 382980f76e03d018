import ArgumentParser

/// The WebSocket client that holds the benchmark's viewers. It reports to a `BenchRecorder`
/// from its own thread.
protocol BenchViewerClient: AnyObject {
    /// Starts opening viewer `viewer` on `path` (with query) of the server.
    func connect(viewer: Int, path: String)

    /// Closes every viewer and stops the client's thread, within a few seconds.
    func shutdown()
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
