import Foundation
import RingCastTransport
import Testing

/// Widgets pushed through REST and watched by real viewers (DESIGN §12).
@Suite("Widgets, live")
struct WidgetLiveTests {
    static let board = "/api/v1/boards/wall"

    /// A counter pushed 99 → 100 reaches every viewer rolling: the frames between show the three columns
    /// carried together by the same fraction, and every viewer ends on `100`.
    @Test func aCounterPushedFrom99To100_rollsOnEveryViewer_andEndsOn100() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let created = try server.http.send(
            "PUT", Self.board,
            body: #"{"rings":[{"id":"build"},{"id":"passed","kind":"counter","value":99,"unit":"tests"}]}"#)
        #expect(created.status == 200 || created.status == 201, "\(created.text)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = (0..<2).map { _ in TestViewer(client: client, port: server.port, path: "/ws?board=wall&format=json") }
        for viewer in viewers {
            try await viewer.waitUntil("the greeting") { $0.contains { $0.frame?[ring: "passed"]?.label == "99 tests" } }
        }

        let pushed = try server.http.send(
            "PATCH", Self.board, body: #"{"rings":{"passed":{"value":100,"animation":{"curve":"linear","duration":0.5}}}}"#)
        #expect(pushed.status == 200, "\(pushed.text)")
        for viewer in viewers {
            try await viewer.waitUntil(timeout: 10, "100 tests") { messages in
                messages.last?.frame?[ring: "passed"]?.label == "100 tests"
            }
            let counters = viewer.frames.compactMap { $0[ring: "passed"] }
            #expect(counters.allSatisfy { $0.kind == "counter" })
            let rolling = counters.filter { ring in (ring.digits ?? []).contains { $0[1] > 0 } }
            #expect(rolling.count >= 5, "frames with rolling columns: \(rolling.count)")
            for ring in rolling {
                // The hundreds column rolls 0 → 1 while the tens and units roll 9 → 0, all by the same fraction.
                let digits = try #require(ring.digits)
                #expect(digits.map { $0[0] } == [0, 9, 9], "\(digits)")
                #expect(Set(digits.map { $0[1] }).count == 1, "\(digits)")
                #expect(abs((ring.value ?? 0) - (99 + digits[2][1])) < 1e-9)
            }
            let last = try #require(counters.last)
            #expect(last.digits ?? [] == [[1, 0], [0, 0], [0, 0]])
            #expect(last.value == 100)
        }
    }

    /// A counter refuses what a ring takes, and the refusal changes nothing.
    @Test func aCounterRefusesProgress_andTheBoardKeepsItsRevision() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        _ = try server.http.send("PUT", Self.board, body: #"{"rings":[{"id":"passed","kind":"counter","value":3}]}"#)
        let before = try server.http.send("GET", Self.board, body: "")
        let refused = try server.http.send("PATCH", Self.board, body: #"{"rings":{"passed":{"progress":0.5}}}"#)
        #expect(refused.status == 422)
        #expect(refused.text.contains("rings.passed.progress"), "\(refused.text)")
        let after = try server.http.send("GET", Self.board, body: "")
        #expect(after.text == before.text)
    }
}
