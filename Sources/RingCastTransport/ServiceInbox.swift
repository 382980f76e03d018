internal import CLibWebSockets
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A libwebsockets context pointer that may be handed across threads. Only `lws_cancel_service`
/// is ever called with it off the service thread, and only while `ServiceInbox` says the context
/// is alive.
struct ContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The service thread's id, as a value other threads may compare against.
struct ThreadHandle: @unchecked Sendable {
    let thread: pthread_t

    static var current: ThreadHandle { ThreadHandle(thread: pthread_self()) }

    func isCurrent() -> Bool { pthread_equal(thread, pthread_self()) != 0 }
}

/// How other threads hand work to a service thread: a locked queue plus one coalesced
/// `lws_cancel_service` wake per batch. Thread-safe.
///
/// The wake is the only lws call made off the service thread. It is made under the lock and
/// only while a context is attached; the service thread detaches the context (under the same
/// lock) before destroying it, so no wake can reach a destroyed context.
final class ServiceInbox<Target: AnyObject>: Sendable {
    typealias Job = @Sendable (Target) -> Void

    private struct State {
        var jobs: [Job] = []
        var wakePending = false
        var stopRequested = false
        var context: ContextHandle?
        var serviceThread: ThreadHandle?
        var closed = false
    }

    private let state = Mutex(State())

    func attach(_ context: ContextHandle) {
        state.withLock { $0.context = context }
    }

    /// Called by the thread that is about to run the service loop.
    func becomeServiceThread() {
        state.withLock { $0.serviceThread = .current }
    }

    var isOnServiceThread: Bool {
        state.withLock { $0.serviceThread?.isCurrent() ?? false }
    }

    /// Queues `job` for the service thread and wakes it. False once the inbox is closed (the job
    /// is dropped).
    @discardableResult
    func enqueue(_ job: @escaping Job) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            Self.wake(&state)
            return true
        }
    }

    /// Asks the loop to stop; true the first time.
    @discardableResult
    func requestStop() -> Bool {
        state.withLock { state in
            guard !state.stopRequested else { return false }
            state.stopRequested = true
            Self.wake(&state)
            return true
        }
    }

    var isStopRequested: Bool {
        state.withLock { $0.stopRequested }
    }

    /// Everything queued so far, and whether stop was requested; re-enables the wake.
    func take() -> (jobs: [Job], stopRequested: Bool) {
        state.withLock { state in
            let jobs = state.jobs
            state.jobs = []
            state.wakePending = false
            return (jobs, state.stopRequested)
        }
    }

    /// No more wakes and no more jobs: called on the service thread before the context is
    /// destroyed. Returns what was still queued, to be released outside the lock.
    func close() -> [Job] {
        state.withLock { state in
            state.closed = true
            state.context = nil
            let jobs = state.jobs
            state.jobs = []
            return jobs
        }
    }

    /// One `lws_cancel_service` per batch, never from the service thread itself (its own run
    /// loop drains the queue after every `lws_service` return).
    private static func wake(_ state: inout State) {
        guard !state.wakePending, let context = state.context else { return }
        if state.serviceThread?.isCurrent() == true { return }
        state.wakePending = true
        lws_cancel_service(context.pointer)
    }
}
