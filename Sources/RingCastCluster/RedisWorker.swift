import Dispatch
import RingCastThreads
import Synchronization

/// A command connection to Redis on a thread of its own: jobs run there one at a time, in the order
/// they were submitted, so that whoever submits them (the server's event loop) never waits for Redis.
///
/// A job gets the `Session`: the connection and the write script, both confined to the worker's
/// thread. A job hands its result back itself (e.g. through the server's inbox). A job that meets a
/// broken connection gets `RedisError.io` from its command; the next command connects again first.
public final class RedisWorker: Sendable {
    /// What a job works with. Only ever touched on the worker's thread.
    public final class Session {
        public let connection: RedisConnection
        public var script: WriteScript

        init(connection: RedisConnection, script: WriteScript) {
            self.connection = connection
            self.script = script
        }
    }

    public typealias Job = @Sendable (Session) -> Void

    private struct Jobs {
        var waiting: [Job] = []
        var stopping = false
    }

    /// The jobs and the semaphore that wakes the thread for them, shared with the thread.
    private final class Queue: Sendable {
        let jobs = Mutex(Jobs())
        let wake = DispatchSemaphore(value: 0)
    }

    private let queue = Queue()
    private let thread: Mutex<JoinableThread?> = Mutex(nil)

    /// Starts the thread with `endpoint`'s connection (made now: throws `.connectFailed` when Redis
    /// cannot be reached) and `script`.
    public init(endpoint: RedisEndpoint, script: WriteScript) throws(RedisError) {
        let session = Confined(Session(connection: try RedisConnection(endpoint: endpoint), script: script))
        let started: JoinableThread
        do {
            started = try JoinableThread { [queue] in
                Self.run(session.value, queue: queue)
            }
        } catch {
            throw RedisError.io(endpoint: endpoint.address, reason: "cannot start the Redis worker thread: \(error)")
        }
        thread.withLock { $0 = started }
    }

    /// Runs `job` on the worker's thread after the jobs already submitted; dropped once stopping.
    public func submit(_ job: @escaping Job) {
        let accepted = queue.jobs.withLock { jobs in
            guard !jobs.stopping else { return false }
            jobs.waiting.append(job)
            return true
        }
        if accepted { queue.wake.signal() }
    }

    /// Jobs submitted and not yet started.
    public var backlog: Int { queue.jobs.withLock { $0.waiting.count } }

    /// Runs the jobs already submitted, then ends the thread and waits for it. Idempotent; not
    /// from a job.
    public func stop() {
        queue.jobs.withLock { $0.stopping = true }
        queue.wake.signal()
        let running = thread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        running?.join()
    }

    private static func run(_ session: Session, queue: Queue) {
        while true {
            queue.wake.wait()
            while let job = queue.jobs.withLock({ $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }) {
                job(session)
            }
            if queue.jobs.withLock({ $0.stopping && $0.waiting.isEmpty }) { return }
        }
    }
}

/// A value handed to the worker's thread at start and only touched there afterwards.
private struct Confined<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
