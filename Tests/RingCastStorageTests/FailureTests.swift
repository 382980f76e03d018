import Testing

@testable import RingCastStorage

@Suite("A failing commit")
struct FailureTests {
    /// SQLite itself refuses to grow the file past `maxPageCount` pages with SQLITE_FULL, the
    /// same code a full disk gives, without mounting or filling a file system.
    @Test func fullDatabase_failsTheWriteAndEveryWriteQueuedBehindIt_untilAProbeSucceeds() throws {
        try withTemporaryDirectory { directory in
            let small = record("small", revision: 1)
            let recovered = record("recovered", revision: 4)
            do {
                let store = try SQLiteStore(directory: directory, maxPageCount: 32)
                defer { store.close() }
                #expect(try completed { store.write([small], completion: $0) } == nil)

                let big = record("big", revision: 2, count: 1 << 20)
                let failure = try completed { store.write([big], completion: $0) }
                #expect(failure?.path == store.databasePath)
                #expect(failure?.message.contains("(SQLITE_FULL") == true, "\(String(describing: failure))")
                #expect(!store.isHealthy)
                #expect(store.statistics.failedCommits == 1)

                // Behind the failure: a write that would fit fails with the same error, untried;
                // the probe then succeeds (the limit is lifted) and what follows it commits.
                store.setMaxPageCount(nil)
                let log = CompletionLog()
                store.pauseWriter()
                store.write([record("behind", revision: 3)], completion: log.completion(0))
                store.probe(completion: log.completion(1))
                store.write([recovered], completion: log.completion(2))
                store.resumeWriter()
                #expect(log.waitFor(3))
                #expect(log.error(of: 0)?.description == failure?.description)
                #expect(log.error(of: 1) == nil)
                #expect(log.error(of: 2) == nil)
                #expect(store.isHealthy)
                #expect(store.statistics.failedCommits == 1)
                #expect(store.statistics.commits == 2)
            }

            let fresh = try SQLiteStore(directory: directory)
            defer { fresh.close() }
            #expect(try fresh.loadAll() == [recovered, small])
        }
    }

    @Test func unhealthyStore_failsWritesQueuedTogetherWithTheFailingOne() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, maxPageCount: 32)
            defer { store.close() }
            let log = CompletionLog()
            store.pauseWriter()
            store.write([record("first", revision: 1)], completion: log.completion(0))
            store.write([record("big", revision: 2, count: 1 << 20)], completion: log.completion(1))
            store.resumeWriter()
            #expect(log.waitFor(2))
            #expect(log.error(of: 0) != nil)
            #expect(log.error(of: 0)?.description == log.error(of: 1)?.description)
            #expect(!store.isHealthy)
            #expect(try store.loadAll() == [])

            // Until a probe succeeds, a later write fails with the same error, untried, though it would fit.
            let stillFull = try completed { store.write([record("later", revision: 3)], completion: $0) }
            #expect(stillFull?.description == log.error(of: 0)?.description)
        }
    }
}
