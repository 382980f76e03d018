import Foundation
import RingCastCore
@testable import RingCastStorage
import Testing

@testable import RingCastServer

/// When a board's whole state is written (`ChangeLog`): never with a write; after `ChangeLog.snapshotEvery` changes,
/// when the board comes to rest, and at shutdown. A snapshot covers the changes before it, so a start replays only
/// what came after.
@Suite("Snapshots off the write path")
struct SnapshotPolicyTests {
    static let path = "/api/v1/boards/main"

    /// The revision of `main`'s snapshot, nil while it has none.
    static func snapshotRevision(_ api: TestApplication) throws -> Int64? {
        try api.store.loadAll().first { $0.board == "main" }?.revision
    }

    @Test func writes_areLogged_andTheSnapshotWaitsForTheBoardToRest() throws {
        let api = try TestApplication()
        for value in 1...5 {
            let body = #"{"rings":{"move":0.\#(value)},"animation":{"curve":"linear","duration":3}}"#
            #expect(try api.send("PATCH", Self.path, body: body).status == 200)
        }
        #expect(try api.store.loadChanges().map(\.revision) == [1, 2, 3, 4, 5])
        #expect(try Self.snapshotRevision(api) == nil, "no write stores the board")
        // Still animating at the store's once-a-second check: no snapshot yet.
        api.advance(seconds: 1.2)
        api.settle()
        #expect(try Self.snapshotRevision(api) == nil)
        // At rest: the next check writes it, and the log after it is empty.
        api.advance(seconds: 3)
        #expect(api.drain(until: { (try? Self.snapshotRevision(api)) == 5 }, timeout: 10))
        #expect(try api.store.loadChanges().isEmpty)
        // The log before it stays (retention), for what is built on it.
        let connection = try SQLiteConnection(path: api.store.databasePath, mode: .readOnly)
        defer { connection.close() }
        #expect(try connection.queryText("SELECT count(*) FROM changes WHERE board = 'main'") == "5")
    }

    @Test func aBoardThatNeverRests_isSnapshottedEveryThousandChanges() throws {
        let api = try TestApplication { $0.writesPerMinute = 0 }
        // A repeating animation keeps it moving.
        let forever = #"{"rings":{"stand":0.5},"animation":{"curve":"linear","duration":1,"repeat":"forever"}}"#
        #expect(try api.send("PATCH", Self.path, body: forever).status == 200)
        for value in 0..<(ChangeLog.snapshotEvery + 5) {
            let body = #"{"rings":{"move":\#(Double(value % 100) / 100)},"animation":"none"}"#
            let status = try api.send("PATCH", Self.path, body: body).status
            guard status == 200 else {
                Issue.record("write \(value) answered \(status)")
                return
            }
        }
        #expect(api.drain(until: { (try? Self.snapshotRevision(api)) != nil }, timeout: 10))
        let covered = try #require(try Self.snapshotRevision(api))
        #expect(covered >= Int64(ChangeLog.snapshotEvery) && covered <= Int64(ChangeLog.snapshotEvery) + 6, "\(covered)")
        #expect(try api.store.loadChanges().allSatisfy { $0.revision > covered })
    }

    @Test func atShutdown_everyBoardWithLoggedChangesIsSnapshotted_soTheNextStartReplaysNothing() throws {
        let api = try TestApplication()
        let body = #"{"rings":{"move":0.7},"animation":{"curve":"linear","duration":30}}"#
        #expect(try api.send("PATCH", Self.path, body: body).status == 200)
        #expect(try api.store.loadChanges().count == 1)
        api.application.writeSnapshots()
        #expect(api.drain(until: { (try? Self.snapshotRevision(api)) == 1 }, timeout: 10))
        #expect(try api.store.loadChanges().isEmpty)
    }
}
