import Foundation
import Testing

@testable import RingCastCore

/// `staleAfter` at every boundary it crosses (DESIGN §13): a PATCH entry or PUT ring body, a board's PUT body and
/// its ring definitions, each with the same range, refusals naming the field and changing nothing.
@Suite("Stale data requests")
struct StaleRequestTests {
    static func decode<T: Decodable>(_ type: T.Type, _ body: String) throws(APIError) -> T {
        try RequestDecoder.decode(type, from: Array(body.utf8))
    }

    @Test func patchEntry_setsAndClearsARingsStaleAfter() throws {
        let patch = try Self.decode(BoardPatch.self, #"{"rings":{"move":{"staleAfter":600},"stand":{"staleAfter":null}}}"#)
        #expect(patch.rings["move"] == RingPatch(staleAfter: 600))
        #expect(patch.rings["stand"] == RingPatch(clearsStaleAfter: true))

        var board = Board(spec: Fixtures.board)
        try board.apply(patch, at: 0)
        #expect(board.spec.ring(withID: "move")?.staleAfter == 600)
        #expect(board.isShapedByAPI)
        try board.apply(try Self.decode(RingUpdate.self, #"{"staleAfter":null,"progress":0.5}"#), toRing: "move", at: 1)
        #expect(board.spec.ring(withID: "move")?.staleAfter == nil)
        #expect(board.target(ofRing: "move") == 0.5)
    }

    /// Every kind takes it, read-only rings and widgets too: it is about when a ring shows stale, not a value.
    @Test func everyKind_takesStaleAfter() throws {
        var board = Board(spec: try WidgetBoardTests.spec())
        let ids = board.spec.rings.map(\.id)
        try board.apply(BoardPatch(rings: Dictionary(uniqueKeysWithValues: ids.map { ($0, RingPatch(staleAfter: 60)) })), at: 0)
        #expect(board.spec.rings.allSatisfy { $0.staleAfter == 60 })
        var main = Board(spec: Fixtures.board)
        try main.apply(BoardPatch(rings: ["overall": RingPatch(staleAfter: 5), "countdown": RingPatch(staleAfter: 7)]), at: 0)
        #expect(main.spec.ring(withID: "overall")?.staleAfter == 5)
        #expect(main.spec.ring(withID: "countdown")?.staleAfter == 7)
    }

    @Test func boardDefinition_andItsRings_takeStaleAfter() throws {
        let definition = try Self.decode(
            BoardDefinition.self, #"{"staleAfter":900,"rings":[{"id":"build","staleAfter":60},{"id":"tests","staleAfter":null}]}"#
        )
        let spec = try definition.spec(named: "ci", maximumRings: 24)
        #expect(spec.staleAfter == 900)
        #expect(spec.rings.map(\.staleAfter) == [60, nil])
        let template = try Self.decode(BoardDefinition.self, #"{"template":"tasks","staleAfter":1}"#)
        #expect(try template.spec(named: "ci", maximumRings: 24).staleAfter == 1)
        // A ring added later keeps the board's setting, and brings its own.
        let added = try spec.adding(try Self.decode(NewRing.self, #"{"id":"deploy","staleAfter":30}"#).ring, maximumRings: 24)
        #expect(added.staleAfter == 900)
        #expect(added.ring(withID: "deploy")?.staleAfter == 30)
        #expect(try spec.removing(ring: "tests").staleAfter == 900)
    }

    static let refusedEntries: [RefusedBody] = [
        .init(#"{"rings":{"move":{"staleAfter":0}}}"#, 422, "out_of_range", "rings.move.staleAfter"),
        .init(#"{"rings":{"move":{"staleAfter":604801}}}"#, 422, "out_of_range", "rings.move.staleAfter"),
        .init(#"{"rings":{"move":{"staleAfter":-5}}}"#, 422, "out_of_range", "rings.move.staleAfter"),
        .init(#"{"rings":{"move":{"staleAfter":1.5}}}"#, 422, "out_of_range", "rings.move.staleAfter"),
        .init(#"{"rings":{"move":{"staleAfter":1e300}}}"#, 422, "out_of_range", "rings.move.staleAfter"),
        .init(#"{"rings":{"move":{"staleAfter":1e400}}}"#, 400, "malformed", "rings.move.staleAfter"),
        .init(#"{"rings":{"move":{"staleAfter":"600"}}}"#, 400, "malformed", "rings.move.staleAfter"),
        .init(#"{"rings":{"move":{"staleAfter":true}}}"#, 400, "malformed", "rings.move.staleAfter"),
        .init(#"{"rings":{"move":{"staleAfter":{}}}}"#, 400, "malformed", "rings.move.staleAfter"),
    ]

    @Test(arguments: refusedEntries)
    func badStaleAfterInAPatch_isRefusedNamingTheField(refused: RefusedBody) {
        #expect(throws: APIError.self) { try Self.decode(BoardPatch.self, refused.body) }
        do {
            _ = try Self.decode(BoardPatch.self, refused.body)
        } catch {
            #expect([error.status, error.code, error.field] as [AnyHashable?] == [refused.status, refused.code, refused.field])
        }
    }

    static let refusedBoards: [RefusedBody] = [
        .init(#"{"template":"single","staleAfter":0}"#, 422, "out_of_range", "staleAfter"),
        .init(#"{"template":"single","staleAfter":"1"}"#, 400, "malformed", "staleAfter"),
        .init(#"{"rings":[{"id":"a","staleAfter":604801}]}"#, 422, "out_of_range", "rings.0.staleAfter"),
        .init(#"{"rings":[{"id":"a"},{"id":"b","staleAfter":0.5}]}"#, 422, "out_of_range", "rings.1.staleAfter"),
    ]

    @Test(arguments: refusedBoards)
    func badStaleAfterInABoard_isRefusedNamingTheField(refused: RefusedBody) {
        do {
            _ = try Self.decode(BoardDefinition.self, refused.body)
            Issue.record("accepted \(refused.body)")
        } catch {
            #expect([error.status, error.code, error.field] as [AnyHashable?] == [refused.status, refused.code, refused.field])
        }
    }

    /// Built in code, where no decoder looked: the board's checks refuse it and change nothing.
    @Test func aPatchBuiltInCode_outOfRange_isRefusedAndChangesNothing() throws {
        var board = Board(spec: Fixtures.board)
        #expect(throws: APIError.unprocessable("staleAfter \(Limits.staleAfterRange), got 0", field: "rings.move.staleAfter")) {
            try board.apply(BoardPatch(rings: ["move": RingPatch(staleAfter: 0)]), at: 0)
        }
        #expect(board == Board(spec: Fixtures.board))
        let definition = BoardDefinition(rings: .template(.single, count: nil), staleAfter: 604_801)
        #expect(throws: APIError.self) { try definition.spec(named: "x", maximumRings: 24) }
    }

    @Test func theLimits_areInclusive() throws {
        for seconds in [1, 604_800] {
            let patch = try Self.decode(BoardPatch.self, #"{"rings":{"move":{"staleAfter":\#(seconds)}}}"#)
            #expect(patch.rings["move"]?.staleAfter == seconds)
        }
    }
}
