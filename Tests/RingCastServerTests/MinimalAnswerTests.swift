import Foundation
import Testing

@testable import RingCastServer

/// Issue 32, item 3: a write that asks for `Prefer: return=minimal` (RFC 7240) is answered with its status, ETag and
/// Location alone, so the server encodes nothing of the board; the write itself is the same.
@Suite("Minimal answers")
struct MinimalAnswerTests {
    static let minimal = ["Content-Type": "application/json", "Prefer": "return=minimal"]

    @Test(
        arguments: [
            (nil, ReturnPreference.representation),
            ("", .representation),
            ("return=minimal", .minimal),
            ("RETURN=Minimal", .minimal),
            ("return=\"minimal\"", .minimal),
            (" respond-async , return=minimal; foo=bar", .minimal),
            ("return=representation", .representation),
            ("return=representation, return=minimal", .representation),  // only the first counts (RFC 7240 §2)
            ("return=minimal, return=representation", .minimal),
            ("handling=strict", .representation),
            ("return", .representation),
            ("return=", .representation),
            ("returns=minimal", .representation),
            ("wait=10, return = minimal", .minimal),
        ] as [(String?, ReturnPreference)])
    func theHeader_isReadAsRFC7240Says(header: String?, expected: ReturnPreference) {
        #expect(ReturnPreference(prefer: header) == expected)
    }

    @Test func aPatch_isAnswered204WithTheETag_andChangesTheBoardAsAFullAnswerWould() throws {
        let api = try TestApplication()
        let answer = try api.send(
            "PATCH", "/api/v1/boards/main", headers: Self.minimal, body: #"{"rings":{"move":0.3},"animation":"none"}"#)
        #expect(answer.status == 204, "\(answer.text)")
        #expect(answer.body.isEmpty)
        #expect(answer.headers["preference-applied"] == "return=minimal")
        let board = try api.get("/api/v1/boards/main")
        #expect(
            answer.headers["etag"] != nil && answer.headers["etag"] == board.headers["etag"], "the ETag of the board as written")
        #expect(board.text.contains(#""id":"move""#) && board.text.contains(#""progress":0.3"#), "\(board.text)")

        // The same write asked in full answers the board, at the next revision.
        let full = try api.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.4},"animation":"none"}"#)
        #expect(full.status == 200 && full.text.contains(#""progress":0.4"#), "\(full.text)")
        #expect(full.headers["preference-applied"] == nil)
    }

    @Test func creatingABoardOrARing_is201WithLocationAndETag_andNoBody() throws {
        let api = try TestApplication()
        let board = try api.send("PUT", "/api/v1/boards/ci", headers: Self.minimal, body: #"{"template":"single"}"#)
        #expect(board.status == 201, "\(board.text)")
        #expect(board.body.isEmpty)
        #expect(board.headers["location"] == "/api/v1/boards/ci")
        #expect(board.headers["etag"] == (try api.get("/api/v1/boards/ci")).headers["etag"])

        let ring = try api.send(
            "POST", "/api/v1/boards/ci/rings", headers: Self.minimal, body: #"{"id":"lint","title":"Lint"}"#)
        #expect(ring.status == 201, "\(ring.text)")
        #expect(ring.body.isEmpty)
        #expect(ring.headers["location"] == "/api/v1/boards/ci/rings/lint")
        #expect(ring.headers["etag"] == (try api.get("/api/v1/boards/ci")).headers["etag"])
    }

    @Test func aRefusal_keepsItsBody_andAWriteThatChangesNothing_isMinimalToo() throws {
        let api = try TestApplication()
        let refused = try api.send("PATCH", "/api/v1/boards/main", headers: Self.minimal, body: #"{"rings":{"move":11}}"#)
        #expect(refused.status == 422 && refused.error?.field == "rings.move", "\(refused.text)")
        #expect(refused.headers["preference-applied"] == nil)

        // No countdown runs, so cancelling changes nothing: answered at once, minimally.
        let unchanged = try api.send("DELETE", "/api/v1/boards/main/countdown", headers: Self.minimal)
        #expect(unchanged.status == 204 && unchanged.body.isEmpty, "\(unchanged.text)")
    }

    @Test func anIdempotentReplay_answersTheMinimalAnswerAgain() throws {
        let api = try TestApplication()
        var headers = Self.minimal
        headers["Idempotency-Key"] = "push-1"
        let body = #"{"rings":{"move":0.5},"animation":"none"}"#
        let first = try api.send("PATCH", "/api/v1/boards/main", headers: headers, body: body)
        let again = try api.send("PATCH", "/api/v1/boards/main", headers: headers, body: body)
        #expect(first.status == 204 && again.status == 204)
        #expect(again.headers["idempotent-replayed"] == "true")
        #expect(again.headers["etag"] == first.headers["etag"])
    }

    /// Over a real socket: the transport hands `Prefer` to the pipeline (libwebsockets 4.1.6 knows it by no token of
    /// its own, so it is looked up as a custom header).
    @Test func overTheWire_theTransportPassesPreferOn() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let answer = try server.http.send(
            "PUT", "/api/v1/boards/main/rings/move", headers: Self.minimal, body: #"{"progress":0.25,"animation":"none"}"#)
        #expect(answer.status == 204, "\(answer.text)")
        #expect(answer.body.isEmpty)
        #expect(answer.headers["preference-applied"] == "return=minimal")
        #expect(answer.headers["etag"] == (try server.http.get("/api/v1/boards/main")).headers["etag"])
    }
}
