import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX thread that runs one closure and can be joined (Foundation's `Thread` cannot): the
/// transport's service loops, the store's writer and the Redis subscriber each run on one.
/// Thread-safe; `join()` and `detach()` take effect once between them.
public final class JoinableThread: Sendable {
    /// The system refused to start a thread; `reason` is its errno text.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// `pthread_t` is a plain integer on Linux.
    private let thread: pthread_t
    private let finished = Mutex(false)

    /// Starts the thread running `body`.
    public init(_ body: @escaping @Sendable () -> Void) throws(StartError) {
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
            throw StartError(reason: String(cString: strerror(result)))
        }
        self.thread = thread
    }

    deinit {
        detach()  // never leave a finished thread unjoined
    }

    /// Whether the caller runs on this thread.
    public var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Waits for the thread to end. Must not be called from the thread itself.
    public func join() {
        guard claim() else { return }
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own (when the last owner lets go on the thread itself).
    public func detach() {
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
