import Foundation
import Testing

@testable import RingCastStorage

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Group commit")
struct GroupCommitTests {
    @Test func fiveHundredWritesQueuedFromManyThreads_allCommitInFarFewerTransactions() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            let log = CompletionLog()
            // Held so that every write is queued before the writer takes any: deterministic batching.
            store.pauseWriter()
            DispatchQueue.concurrentPerform(iterations: 500) { index in
                store.write([record("board-\(index)", revision: Int64(index))], completion: log.completion(index))
            }
            store.resumeWriter()

            #expect(log.waitFor(500))
            #expect(log.entries.count == 500)
            #expect(log.entries.allSatisfy { $0.error == nil })
            let statistics = store.statistics
            #expect(statistics.commits < 250)
            #expect(statistics.commits == 1)
            #expect(statistics.recordsWritten == 500)
            #expect(statistics.largestBatch == 500)
            #expect(statistics.failedCommits == 0)
            #expect(try store.loadAll().count == 500)
        }
    }

    @Test func completionsOfOneBatch_runInQueueOrder_onTheWriterThread() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            let log = CompletionLog()
            store.pauseWriter()
            for index in 0..<20 {
                if index % 5 == 4 {
                    store.delete(board: "board-\(index - 1)", completion: log.completion(index))
                } else {
                    store.write([record("board-\(index)")], completion: log.completion(index))
                }
            }
            store.resumeWriter()

            #expect(log.waitFor(20))
            let entries = log.entries
            #expect(entries.map(\.label) == Array(0..<20))
            #expect(Set(entries.map(\.thread)).count == 1)
            #expect(entries.allSatisfy { pthread_equal($0.thread, pthread_self()) == 0 })
            #expect(store.statistics.commits == 1)
        }
    }
}
