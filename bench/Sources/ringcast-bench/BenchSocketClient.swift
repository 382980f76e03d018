import Dispatch
import Foundation
import RingCastClient
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The benchmark's default viewer client: a receive-only WebSocket client (RFC 6455) on one thread
/// that waits on all its sockets with epoll. It reads whole socket buffers, finds frame
/// boundaries from the headers and lends each message to the recorder without copying it again,
/// so a viewer costs little more than the kernel's copy — the load stays on the server, where it
/// is being measured.
///
/// It answers pings and close frames and sends nothing else. It does not check
/// `Sec-WebSocket-Accept` (which guards against caches and proxies on the way; on loopback to a
/// known server there are none).
///
/// Thread-safe: `connect` opens the socket on the caller's thread, then hands it to the loop.
final class BenchSocketClient: BenchViewerClient, Sendable {
    private let address: ServerAddress
    private let recorder: BenchRecorder
    private let adopted = Mutex<[(viewer: Int, descriptor: Int32)]>([])
    private let stopRequested = Atomic<Bool>(false)
    private let shutDown = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(address: ServerAddress, recorder: BenchRecorder) throws(BenchFailure) {
        self.address = address
        self.recorder = recorder
        let started = DispatchSemaphore(value: 0)
        let failure = Mutex<BenchFailure?>(nil)
        Thread.detachNewThread { [self] in
            let loop: BenchSocketLoop
            do {
                loop = try BenchSocketLoop(recorder: recorder)
                started.signal()
            } catch {
                failure.withLock { $0 = error as? BenchFailure ?? BenchFailure("\(error)") }
                started.signal()
                finished.signal()
                return
            }
            while !stopRequested.load(ordering: .acquiring) {
                for socket in adopted.withLock({ adopted in
                    defer { adopted.removeAll() }
                    return adopted
                }) {
                    loop.adopt(viewer: socket.viewer, descriptor: socket.descriptor)
                }
                // A short wait, so adopted sockets join within 5 ms without a wake-up descriptor.
                loop.poll(timeoutMilliseconds: 5)
            }
            loop.closeAll()
            finished.signal()
        }
        _ = started.wait(timeout: .now() + 5)
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    deinit {
        shutdown()
    }

    /// Connects and sends the upgrade request on a blocking socket (bounded by a 5 s send
    /// timeout), then hands it to the loop, which reads the answer.
    func connect(viewer: Int, path: String) {
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            return recorder.ended(viewer: viewer, reason: "socket: \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        var noDelay: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let connected = address.socketAddress.withUnsafeBytes { bytes in
            Glibc.connect(descriptor, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        let request = upgradeRequest(path: path)
        guard connected == 0,
            request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else {
            let reason = "\(connected == 0 ? "send" : "connect"): \(String(cString: strerror(errno)))"
            close(descriptor)
            return recorder.ended(viewer: viewer, reason: reason)
        }
        if let port = HTTPClient.localPort(of: descriptor) { recorder.bound(viewer: viewer, localPort: port) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        adopted.withLock { $0.append((viewer, descriptor)) }
    }

    private func upgradeRequest(path: String) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in key.indices { key[index] = generator.next() }
        let host = address.host.contains(":") ? "[\(address.host)]:\(address.port)" : "\(address.host):\(address.port)"
        return Array(
            ("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: \(Data(key).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8
        )
    }

    /// Sends every open viewer a close frame (1000), closes the sockets and ends the thread;
    /// waits at most 5 s. Idempotent.
    func shutdown() {
        guard !shutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stopRequested.store(true, ordering: .releasing)
        _ = finished.wait(timeout: .now() + 5)
    }
}
