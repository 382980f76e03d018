import Foundation
import Testing

@testable import RingCastStorage

/// Issue 33's history in SQLite (formats 3 and 4): points are stored in the transaction of the write that made them and read
/// back oldest first, across a restart; a format 2 file gains the table; a read returns exactly what `HistoryBound`
/// keeps while the rows on disk stay within its slack, a board's own bound as its writes and reads carry it; removed rings, tombstones and
/// deleted boards take their history along; history off stores nothing.
@Suite("Ring history in the store")
struct HistoryStoreTests {
    typealias Point = StoredHistory.Point

    /// Milliseconds since the Unix epoch, `seconds` ago.
    static func milliseconds(secondsAgo seconds: Double) -> Int64 {
        Int64((Date().timeIntervalSince1970 - seconds) * 1_000)
    }

    static func point(_ ring: String, _ milliseconds: Int64, _ value: Double, revision: Int64, status: String? = nil) -> Point {
        Point(ring: ring, milliseconds: milliseconds, revision: revision, value: value, status: status)
    }

    /// A logged change of `board` making `revision`, with `points` and the rings it removed.
    static func change(_ board: String, _ revision: Int64, _ points: [Point], removed: [String] = []) -> StoredChange {
        StoredChange(
            board: board, revision: revision, tick: milliseconds(secondsAgo: 0) * 60 / 1_000, fps: 60,
            history: StoredHistory(points: points, removedRings: removed), change: Array("\(board)#\(revision)".utf8))
    }

    /// Appends `changes` as one batch (one transaction) and waits for every completion, each without an error.
    static func appendAll(_ changes: [StoredChange], to store: SQLiteStore) {
        let log = CompletionLog()
        store.pauseWriter()
        for (index, change) in changes.enumerated() { store.append(change, completion: log.completion(index)) }
        store.resumeWriter()
        #expect(log.waitFor(changes.count))
        #expect(log.entries.allSatisfy { $0.error == nil })
    }

    /// Changes of `board` with one point of `ring` each, revisions from `first` on: the i-th at `times[i]`, value i.
    static func changes(_ board: String, ring: String, times: [Int64], first: Int64 = 1) -> [StoredChange] {
        times.enumerated().map { index, time in
            let revision = first + Int64(index)
            return change(board, revision, [point(ring, time, Double(index), revision: revision)])
        }
    }

    /// The points on disk, waiting or in blocks, counted through a read-only connection of the test's own.
    static func rows(_ store: SQLiteStore, board: String, ring: String? = nil) throws -> Int {
        let waiting = try count("count(*) FROM history", store, board: board, ring: ring)
        let blocked = try count("coalesce(sum(count), 0) FROM history_blocks", store, board: board, ring: ring)
        return waiting + blocked
    }

    /// `SELECT what WHERE` the board (and ring) match, as a number.
    static func count(_ what: String, _ store: SQLiteStore, board: String, ring: String? = nil) throws -> Int {
        let connection = try SQLiteConnection(path: store.databasePath, mode: .readOnly)
        defer { connection.close() }
        let ringClause = ring.map { " AND ring = '\($0)'" } ?? ""
        return Int(try connection.queryText("SELECT \(what) WHERE board = '\(board)'\(ringClause)") ?? "") ?? -1
    }

    static func read(_ store: SQLiteStore, _ board: String, _ ring: String, since: Int64 = .min, until: Int64 = .max) throws
        -> [HistoryRow]
    {
        try store.history(HistoryQuery(board: board, ring: ring, since: since, until: until))
    }

    // MARK: Reading back

    @Test func pointsStoredWithWrites_areReadBackOldestFirst_andSurviveAReopen() throws {
        try withTemporaryDirectory { directory in
            let base = Self.milliseconds(secondsAgo: 60)
            let store = try SQLiteStore(directory: directory, retention: .standard)
            // A new board's first snapshot brings its first points; the changes after it bring the rest. Revisions
            // 4 and 5 start at one millisecond, as two writes at one tick do.
            let created = StoredRecord(
                board: "b", revision: 1,
                history: StoredHistory(points: [
                    Self.point("move", base, 0.1, revision: 1), Self.point("task", base, 0.2, revision: 1),
                ]),
                state: [1])
            #expect(try completed { store.write([created], completion: $0) } == nil)
            Self.appendAll(
                [
                    Self.change("b", 2, [Self.point("move", base + 1_000, 0.25, revision: 2)]),
                    Self.change("b", 3, [Self.point("move", base + 2_000, 0.25, revision: 3, status: "running")]),
                    Self.change("b", 4, [Self.point("move", base + 3_000, 0.5, revision: 4)]),
                    Self.change(
                        "b", 5,
                        [
                            Self.point("move", base + 3_000, 1, revision: 5, status: "success"),
                            Self.point("task", base + 3_000, 0.75, revision: 5),
                        ]),
                    Self.change("other", 1, [Self.point("move", base, 42, revision: 1)]),
                ], to: store)
            let move = [
                HistoryRow(milliseconds: base, revision: 1, value: 0.1, status: nil),
                HistoryRow(milliseconds: base + 1_000, revision: 2, value: 0.25, status: nil),
                HistoryRow(milliseconds: base + 2_000, revision: 3, value: 0.25, status: "running"),
                HistoryRow(milliseconds: base + 3_000, revision: 4, value: 0.5, status: nil),
                HistoryRow(milliseconds: base + 3_000, revision: 5, value: 1, status: "success"),
            ]
            let task = [
                HistoryRow(milliseconds: base, revision: 1, value: 0.2, status: nil),
                HistoryRow(milliseconds: base + 3_000, revision: 5, value: 0.75, status: nil),
            ]
            #expect(try Self.read(store, "b", "move") == move)
            #expect(try Self.read(store, "b", "task") == task)
            #expect(
                try Self.read(store, "other", "move") == [HistoryRow(milliseconds: base, revision: 1, value: 42, status: nil)])
            #expect(try Self.read(store, "b", "nope").isEmpty)
            #expect(
                try Self.read(store, "b", "move", since: base + 1_000, until: base + 2_000) == Array(move[1...2]), "both ends in")
            #expect(try Self.read(store, "b", "move", since: base + 2_001) == Array(move[3...]))
            #expect(try Self.read(store, "b", "move", until: base - 1).isEmpty)
            store.close()

            let reopened = try SQLiteStore(directory: directory, retention: .standard)
            defer { reopened.close() }
            #expect(try Self.read(reopened, "b", "move") == move)
            #expect(try Self.read(reopened, "b", "task") == task)
        }
    }

    /// Two snapshots of one board in one batch: the later replaces the earlier, not the points the earlier brings.
    @Test func twoSnapshotsInOneBatch_keepTheirPointsBoth() throws {
        try withTemporaryDirectory { directory in
            let base = Self.milliseconds(secondsAgo: 10)
            let store = try SQLiteStore(directory: directory, retention: .standard)
            defer { store.close() }
            let log = CompletionLog()
            store.pauseWriter()
            for revision in Int64(1)...2 {
                let record = StoredRecord(
                    board: "b", revision: revision,
                    history: StoredHistory(points: [Self.point("move", base + revision, Double(revision), revision: revision)]),
                    state: [UInt8(revision)])
                store.write([record], completion: log.completion(Int(revision)))
            }
            store.resumeWriter()
            #expect(log.waitFor(2))
            #expect(try Self.read(store, "b", "move").map(\.revision) == [1, 2])
            #expect(try store.loadAll().map(\.revision) == [2])
        }
    }

    // MARK: Format 2

    /// A format 2 file (snapshots, the change log, playlists) opens as format 4 with an empty history, the rest as it
    /// was.
    @Test func aFormat2File_isUpgradedInPlace_keepingItsData() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/" + SQLiteStore.fileName
            do {
                let connection = try SQLiteConnection(path: path, mode: .readWrite)
                defer { connection.close() }
                try connection.execute(
                    "CREATE TABLE boards (name TEXT PRIMARY KEY, revision INTEGER NOT NULL, state BLOB NOT NULL)")
                try connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                try connection.execute("CREATE TABLE playlists (name TEXT PRIMARY KEY, definition BLOB NOT NULL)")
                try connection.execute(
                    """
                    CREATE TABLE changes (board TEXT NOT NULL, revision INTEGER NOT NULL, tick INTEGER NOT NULL,
                    fps INTEGER NOT NULL, change BLOB NOT NULL, PRIMARY KEY (board, revision)) WITHOUT ROWID
                    """)
                try connection.execute("INSERT INTO meta (key, value) VALUES ('format', '2'), ('probes', '4'), ('open', '0')")
                try connection.execute("INSERT INTO boards (name, revision, state) VALUES ('main', 7, x'7b7d')")
                try connection.execute(
                    "INSERT INTO changes (board, revision, tick, fps, change) VALUES ('main', 8, 600, 60, x'2a')")
                try connection.execute("INSERT INTO playlists (name, definition) VALUES ('tour', x'5b5d')")
            }
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            #expect(try store.loadAll() == [StoredRecord(board: "main", revision: 7, state: Array("{}".utf8))])
            #expect(
                try store.loadChanges().map { "\($0.board) \($0.revision) \($0.tick) \($0.fps) \(try $0.change)" } == [
                    "main 8 600 60 [42]"
                ])
            #expect(try store.loadPlaylists() == [StoredPlaylist(name: "tour", definition: Array("[]".utf8))])
            #expect(try Self.read(store, "main", "move").isEmpty)
            let now = Self.milliseconds(secondsAgo: 1)
            #expect(
                try completed {
                    store.append(Self.change("main", 9, [Self.point("move", now, 0.5, revision: 9)]), completion: $0)
                } == nil)
            #expect(try Self.read(store, "main", "move") == [HistoryRow(milliseconds: now, revision: 9, value: 0.5, status: nil)])
            let reader = try SQLiteConnection(path: path, mode: .readOnly)
            defer { reader.close() }
            #expect(try reader.queryText("SELECT value FROM meta WHERE key = 'format'") == "4")
            #expect(try reader.queryText("SELECT value FROM meta WHERE key = 'probes'") == "4")
        }
    }

    // MARK: Retention

    /// Three points two hours old and eight of the last ten minutes, fewer than the slack, so all eleven are on disk:
    /// a read still gives exactly what the bound keeps.
    @Test(arguments: [(Int64(100), 8), (Int64(5), 5), (Int64(8), 8), (Int64(1), 1)])
    func aRead_givesExactlyThePointsInTheWindow_atMostTheNewest(points: Int64, expected: Int) throws {
        try withTemporaryDirectory { directory in
            let bound = HistoryBound(seconds: 3_600, points: points)
            let store = try SQLiteStore(directory: directory, retention: .standard, history: bound)
            defer { store.close() }
            let old = [7_300.0, 7_250, 7_200].map { Self.milliseconds(secondsAgo: $0) }
            let recent = (0..<8).map { Self.milliseconds(secondsAgo: 600 - Double($0) * 60) }
            let times = old + recent
            Self.appendAll(Self.changes("b", ring: "move", times: times), to: store)
            #expect(try Self.rows(store, board: "b") == 11, "fewer than the slack: nothing trimmed yet")
            let read = try Self.read(store, "b", "move")
            #expect(read.map(\.milliseconds) == Array(recent.suffix(expected)))
            #expect(read.map(\.value) == (11 - expected..<11).map(Double.init))
            // Within since…until, of the kept points only: an older since does not bring back what is not kept.
            #expect(try Self.read(store, "b", "move", since: old[0]).map(\.milliseconds) == Array(recent.suffix(expected)))
            #expect(try Self.read(store, "b", "move", until: old[2]).isEmpty)
            #expect(
                try Self.read(store, "b", "move", since: recent[7] - 1, until: recent[7]).map(\.milliseconds) == [recent[7]])
        }
    }

    /// A snapshot deletes its board's points older than the window its board keeps (the bound the server gives it),
    /// every ring's, whatever their count; one without a bound (written as the server starts) leaves them.
    @Test func aSnapshot_trimsItsBoardsOldPoints() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(
                directory: directory, retention: .standard, history: HistoryBound(seconds: 3_600, points: 1_000))
            defer { store.close() }
            let old = Self.milliseconds(secondsAgo: 7_200)
            let recent = Self.milliseconds(secondsAgo: 60)
            Self.appendAll(
                [
                    Self.change("a", 1, [Self.point("move", old, 0.1, revision: 1), Self.point("stand", old, 0.2, revision: 1)]),
                    Self.change("a", 2, [Self.point("move", recent, 0.3, revision: 2)]),
                    Self.change("b", 1, [Self.point("move", old, 0.4, revision: 1)]),
                ], to: store)
            #expect(try Self.rows(store, board: "a") == 3)
            #expect(try completed { store.write([record("a", revision: 2)], completion: $0) } == nil)
            #expect(try Self.rows(store, board: "a") == 3, "no bound, no trim")
            var bounded = StoredRecord(board: "a", revision: 2, state: Array("{}".utf8))
            bounded.history.bound = HistoryBound(seconds: 3_600, points: 1_000)
            #expect(try completed { store.write([bounded], completion: $0) } == nil)
            #expect(try Self.rows(store, board: "a") == 1)
            #expect(try Self.rows(store, board: "b") == 1, "another board's snapshot trims only its own")
        }
    }

    // MARK: Trimming

    /// A flood of points to one ring: its rows stay within the count and the slack all along, and a read gives the
    /// newest points; a quiet ring of the same board is untouched.
    @Test func aFlood_keepsARingsRowsWithinItsPointsAndSlack() throws {
        try withTemporaryDirectory { directory in
            let bound = HistoryBound(seconds: 86_400, points: 20)
            #expect(bound.slack == 16)
            let store = try SQLiteStore(directory: directory, retention: .standard, history: bound)
            defer { store.close() }
            let start = Self.milliseconds(secondsAgo: 3_600)
            Self.appendAll(
                Self.changes("b", ring: "stand", times: (0..<5).map { start + Int64($0) }, first: 1), to: store)
            var revision: Int64 = 6
            var most = 0
            for batch in 0..<8 {
                let times = (0..<75).map { start + 1_000 + Int64(batch * 75 + $0) }
                Self.appendAll(Self.changes("b", ring: "move", times: times, first: revision), to: store)
                revision += 75
                let rows = try Self.rows(store, board: "b", ring: "move")
                most = max(most, rows)
                #expect(rows >= 20 && rows < 20 + 16, "batch \(batch): \(rows) rows")
            }
            #expect(most > 20, "rows pile up between trims")
            let read = try Self.read(store, "b", "move")
            #expect(read.map(\.revision) == Array(revision - 20..<revision))
            #expect(try Self.rows(store, board: "b", ring: "stand") == 5)
            #expect(try Self.read(store, "b", "stand").count == 5)
        }
    }

    /// A store opened with a smaller bound reads exactly what it keeps at once; the rows on disk shrink with each
    /// ring's next writes (a board may keep a bound of its own, which only its writes carry, so nothing is trimmed as
    /// the store opens).
    @Test func reopeningWithASmallerBound_readsItAtOnce_andTrimsWithTheNextWrites() throws {
        try withTemporaryDirectory { directory in
            let recent = (0..<60).map { Self.milliseconds(secondsAgo: 300 - Double($0)) }
            do {
                let store = try SQLiteStore(
                    directory: directory, retention: .standard, history: HistoryBound(seconds: 86_400, points: 1_000))
                defer { store.close() }
                Self.appendAll(Self.changes("b", ring: "move", times: Array(recent.prefix(40))), to: store)
                #expect(try Self.rows(store, board: "b") == 40)
            }
            let store = try SQLiteStore(
                directory: directory, retention: .standard, history: HistoryBound(seconds: 3_600, points: 10))
            defer { store.close() }
            #expect(try Self.read(store, "b", "move").map(\.revision) == Array(31...40), "the newest ten, at once")
            #expect(try Self.rows(store, board: "b") == 40, "nothing deleted as it opened")
            Self.appendAll(Self.changes("b", ring: "move", times: Array(recent.suffix(20)), first: 41), to: store)
            #expect(try Self.rows(store, board: "b") <= 10 + Int(HistoryBound(seconds: 3_600, points: 10).slack))
            #expect(try Self.read(store, "b", "move").map(\.revision) == Array(51...60))
        }
    }

    /// A board's own bound travels with its writes and its reads: the store's does not apply to it.
    @Test func aBoardsOwnBound_trimsAndReadsItsRings() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(
                directory: directory, retention: .standard, history: HistoryBound(seconds: 86_400, points: 1_000))
            defer { store.close() }
            let own = HistoryBound(seconds: 86_400, points: 5)
            let times = (0..<100).map { Self.milliseconds(secondsAgo: 600 - Double($0)) }
            let changes = Self.changes("b", ring: "move", times: times).map { change in
                var change = change
                change.history.bound = own
                return change
            }
            Self.appendAll(changes, to: store)
            #expect(try Self.rows(store, board: "b") <= 5 + Int(own.slack))
            let kept = try store.history(HistoryQuery(board: "b", ring: "move", bound: own))
            #expect(kept.map(\.revision) == Array(96...100))
            Self.appendAll(Self.changes("c", ring: "move", times: times), to: store)
            #expect(try Self.rows(store, board: "c") == 100, "another board keeps the store's")
            let off = HistoryBound(seconds: 0, points: 5)
            #expect(try store.history(HistoryQuery(board: "c", ring: "move", bound: off)).isEmpty)
        }
    }

    // MARK: Deleting

    @Test func aChangeThatRemovesARing_deletesItsRows() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, retention: .standard)
            defer { store.close() }
            let now = Self.milliseconds(secondsAgo: 30)
            Self.appendAll(
                [
                    Self.change("b", 1, ["move", "stand", "task"].map { Self.point($0, now, 0.5, revision: 1) }),
                    Self.change("other", 1, [Self.point("stand", now, 0.5, revision: 1)]),
                ], to: store)
            #expect(
                try completed {
                    store.append(
                        Self.change("b", 2, [Self.point("move", now + 1, 0.75, revision: 2)], removed: ["stand"]), completion: $0)
                } == nil)
            #expect(try Self.rows(store, board: "b", ring: "stand") == 0)
            #expect(try Self.read(store, "b", "stand").isEmpty)
            #expect(try Self.rows(store, board: "b", ring: "move") == 2)
            #expect(try Self.rows(store, board: "b", ring: "task") == 1)
            #expect(try Self.rows(store, board: "other", ring: "stand") == 1, "another board's ring of that name stays")
            // A snapshot that removes a ring (a board replaced by a push that created it anew) deletes it too.
            let snapshot = StoredRecord(board: "b", revision: 3, history: StoredHistory(removedRings: ["task"]), state: [3])
            #expect(try completed { store.write([snapshot], completion: $0) } == nil)
            #expect(try Self.rows(store, board: "b", ring: "task") == 0)
            #expect(try Self.rows(store, board: "b", ring: "move") == 2)
        }
    }

    @Test func aTombstone_andADeletedBoard_takeTheirHistoryAlong() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, retention: .standard)
            let now = Self.milliseconds(secondsAgo: 30)
            for board in ["a", "b", "c"] {
                Self.appendAll(Self.changes(board, ring: "move", times: [now, now + 1, now + 2]), to: store)
            }
            let tombstone = StoredRecord(board: "a", revision: 4, endsLog: true, state: [0])
            #expect(try completed { store.write([tombstone], completion: $0) } == nil)
            #expect(try Self.rows(store, board: "a") == 0)
            #expect(try Self.read(store, "a", "move").isEmpty)
            #expect(try Self.rows(store, board: "b") == 3)
            #expect(try completed { store.delete(board: "b", completion: $0) } == nil)
            #expect(try Self.rows(store, board: "b") == 0)
            #expect(try Self.rows(store, board: "c") == 3)
            store.close()
            let reopened = try SQLiteStore(directory: directory, retention: .standard)
            defer { reopened.close() }
            #expect(try Self.rows(reopened, board: "a") + Self.rows(reopened, board: "b") == 0)
            #expect(try Self.read(reopened, "c", "move").count == 3)
        }
    }

    /// A board created, pushed to and deleted within one group commit: the tombstone covers the push, so none of the
    /// board's history may stay.
    @Test func aTombstoneInTheBatchOfItsBoardsSnapshotAndChange_leavesNoHistory() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, retention: .standard)
            defer { store.close() }
            let now = Self.milliseconds(secondsAgo: 1)
            let log = CompletionLog()
            store.pauseWriter()
            store.write(
                [
                    StoredRecord(
                        board: "x", revision: 1, history: StoredHistory(points: [Self.point("move", now, 0.1, revision: 1)]),
                        state: [1])
                ], completion: log.completion(0))
            store.append(Self.change("x", 2, [Self.point("move", now + 1, 0.2, revision: 2)]), completion: log.completion(1))
            store.write([StoredRecord(board: "x", revision: 3, endsLog: true, state: [0])], completion: log.completion(2))
            store.resumeWriter()
            #expect(log.waitFor(3))
            #expect(log.entries.allSatisfy { $0.error == nil })
            #expect(try Self.rows(store, board: "x") == 0)
            #expect(try Self.read(store, "x", "move").isEmpty)
        }
    }

    // MARK: Off

    @Test(arguments: [HistoryBound(seconds: 3_600, points: 0), HistoryBound(seconds: 0, points: 100)])
    func historyOff_storesNothing(bound: HistoryBound) throws {
        try withTemporaryDirectory { directory in
            #expect(bound.isOff)
            let store = try SQLiteStore(directory: directory, retention: .standard, history: bound)
            defer { store.close() }
            let now = Self.milliseconds(secondsAgo: 1)
            Self.appendAll(Self.changes("b", ring: "move", times: (0..<40).map { now - Int64($0) }), to: store)
            let created = StoredRecord(
                board: "c", revision: 1, history: StoredHistory(points: [Self.point("move", now, 1, revision: 1)]), state: [1])
            #expect(try completed { store.write([created], completion: $0) } == nil)
            #expect(try Self.rows(store, board: "b") == 0)
            #expect(try Self.rows(store, board: "c") == 0)
            #expect(try Self.read(store, "b", "move").isEmpty)
            #expect(try store.loadChanges().count == 40, "the changes themselves are logged")
        }
    }
}
