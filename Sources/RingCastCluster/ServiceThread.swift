import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX thread that runs one closure and can be joined (Foundation's `Thread` cannot).
/// `join()` and `detach()` take effect once between them.
final class ServiceThread: Sendable {
    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// `pthread_t` is a plain integer on Linux.
    private let thread: pthread_t
    private let finished = Mutex(false)

    /// Starts the thread; throws with the errno text when the system refuses.
    init(_ body: @escaping @Sendable () -> Void) throws(RedisError) {
        var thread = pthread_t()
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
                start.body()
                return nil
            }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw RedisError.io(endpoint: "-", reason: "cannot start a thread: \(String(cString: strerror(result)))")
        }
        self.thread = thread
    }

    deinit {
        detach()
    }

    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Waits for the thread to end. Must not be called from the thread itself.
    func join() {
        guard claim() else { return }
        pthread_join(thread, nil)
    }

    func detach() {
        guard claim() else { return }
        pthread_detach(thread)
    }

    private func claim() -> Bool {
        finished.withLock { finished in
            defer { finished = true }
            return !finished
        }
    }
}
