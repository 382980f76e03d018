import Foundation
import RingCastTransport
import Testing

/// A status pushed through REST and watched on a real viewer (DESIGN §13).
@Suite("Status colours, live")
struct StatusLiveTests {
    static let board = "/api/v1/boards/main"

    @Test func aStatusPatch_animatesTheRingsColourOnAViewer() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitUntil("keyframe") { $0.count >= 2 }

        // The tip is drawn in the gradient's end colour: sunflower's partner, then pomegranate.
        let running = "#f39c12ff"
        let failure = "#c0392bff"
        func tips() -> [String] { viewer.frames.compactMap { $0[ring: "move"]?.tip.color } }
        var response = try server.http.send(
            "PATCH", Self.board, body: #"{"rings":{"move":{"progress":0.5,"status":"running"}},"animation":"none"}"#)
        #expect(response.status == 200, "\(response.text)")
        try await viewer.waitUntil("running") { _ in tips().last == running }
        let before = tips().count

        response = try server.http.send("PATCH", Self.board, body: #"{"rings":{"move":{"status":"failure"}}}"#)
        #expect(response.status == 200, "\(response.text)")
        try await viewer.waitUntil(timeout: 10, "failure") { _ in tips().last == failure }
        let during = Array(tips().dropFirst(before))
        let between = Set(during.filter { $0 != running && $0 != failure })
        #expect(between.count >= 5, "the colour passes through shades between amber and red: \(during)")

        let ring = try server.http.get(Self.board + "/rings/move")
        #expect(ring.text.contains(#""status":"failure""#), "\(ring.text)")
        let refused = try server.http.send("PATCH", Self.board, body: #"{"rings":{"move":{"status":"green"}}}"#)
        #expect(refused.status == 422 && refused.text.contains(#""field":"rings.move.status""#), "\(refused.text)")
    }
}
