import Testing

@testable import RingCastStorage

@Suite("Closing")
struct CloseTests {
    @Test func close_runsEveryQueuedCompletionBeforeItReturns() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            let log = CompletionLog()
            store.pauseWriter()
            for index in 0..<100 {
                store.write([record("board-\(index)")], completion: log.completion(index))
            }
            #expect(log.entries.isEmpty)
            store.close()
            #expect(log.entries.count == 100)
            #expect(log.entries.allSatisfy { $0.error == nil })

            let reopened = try SQLiteStore(directory: directory)
            defer { reopened.close() }
            #expect(try reopened.loadAll().count == 100)
        }
    }

    @Test func close_isIdempotent_andLaterCallsFailAtOnceOnTheCallersThread() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            store.close()
            store.close()
            let log = CompletionLog()
            store.write([record("late")], completion: log.completion(0))
            store.delete(board: "late", completion: log.completion(1))
            store.probe(completion: log.completion(2))
            // Already run, synchronously: there is no writer thread left to run them.
            #expect(log.entries.map(\.label) == [0, 1, 2])
            #expect(log.entries.allSatisfy { $0.error?.message == "the store is closed; nothing was written" })
            // The ownership check has nothing left to check: a stopping server must not log a failing store.
            store.check(completion: log.completion(3))
            #expect(log.entries.map(\.label) == [0, 1, 2, 3])
            #expect(log.error(of: 3) == nil)
            #expect(throws: StorageError.self) { try store.loadAll() }
        }
    }
}
