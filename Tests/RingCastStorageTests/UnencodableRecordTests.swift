import RingCastStorage
import Testing

/// A record whose bytes cannot be made (its state cannot be encoded) is this write's fault, not the store's.
@Suite("Unencodable records")
struct UnencodableRecordTests {
    private struct NotFinite: Error, CustomStringConvertible {
        var description: String { "progress: Unable to encode Double.nan directly in JSON." }
    }

    @Test func aRecordThatCannotBeEncoded_isNotStored_failsOnlyItsWrite_andTheStoreGoesOn() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            #expect(try completed { store.write([record("ci", revision: 1)], completion: $0) } == nil)

            let bad = StoredRecord(board: "ci", revision: 2) { throw NotFinite() }
            let log = CompletionLog()
            // Queued together, so that they are usually one batch: the good one commits all the same.
            store.write([bad], completion: log.completion(0))
            store.write([record("wall", revision: 1)], completion: log.completion(1))
            #expect(log.waitFor(2, timeout: 10))
            let failure = try #require(log.error(of: 0))
            #expect(failure.kind == .unencodable)
            #expect(failure.message.contains("Double.nan"), "\(failure)")
            #expect(log.error(of: 1) == nil)

            // The store still commits, and holds ci's first revision and wall, nothing of the bad record.
            #expect(try completed { store.write([record("sales", revision: 1)], completion: $0) } == nil)
            #expect(
                try store.loadAll().sorted { $0.board < $1.board }
                    == [record("ci", revision: 1), record("sales", revision: 1), record("wall", revision: 1)])
            store.close()
        }
    }
}
