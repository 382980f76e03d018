import Foundation
import Testing

@testable import RingCastStorage

/// Format 4 packs a ring's older points into blocks of 256 (`HistoryBlock`): the bytes of a block read back as its
/// points, and refuse to when cut; a ring's points move into blocks with its trims and as the store opens (a format 3
/// file's too), and read back the same, oldest first, whichever table holds them; the bound still holds on disk, and
/// time, a removed ring and a damaged block are handled.
@Suite("Ring history in blocks")
struct HistoryBlockTests {
    typealias Store = HistoryStoreTests

    static let rows = [
        HistoryRow(milliseconds: 1_796_000_000_000, revision: 1, value: 0.5, status: nil),
        HistoryRow(milliseconds: 1_796_000_000_016, revision: 2, value: -0.0, status: "running"),
        HistoryRow(milliseconds: 1_796_000_000_016, revision: 3, value: .greatestFiniteMagnitude, status: ""),
        HistoryRow(milliseconds: -5, revision: .max, value: 1e-300, status: "✓ done"),
    ]

    @Test func aBlocksBytes_readBackAsItsPoints_fromTheOldestAskedFor() {
        let bytes = HistoryBlock.encode(Self.rows[...])
        var read: [HistoryRow] = []
        #expect(bytes.withUnsafeBytes { HistoryBlock.decode($0, from: .min, into: &read) })
        #expect(read == Self.rows)
        #expect(read.map(\.value.bitPattern) == Self.rows.map(\.value.bitPattern), "-0.0 stays -0.0")
        var newer: [HistoryRow] = []
        #expect(bytes.withUnsafeBytes { HistoryBlock.decode($0, from: 1_796_000_000_016, into: &newer) })
        #expect(newer == Array(Self.rows[1...2]))
    }

    /// Cut anywhere but between two points, the bytes are refused (never read past their end); cut between two, they
    /// are the points before the cut.
    @Test func aBlockCutShort_isRefused() {
        let bytes = HistoryBlock.encode(Self.rows[...])
        let ends = Self.rows.indices.map { HistoryBlock.encode(Self.rows[...$0]).count }
        for cut in 0..<bytes.count {
            var read: [HistoryRow] = []
            let decoded = Array(bytes.prefix(cut)).withUnsafeBytes { HistoryBlock.decode($0, from: .min, into: &read) }
            if cut == 0 || ends.contains(cut) {
                #expect(decoded && read == Array(Self.rows.prefix(ends.firstIndex(of: cut).map { $0 + 1 } ?? 0)), "cut at \(cut)")
            } else {
                #expect(!decoded, "cut at \(cut)")
            }
        }
    }

    /// What a read keeps of the rows it found, by table: in order as they came, sorted when a point came late, the
    /// later of two with one time and revision, the newest `points`, then through `until`.
    @Test func theKeptRows_byTable() {
        func row(_ milliseconds: Int64, _ revision: Int64, _ value: Double = 0) -> HistoryRow {
            HistoryRow(milliseconds: milliseconds, revision: revision, value: value, status: nil)
        }
        let ordered = [row(1, 1), row(2, 2), row(2, 3), row(5, 4)]
        #expect(SQLiteStore.kept(ordered, points: 10, until: .max) == ordered)
        #expect(SQLiteStore.kept(ordered, points: 2, until: .max) == [row(2, 3), row(5, 4)])
        #expect(SQLiteStore.kept(ordered, points: 10, until: 2) == Array(ordered.prefix(3)))
        #expect(SQLiteStore.kept(ordered, points: 2, until: 4) == [row(2, 3)], "the newest two, then through 4")
        #expect(SQLiteStore.kept(ordered, points: 10, until: 0).isEmpty)
        #expect(SQLiteStore.kept([], points: 10, until: .max).isEmpty)
        let late = [row(1, 1), row(4, 3), row(6, 4), row(3, 9)]
        #expect(SQLiteStore.kept(late, points: 10, until: .max) == [row(1, 1), row(3, 9), row(4, 3), row(6, 4)])
        let twice = [row(1, 1, 0.1), row(2, 2, 0.2), row(3, 3, 0.3), row(2, 2, 0.9)]
        #expect(SQLiteStore.kept(twice, points: 10, until: .max) == [row(1, 1, 0.1), row(2, 2, 0.9), row(3, 3, 0.3)])
    }

    /// 3,000 points under the standard bound (slack 1,000): each trim packs whole blocks, so 11 blocks and 184
    /// waiting points; a read gives all 3,000 in order, and again after a reopen; a removed ring takes its blocks.
    @Test func aRingsPoints_moveIntoBlocks_andReadBackTheSame() throws {
        try withTemporaryDirectory { directory in
            let start = Store.milliseconds(secondsAgo: 3_600)
            let times = (0..<3_000).map { start + Int64($0) * 100 }
            do {
                let store = try SQLiteStore(directory: directory, retention: .standard)
                defer { store.close() }
                for batch in 0..<6 {
                    let part = Array(times[batch * 500..<(batch + 1) * 500])
                    let changes = Store.changes("b", ring: "move", times: part, first: Int64(batch * 500 + 1))
                    Store.appendAll(changes, to: store)
                }
                #expect(try Store.count("count(*) FROM history_blocks", store, board: "b") == 11)
                #expect(try Store.count("count(*) FROM history", store, board: "b") == 184)
                let read = try Store.read(store, "b", "move")
                #expect(read.map(\.milliseconds) == times)
                #expect(read.map(\.revision) == Array(1...3_000))
                #expect(read.map(\.value) == (0..<3_000).map { Double($0 % 500) })
            }
            let store = try SQLiteStore(directory: directory, retention: .standard)
            defer { store.close() }
            #expect(try Store.read(store, "b", "move").map(\.revision) == Array(1...3_000))
            #expect(
                try Store.read(store, "b", "move", since: times[1_000], until: times[2_000]).map(\.revision)
                    == Array(1_001...2_001))
            Store.appendAll([Store.change("b", 3_001, [], removed: ["move"])], to: store)
            #expect(try Store.rows(store, board: "b") == 0)
            #expect(try Store.read(store, "b", "move").isEmpty)
        }
    }

    /// A flood past a bound of 600 points (slack 60): a read gives exactly the newest 600 after every batch, and the
    /// ring's points on disk stay within 600 + 60 + two blocks.
    @Test func aFloodPastTheBound_keepsTheNewestPoints_withinTheBoundOnDisk() throws {
        try withTemporaryDirectory { directory in
            let bound = HistoryBound(seconds: 86_400, points: 600)
            let store = try SQLiteStore(directory: directory, retention: .standard, history: bound)
            defer { store.close() }
            let start = Store.milliseconds(secondsAgo: 3_600)
            var most = 0
            for batch in 0..<30 {
                let first = Int64(batch * 100 + 1)
                let times = (0..<100).map { start + (first + Int64($0)) * 10 }
                Store.appendAll(Store.changes("b", ring: "move", times: times, first: first), to: store)
                let newest = first + 99
                #expect(try Store.read(store, "b", "move").map(\.revision) == Array(max(1, newest - 599)...newest))
                let rows = try Store.rows(store, board: "b", ring: "move")
                most = max(most, rows)
                #expect(rows <= 600 + 60 + 2 * HistoryBlock.size, "batch \(batch): \(rows) points on disk")
            }
            #expect(try Store.count("count(*) FROM history_blocks", store, board: "b") > 0)
            #expect(most > 600, "points pile up between trims")
        }
    }

    /// A point older than the blocks (a late one) reads in its place.
    @Test func aLatePoint_readsInItsPlace() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, retention: .standard)
            defer { store.close() }
            let start = Store.milliseconds(secondsAgo: 3_600)
            Store.appendAll(Store.changes("b", ring: "move", times: (0..<1_000).map { start + Int64($0) * 10 }), to: store)
            #expect(try Store.count("count(*) FROM history_blocks", store, board: "b") == 3)
            Store.appendAll([Store.change("b", 1_001, [Store.point("move", start + 5, 0.5, revision: 1_001)])], to: store)
            let read = try Store.read(store, "b", "move")
            #expect(read.count == 1_001)
            #expect(read.prefix(3).map(\.revision) == [1, 1_001, 2])
            #expect(zip(read, read.dropFirst()).allSatisfy { HistoryRow.precedes($0, $1) })
        }
    }

    /// A snapshot drops its board's blocks whose points are all older than the window.
    @Test func aSnapshot_dropsBlocksOlderThanTheWindow() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, retention: .standard)
            defer { store.close() }
            let old = Store.milliseconds(secondsAgo: 7_200)
            Store.appendAll(Store.changes("b", ring: "move", times: (0..<1_000).map { old + Int64($0) }), to: store)
            #expect(try Store.count("count(*) FROM history_blocks", store, board: "b") == 3)
            var bounded = StoredRecord(board: "b", revision: 1_000, state: Array("{}".utf8))
            bounded.history.bound = HistoryBound(seconds: 3_600, points: 10_000)
            #expect(try completed { store.write([bounded], completion: $0) } == nil)
            #expect(try Store.rows(store, board: "b") == 0)
        }
    }

    /// A format 3 file's points (a row each) move into blocks as it opens, and read the same; a block damaged on disk
    /// makes that ring's read fail with a clear error, and the store reads other rings still.
    @Test func aFormat3File_isPackedAsItOpens_andADamagedBlockIsAnError() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/" + SQLiteStore.fileName
            let start = Store.milliseconds(secondsAgo: 600)
            try SQLiteStore(directory: directory).close()
            do {
                let connection = try SQLiteConnection(path: path, mode: .readWrite)
                defer { connection.close() }
                try connection.execute("DROP TABLE history_blocks")
                try connection.execute("UPDATE meta SET value = '3' WHERE key = 'format'")
                try connection.execute("BEGIN")
                for index in 0..<1_000 {
                    let status = index % 3 == 0 ? "'running'" : "NULL"
                    try connection.execute(
                        "INSERT INTO history VALUES ('b', 'move', \(start + Int64(index)), \(index + 1), \(Double(index) / 1_000), \(status))"
                    )
                }
                try connection.execute("INSERT INTO history VALUES ('b', 'stand', \(start), 1, 0.5, NULL)")
                try connection.execute("COMMIT")
            }
            do {
                let store = try SQLiteStore(directory: directory)
                defer { store.close() }
                #expect(try Store.count("count(*) FROM history_blocks", store, board: "b") == 3)
                #expect(try Store.count("count(*) FROM history", store, board: "b") == 232 + 1)
                let read = try Store.read(store, "b", "move")
                #expect(read.map(\.revision) == Array(1...1_000))
                #expect(read.map(\.status) == (0..<1_000).map { $0 % 3 == 0 ? "running" : nil })
                #expect(read.map(\.value) == (0..<1_000).map { Double($0) / 1_000 })
            }
            do {
                let connection = try SQLiteConnection(path: path, mode: .readWrite)
                defer { connection.close() }
                #expect(try connection.queryText("SELECT value FROM meta WHERE key = 'format'") == "4")
                try connection.execute("UPDATE history_blocks SET points = x'0102' WHERE revision = 257")
            }
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            let error = #expect(throws: StorageError.self) { try Store.read(store, "b", "move") }
            #expect(error?.message == "reading the history of ring move of board b: a block of its points is damaged")
            #expect(try Store.read(store, "b", "stand").map(\.value) == [0.5])
        }
    }
}
