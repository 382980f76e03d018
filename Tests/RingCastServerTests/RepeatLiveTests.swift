import Foundation
import RingCastTransport
import Testing

/// A `forever` animation through the real server (issue 22 item 7): it never finishes, yet a board nobody
/// watches composes no frames, and a watched one keeps composing past the animation's duration.
@Suite("Repeating animations, live")
struct RepeatLiveTests {
    static let board = "/api/v1/boards/main"

    /// What `GET /api/v1/boards/main` says of one ring.
    struct Snapshot: Decodable {
        struct Ring: Decodable {
            var id: String
            var progress: Double?
            var animating: Bool
        }

        var rings: [Ring]
    }

    /// The sample `name` of board main in `/metrics` (0 when absent).
    private static func metric(_ server: TestServer, _ name: String) throws -> Double {
        let text = try server.http.get("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + #"{board="main"} "#) }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
    }

    /// `ringcast_frames_total` of board main: frames composed and published (one per tick and format watched).
    private static func framesPublished(_ server: TestServer) throws -> Int {
        Int(try metric(server, "ringcast_frames_total"))
    }

    private static func move(_ server: TestServer) throws -> Snapshot.Ring {
        try #require(try server.http.get(board).decode(Snapshot.self).rings.first { $0.id == "move" })
    }

    @Test func aForeverAnimation_composesFramesOnlyWhileSomeoneWatches() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let pass = 0.2
        let pushed = Date()
        let push = try server.http.send(
            "PUT", Self.board + "/rings/move",
            body: #"{"progress":1,"animation":{"curve":"linear","duration":0.2,"repeat":"forever","autoreverse":true}}"#)
        #expect(push.status == 200, "\(push.text)")

        // Nobody watches: the animation runs on (GET computes the presentation at its instant) for four passes
        // and more, and not one frame is composed.
        while Date().timeIntervalSince(pushed) < 4 * pass {
            #expect(try Self.move(server).animating)
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try Self.move(server).animating, "animating past the animation's duration")
        #expect(try Self.framesPublished(server) == 0, "frames composed for a board nobody watches")

        // A viewer: frames every tick, well past the 0.2 s the animation lasts, up and down.
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitUntil("the greeting") { $0.count >= 2 }
        let greeting = try #require(viewer.frames.first?.seq)
        let ticks = UInt64(6 * pass * 60)
        try await viewer.waitUntil(timeout: 20, "six passes of frames") { messages in
            (messages.last?.frame?.seq ?? 0) >= greeting + ticks
        }
        let values = viewer.frames.compactMap { $0[ring: "move"]?.p }
        // A frame a tick, but a loaded test machine may skip some (a late tick is skipped, never doubled).
        #expect(values.count >= 6, "\(values.count) frames in \(ticks) ticks")
        #expect(zip(values, values.dropFirst()).contains { $0 < $1 }, "it goes up")
        #expect(zip(values, values.dropFirst()).contains { $0 > $1 }, "and back down")
        #expect(values.allSatisfy { (0...1).contains($0) })
        #expect(try Self.framesPublished(server) > 0)

        // The viewer leaves: composing stops although the animation still runs.
        viewer.close()
        _ = try await viewer.waitForClose()
        let deadline = Date().addingTimeInterval(5)
        while try Self.metric(server, "ringcast_viewers") > 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let afterLeaving = try Self.framesPublished(server)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try Self.framesPublished(server) <= afterLeaving + 1, "frames composed after the last viewer left")
        #expect(try Self.move(server).animating)
    }
}
