import Dispatch
import Synchronization

/// What callers hand to the writer thread, in order, plus the writer's shared state: health and
/// statistics for any thread to read, and the start-up result `SQLiteStore.init` waits for.
///
/// Thread-safe. Every field lives behind one `Mutex`. Synchronization's `Mutex` has no
/// condition variable, so the writer sleeps on a semaphore instead: it marks itself waiting under
/// the lock, and the next `enqueue` (or `close`) that sees the mark clears it and signals once.
/// A semaphore counts, so a signal sent between the writer's unlock and its wait is not lost.
final class WriteQueue: Sendable {
    typealias Completion = @Sendable (StorageError?) -> Void

    enum Job: Sendable {
        case write([StoredRecord], Completion)
        /// A change appended to the log.
        case append(StoredChange, Completion)
        case delete(board: String, Completion)
        case writePlaylist(StoredPlaylist, Completion)
        case deletePlaylist(String, Completion)
        case probe(Completion)
        /// Whether the store still owns its directory (no commit).
        case check(Completion)
    }

    /// Everything queued when the writer looked, and the page limit to apply first (tests only).
    struct Batch {
        var jobs: [Job]
        var maxPageCount: Int?
    }

    private struct State {
        var jobs: [Job] = []
        var writerWaiting = false
        var closing = false
        /// Test hook: while set, the writer takes nothing (see `SQLiteStore.pauseWriter`).
        var paused = false
        var healthy = true
        var statistics = StorageStatistics()
        var maxPageCount: Int?
        /// Set once by the writer thread: `.some(nil)` when the store opened, else its error.
        var startup: StorageError??

        /// Clears the writer's waiting mark; true when the caller must signal it.
        mutating func takeWriterWaiting() -> Bool {
            defer { writerWaiting = false }
            return writerWaiting
        }
    }

    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)

    init(maxPageCount: Int?) {
        state = Mutex(State(maxPageCount: maxPageCount))
    }

    // MARK: Any thread

    /// Appends a job; false (and nothing queued) once the store is closing.
    func enqueue(_ job: Job) -> Bool {
        let (accepted, wakeWriter) = state.withLock { state in
            guard !state.closing else { return (false, false) }
            state.jobs.append(job)
            return (true, state.takeWriterWaiting())
        }
        if wakeWriter { wake.signal() }
        return accepted
    }

    /// Refuses new jobs; the writer finishes what is queued (even if paused), then stops.
    func requestClose() {
        let wakeWriter = state.withLock { state in
            state.closing = true
            state.paused = false
            return state.takeWriterWaiting()
        }
        if wakeWriter { wake.signal() }
    }

    var isClosing: Bool { state.withLock { $0.closing } }
    var isHealthy: Bool { state.withLock { $0.healthy } }
    var statistics: StorageStatistics { state.withLock { $0.statistics } }

    /// Waits for the writer thread's `reportStarted`.
    func waitUntilStarted() -> StorageError? {
        started.wait()
        return state.withLock { $0.startup ?? nil }
    }

    func pause() {
        state.withLock { $0.paused = true }
    }

    func resume() {
        let wakeWriter = state.withLock { state in
            state.paused = false
            return state.takeWriterWaiting()
        }
        if wakeWriter { wake.signal() }
    }

    func setMaxPageCount(_ count: Int?) {
        state.withLock { $0.maxPageCount = count }
    }

    // MARK: Writer thread

    func reportStarted(_ error: StorageError?) {
        state.withLock { $0.startup = .some(error) }
        started.signal()
    }

    /// Blocks until there is work, then takes everything queued; nil once closing and drained.
    func nextBatch() -> Batch? {
        while true {
            let batch: Batch?? = state.withLock { state in
                if !state.jobs.isEmpty && !state.paused {
                    defer { state.jobs.removeAll() }
                    return Batch(jobs: state.jobs, maxPageCount: state.maxPageCount)
                }
                if state.closing { return .some(nil) }
                state.writerWaiting = true
                return nil
            }
            if let batch { return batch }
            wake.wait()
        }
    }

    /// Records a committed transaction; called before its completions run, so they see it.
    func recordCommit(records: Int, batchSize: Int) {
        state.withLock { state in
            state.healthy = true
            state.statistics.commits += 1
            state.statistics.recordsWritten += records
            state.statistics.largestBatch = max(state.statistics.largestBatch, batchSize)
        }
    }

    func recordFailedCommit() {
        state.withLock { state in
            state.healthy = false
            state.statistics.failedCommits += 1
        }
    }

    /// The store fails without having tried a transaction (it no longer owns its directory).
    func recordUnhealthy() {
        state.withLock { $0.healthy = false }
    }

    func recordProbe(succeeded: Bool) {
        state.withLock { $0.healthy = succeeded }
    }
}
