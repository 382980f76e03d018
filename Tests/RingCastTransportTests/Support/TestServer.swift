import Foundation
import RingCastTransport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A live `WebServer` on 127.0.0.1 and a kernel-chosen port, served on its own thread.
final class TestServer: Sendable {
    let server: WebServer
    let delegate: EchoDelegate
    private let finished = DispatchSemaphore(value: 0)
    /// The service thread, recorded just before it enters `run()`.
    let serviceThread = Mutex<pthread_t?>(nil)
    /// What `run()` returned: the drain's report, once it has returned.
    let drainReport = Mutex<DrainReport?>(nil)

    init(_ configure: (inout TransportConfiguration) -> Void = { _ in }) throws {
        var configuration = TransportConfiguration(host: "127.0.0.1", port: 0, dynamicPrefixes: ["/api"])
        configure(&configuration)
        let delegate = EchoDelegate()
        let server = try WebServer(configuration: configuration, delegate: delegate)
        delegate.loop = server.loop
        self.server = server
        self.delegate = delegate
        let thread = Thread { [self] in
            serviceThread.withLock { $0 = pthread_self() }
            let report = server.run()
            drainReport.withLock { $0 = report }
            finished.signal()
        }
        thread.start()
    }

    var port: Int { server.port }

    /// Stops the server; true when `run()` returned within `timeout` seconds.
    @discardableResult
    func stop(timeout: Double = 5) -> Bool {
        server.stop()
        return waitUntilStopped(timeout: timeout)
    }

    func waitUntilStopped(timeout: Double = 5) -> Bool {
        guard finished.wait(timeout: .now() + timeout) == .success else { return false }
        finished.signal()
        return true
    }

    func connection() throws -> RawHTTPConnection {
        try RawHTTPConnection(port: port)
    }

    /// Runs `body` on the service thread and returns its result (bounded wait).
    func onServiceThread<T: Sendable>(timeout: Double = 5, _ body: @escaping @Sendable (EventLoop) -> T) throws -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        server.perform { loop in
            result.withLock { $0 = body(loop) }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let value = result.withLock({ $0 }) else {
            throw TestFailure("perform did not run within \(timeout) s")
        }
        return value
    }
}

/// Polls `condition` until it holds or `timeout` passes (a deadline, not a sleep to wait out).
func eventually(timeout: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Collects one connection's events for a test to inspect.
final class EventRecorder: Sendable {
    private let events = Mutex<[WebSocketEvent]>([])

    var handler: @Sendable (WebSocketConnectionID, WebSocketEvent) -> Void {
        { [self] _, event in events.withLock { $0.append(event) } }
    }

    var all: [WebSocketEvent] { events.withLock { $0 } }

    var isOpen: Bool { all.contains { if case .open = $0 { true } else { false } } }

    /// Payloads of text and binary messages, in arrival order.
    var messages: [[UInt8]] {
        all.compactMap {
            switch $0 {
            case .text(let bytes), .binary(let bytes): bytes
            default: nil
            }
        }
    }

    var texts: [String] { messages.map { String(decoding: $0, as: UTF8.self) } }

    /// The terminal event, if any.
    var ending: WebSocketEvent? {
        all.last { if case .closed = $0 { true } else if case .failed = $0 { true } else { false } }
    }

    var closeCode: Int?? {
        if case .closed(let code) = ending { return .some(code) }
        return nil
    }

    var failure: String? {
        if case .failed(let message) = ending { return message }
        return nil
    }
}

/// Runs blocking work (a read that waits out a timeout, say) on a thread of its own, so it never
/// holds one of Swift concurrency's few cooperative threads, which the other tests need.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
