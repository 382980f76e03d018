import Dispatch
import RingCastThreads
import Synchronization

/// A command connection to Redis on a thread of its own: jobs run there one at a time, in the order
/// they were submitted, so that whoever submits them (the server's event loop) never waits for Redis.
///
/// Board writes (`submit(_:replicas:completion:)`) waiting one after another are sent together, as one pipeline
/// (`WriteScript.run(_:on:)` with many): Redis runs them back to back and, with `appendfsync always`, fsyncs them
/// once, so a node's writes cost a round trip and an fsync a batch, not each.
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

    /// What became of a board write.
    public enum WriteAnswer: Sendable {
        case outcome(WriteOutcome)
        /// Applied, but fewer replicas than asked acknowledged it in time.
        case replicasMissing(acknowledged: Int)
        case failed(RedisError)
    }

    /// The most writes sent in one pipeline.
    public static let batchLimit = 64

    private enum Work {
        case job(Job)
        case write(BoardWrite, replicas: Int, completion: @Sendable (WriteAnswer) -> Void)
    }

    private struct Jobs {
        var waiting: [Work] = []
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
            jobs.waiting.append(.job(job))
            return true
        }
        if accepted { queue.wake.signal() }
    }

    /// Runs `write`'s script on the worker's thread after the jobs already submitted, sent together with the writes
    /// submitted right after it; then, when it was applied and `replicas` > 0, WAITs (1 s at most) for that many
    /// replicas to acknowledge it. `completion` runs on the worker's thread; dropped once stopping.
    public func submit(
        _ write: BoardWrite, replicas: Int, completion: @escaping @Sendable (WriteAnswer) -> Void
    ) {
        let accepted = queue.jobs.withLock { jobs in
            guard !jobs.stopping else { return false }
            jobs.waiting.append(.write(write, replicas: replicas, completion: completion))
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
            while let work = queue.jobs.withLock({ $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }) {
                switch work {
                case .job(let job): job(session)
                case .write(let write, let replicas, let completion):
                    var batch = [(write, replicas, completion)]
                    queue.jobs.withLock { jobs in
                        while batch.count < batchLimit,
                            case .write(let write, let replicas, let completion)? = jobs.waiting.first
                        {
                            batch.append((write, replicas, completion))
                            jobs.waiting.removeFirst()
                        }
                    }
                    let answers = Self.run(batch.map(\.0), replicas: batch.map(\.1).max() ?? 0, session)
                    for (answer, (_, _, completion)) in zip(answers, batch) { completion(answer) }
                }
            }
            if queue.jobs.withLock({ $0.stopping && $0.waiting.isEmpty }) { return }
        }
    }
}

extension RedisWorker {
    /// Runs `writes` as one pipeline, then WAITs for `replicas` once if any was applied.
    fileprivate static func run(_ writes: [BoardWrite], replicas: Int, _ session: Session) -> [WriteAnswer] {
        let results: [Result<WriteOutcome, RedisError>]
        do throws(RedisError) {
            results = try session.script.run(writes, on: session.connection)
        } catch {
            return writes.map { _ in .failed(error) }
        }
        var answers: [WriteAnswer] = results.map { result in
            switch result {
            case .success(let outcome): .outcome(outcome)
            case .failure(let error): .failed(error)
            }
        }
        let applied = answers.indices.filter { if case .outcome(.applied) = answers[$0] { true } else { false } }
        guard replicas > 0, !applied.isEmpty else { return answers }
        let missing: WriteAnswer?
        do throws(RedisError) {
            let acknowledged = try session.connection.wait(replicas: replicas, timeoutMilliseconds: 1000)
            missing = acknowledged < replicas ? .replicasMissing(acknowledged: acknowledged) : nil
        } catch {
            missing = .failed(error)
        }
        if let missing { for index in applied { answers[index] = missing } }
        return answers
    }
}

/// A value handed to the worker's thread at start and only touched there afterwards.
private struct Confined<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
