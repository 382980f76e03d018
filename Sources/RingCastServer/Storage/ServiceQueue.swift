import RingCastTransport

/// How work from other threads (the store's writer) gets back to the service thread, where every
/// board lives: the event loop's inbox when serving, a queue the test drains in process tests.
protocol ServiceQueue: Sendable {
    /// Runs `work` on the service thread, soon.
    func async(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` on the service thread after `seconds`.
    func async(after seconds: Double, _ work: @escaping @Sendable () -> Void)
}

extension EventLoopHandle: ServiceQueue {
    func async(_ work: @escaping @Sendable () -> Void) {
        perform { _ in work() }
    }

    func async(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        perform { loop in loop.schedule(after: seconds, work) }
    }
}

/// A value handed to another thread and back, only ever touched on the service thread: a store's
/// completion carries it to `ServiceQueue.async`, which runs on that thread.
struct ServiceThreadBound<Value>: @unchecked Sendable {
    let value: Value
}
