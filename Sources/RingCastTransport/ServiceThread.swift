import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX thread that runs one closure and can be joined (Foundation's `Thread` cannot).
/// Thread-safe; `join()` and `detach()` take effect once between them.
final class ServiceThread: Sendable {
    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let handle: ThreadHandle
    private let finished = Mutex(false)

    init(_ body: @escaping @Sendable () -> Void) throws(TransportError) {
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
            throw .contextCreationFailed("could not start a service thread: \(String(cString: strerror(result)))")
        }
        self.handle = ThreadHandle(thread: thread)
    }

    deinit {
        detach()  // never leave a finished thread unjoined
    }

    var isCurrent: Bool { handle.isCurrent() }

    /// Waits for the thread to end. Must not be called from the thread itself.
    func join() {
        guard claim() else { return }
        pthread_join(handle.thread, nil)
    }

    /// Lets the thread end on its own (used when the last owner lets go on the thread itself).
    func detach() {
        guard claim() else { return }
        pthread_detach(handle.thread)
    }

    private func claim() -> Bool {
        finished.withLock { finished in
            defer { finished = true }
            return !finished
        }
    }
}
