import RingCastStorage
import Testing

@testable import RingCastStorage

@Suite("Writing and reading back")
struct RoundTripTests {
    @Test func writtenRecords_areLoadedByANewStoreInstance_byteForByte() throws {
        try withTemporaryDirectory { directory in
            let records = [
                StoredRecord(board: "alpha", revision: 1, state: Array(#"{"rings":[{"value":0.5}]}"#.utf8)),
                StoredRecord(board: "binary", revision: .max, state: [0, 0, 255, 0, 1, 0, 0]),
                StoredRecord(board: "empty", revision: .min, state: []),
                StoredRecord(board: "zeros", revision: -1, state: [UInt8](repeating: 0, count: 100_000)),
                StoredRecord(board: "grüße ☃", revision: 0, state: [0]),
                StoredRecord(board: "nul\u{0}inside", revision: 42, state: [7]),
            ]
            let store = try SQLiteStore(directory: directory)
            let error = try completed { store.write(records, completion: $0) }
            #expect(error == nil, "\(String(describing: error))")
            store.close()

            let reopened = try SQLiteStore(directory: directory)
            defer { reopened.close() }
            let expected = records.sorted { $0.board.utf8.lexicographicallyPrecedes($1.board.utf8) }
            #expect(try reopened.loadAll() == expected)
        }
    }

    @Test func newStore_loadsNothing_andCreatesItsFileInTheDirectory() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            #expect(try store.loadAll() == [])
            #expect(store.databasePath == directory + "/" + SQLiteStore.fileName)
            #expect(store.isHealthy)
        }
    }

    @Test func laterWriteForABoard_replacesTheEarlier_andDeleteRemovesIt() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            let log = CompletionLog()
            store.pauseWriter()
            store.write([record("a", revision: 1), record("b", revision: 1)], completion: log.completion(0))
            store.write([record("a", revision: 2, seed: 9)], completion: log.completion(1))
            store.delete(board: "b", completion: log.completion(2))
            store.write([record("c", revision: 5)], completion: log.completion(3))
            store.resumeWriter()
            #expect(log.waitFor(4))
            #expect(log.entries.allSatisfy { $0.error == nil })
            #expect(try store.loadAll() == [record("a", revision: 2, seed: 9), record("c", revision: 5)])
            #expect(store.statistics.commits == 1)

            #expect(try completed { store.delete(board: "a", completion: $0) } == nil)
            #expect(try completed { store.delete(board: "never-written", completion: $0) } == nil)
            #expect(try store.loadAll() == [record("c", revision: 5)])
        }
    }

    @Test func probe_onAHealthyStore_succeedsAndLeavesItHealthy() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            #expect(try completed { store.probe(completion: $0) } == nil)
            #expect(store.isHealthy)
            #expect(store.statistics.commits == 0)
        }
    }
}
