import Foundation
import Testing

@testable import RingCastStorage

/// The change log (format 2): each write appends its change in its commit; a snapshot compacts what it covers, as the
/// retention says; a start reads the changes after each board's snapshot, in order.
@Suite("The change log")
struct ChangeLogStoreTests {
    /// The tick of `seconds` ago at `fps`, on the wall clock's grid.
    static func tick(secondsAgo seconds: Double, fps: Int = 60) -> Int64 {
        Int64((Date().timeIntervalSince1970 - seconds) * Double(fps))
    }

    static func change(_ board: String, _ revision: Int64, tick: Int64 = tick(secondsAgo: 0), fps: Int = 60) -> StoredChange {
        StoredChange(board: board, revision: revision, tick: tick, fps: fps, change: Array("\(board)#\(revision)".utf8))
    }

    /// What `loadChanges` gives, comparable.
    static func loaded(_ store: SQLiteStore) throws -> [String] {
        try store.loadChanges().map(described)
    }

    static func described(_ change: StoredChange) throws -> String {
        "\(change.board) \(change.revision) \(change.tick) \(change.fps) \(String(decoding: try change.change, as: UTF8.self))"
    }

    @Test func appendedChanges_areReadBackAfterTheirSnapshot_inRevisionOrder_byANewStore() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            let changes = [Self.change("b", 1), Self.change("a", 3, fps: 30), Self.change("a", 4), Self.change("b", 2)]
            let log = CompletionLog()
            store.pauseWriter()
            for (index, change) in changes.enumerated() { store.append(change, completion: log.completion(index)) }
            store.resumeWriter()
            #expect(log.waitFor(4))
            #expect(log.entries.allSatisfy { $0.error == nil })
            #expect(store.statistics.commits == 1, "one transaction for the batch")
            store.close()

            let reopened = try SQLiteStore(directory: directory)
            defer { reopened.close() }
            let expected = try [changes[1], changes[2], changes[0], changes[3]].map(Self.described)
            #expect(try Self.loaded(reopened) == expected)
            // A snapshot of a at revision 3 covers its first change: only the later ones are to replay.
            #expect(try completed { reopened.write([record("a", revision: 3)], completion: $0) } == nil)
            #expect(try Self.loaded(reopened) == [expected[1], expected[2], expected[3]])
        }
    }

    /// The newest snapshot's changes go once they are older than the retention's seconds or beyond its count; the
    /// changes after the snapshot always stay.
    @Test func aSnapshot_compactsWhatItCovers_asTheRetentionSays() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, retention: ChangeRetention(seconds: 3600, changes: 3))
            defer { store.close() }
            // Revisions 1–4 two hours ago, 5–9 now.
            for revision in Int64(1)...9 {
                let tick = Self.tick(secondsAgo: revision <= 4 ? 7200 : 0)
                #expect(try completed { store.append(Self.change("a", revision, tick: tick), completion: $0) } == nil)
            }
            #expect(
                try completed { store.append(Self.change("other", 1, tick: Self.tick(secondsAgo: 7200)), completion: $0) } == nil)
            #expect(try completed { store.write([record("a", revision: 8)], completion: $0) } == nil)
            // Kept: 6, 7 and 8 (the newest three it covers, all within the hour) and 9 (after it); the other board's
            // old change stays, its board never snapshotted.
            let connection = try SQLiteConnection(path: store.databasePath, mode: .readOnly)
            defer { connection.close() }
            #expect(try connection.queryText("SELECT group_concat(revision) FROM changes WHERE board = 'a'") == "6,7,8,9")
            #expect(try connection.queryText("SELECT count(*) FROM changes WHERE board = 'other'") == "1")
            #expect(
                try Self.loaded(store).map { $0.components(separatedBy: " ")[0...1].joined(separator: " ") } == [
                    "a 9", "other 1",
                ])
        }
    }

    @Test func aTombstone_andADeletedBoard_takeTheirWholeLogAlong() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            for board in ["gone", "dropped", "kept"] {
                for revision in Int64(1)...3 {
                    #expect(try completed { store.append(Self.change(board, revision), completion: $0) } == nil)
                }
            }
            let tombstone = StoredRecord(board: "gone", revision: 4, endsLog: true, state: [1])
            #expect(try completed { store.write([tombstone], completion: $0) } == nil)
            #expect(try completed { store.delete(board: "dropped", completion: $0) } == nil)
            let connection = try SQLiteConnection(path: store.databasePath, mode: .readOnly)
            defer { connection.close() }
            #expect(try connection.queryText("SELECT group_concat(DISTINCT board) FROM changes") == "kept")
        }
    }

    /// A change whose bytes cannot be made fails its write and the store, as a failed commit does: no later change
    /// of its board is logged after a gap; a probe commits again.
    @Test func aChangeThatCannotBeMade_failsTheStoreUntilAProbe_andNothingOfItsBatchIsLogged() throws {
        struct Unmakeable: Error {}
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            let log = CompletionLog()
            store.pauseWriter()
            store.append(Self.change("a", 1), completion: log.completion(0))
            store.append(
                StoredChange(board: "a", revision: 2, tick: 1, fps: 60) { throw Unmakeable() }, completion: log.completion(1))
            store.append(Self.change("b", 1), completion: log.completion(2))
            store.resumeWriter()
            #expect(log.waitFor(3))
            #expect(log.entries.allSatisfy { $0.error?.kind == .store }, "\(log.entries)")
            #expect(log.entries.first?.error?.message.contains("cannot be encoded") == true)
            #expect(!store.isHealthy)
            #expect(try completed { store.append(Self.change("a", 2), completion: $0) } != nil, "refused until a probe")
            #expect(try completed { store.probe(completion: $0) } == nil)
            #expect(try completed { store.append(Self.change("a", 2), completion: $0) } == nil)
            #expect(try store.loadChanges().map(\.revision) == [2])
        }
    }

    /// A format 1 file (snapshots only) opens as format 2 with an empty log, its snapshots as they were.
    @Test func aFormat1File_isUpgradedInPlace_keepingItsSnapshots() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/" + SQLiteStore.fileName
            do {
                let connection = try SQLiteConnection(path: path, mode: .readWrite)
                defer { connection.close() }
                try connection.execute(
                    "CREATE TABLE boards (name TEXT PRIMARY KEY, revision INTEGER NOT NULL, state BLOB NOT NULL)")
                try connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                try connection.execute("INSERT INTO meta (key, value) VALUES ('format', '1'), ('probes', '0')")
                try connection.execute("INSERT INTO boards (name, revision, state) VALUES ('main', 7, x'7b7d')")
            }
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            #expect(try store.loadAll() == [StoredRecord(board: "main", revision: 7, state: Array("{}".utf8))])
            #expect(try store.loadChanges().isEmpty)
            #expect(try completed { store.append(Self.change("main", 8), completion: $0) } == nil)
            let reader = try SQLiteConnection(path: path, mode: .readOnly)
            defer { reader.close() }
            #expect(try reader.queryText("SELECT value FROM meta WHERE key = 'format'") == "4")
        }
    }
}
