import Foundation
import RingCastStorage
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Records completions as the store runs them, in the order they ran, for a test to wait on
/// (always with a deadline) and inspect.
final class CompletionLog: Sendable {
    struct Entry: Sendable {
        let label: Int
        let error: StorageError?
        /// The thread the completion ran on.
        let thread: pthread_t
    }

    private let recorded = Mutex<[Entry]>([])
    private let arrived = DispatchSemaphore(value: 0)

    /// A completion that records itself under `label`.
    func completion(_ label: Int) -> @Sendable (StorageError?) -> Void {
        { error in
            self.recorded.withLock { $0.append(Entry(label: label, error: error, thread: pthread_self())) }
            self.arrived.signal()
        }
    }

    var entries: [Entry] { recorded.withLock { $0 } }

    /// Waits until `count` completions have run in all; false if `timeout` seconds pass first.
    func waitFor(_ count: Int, timeout: Double = 10) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while entries.count < count {
            if arrived.wait(timeout: deadline) == .timedOut { return entries.count >= count }
        }
        return true
    }

    /// The error each label got, by label.
    func error(of label: Int) -> StorageError? {
        entries.first { $0.label == label }?.error
    }
}

struct CompletionTimedOut: Error, CustomStringConvertible {
    var description: String { "the store did not run the completion within the deadline" }
}

/// Starts one store call with a completion and waits (bounded) for it; returns the error it got.
func completed(timeout: Double = 10, _ start: (@escaping @Sendable (StorageError?) -> Void) -> Void) throws -> StorageError? {
    let log = CompletionLog()
    start(log.completion(0))
    guard log.waitFor(1, timeout: timeout) else { throw CompletionTimedOut() }
    return log.entries[0].error
}

/// A record whose state is `count` bytes derived from `seed`.
func record(_ board: String, revision: Int64 = 1, count: Int = 16, seed: UInt8 = 0) -> StoredRecord {
    StoredRecord(board: board, revision: revision, state: (0..<count).map { UInt8(truncatingIfNeeded: $0) &+ seed })
}

/// Collects what a store reports through `notify`, for a test to inspect.
final class NoticeLog: Sendable {
    private let recorded = Mutex<[StorageNotice]>([])

    var record: @Sendable (StorageNotice) -> Void {
        { notice in self.recorded.withLock { $0.append(notice) } }
    }

    var all: [StorageNotice] { recorded.withLock { $0 } }
}
