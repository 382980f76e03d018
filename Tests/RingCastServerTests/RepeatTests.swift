import Testing

@testable import RingCastServer

/// A `forever` animation through the shipped wiring in process (issue 22 item 7), by tick: it never finishes, yet a
/// board nobody watches composes no frames, and a watched one keeps composing past the animation's duration.
@Suite("Repeating animations")
struct RepeatTests {
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

    private static func move(_ app: TestApplication) throws -> Snapshot.Ring {
        try #require(try app.get(board).decode(Snapshot.self).rings.first { $0.id == "move" })
    }

    @Test func aForeverAnimation_composesFramesOnlyWhileSomeoneWatches() throws {
        let app = try TestApplication()
        let pass = Int64(app.fps) / 5
        let push = try app.send(
            "PUT", Self.board + "/rings/move",
            body: #"{"progress":1,"animation":{"curve":"linear","duration":0.2,"repeat":"forever","autoreverse":true}}"#)
        #expect(push.status == 200, "\(push.text)")

        // Nobody watches: the animation runs on (GET computes the presentation at its instant) for four passes
        // and more, and not one frame is composed.
        for _ in 0..<8 {
            app.advance(ticks: pass / 2)
            #expect(try Self.move(app).animating)
        }
        #expect(app.application.framesPublished == 0, "frames composed for a board nobody watches")

        // A viewer: a frame every tick, well past the 0.2 s the animation lasts, up and down.
        let viewer = app.connect()
        let greeting = try #require(viewer.frames.first?.seq)
        app.advance(ticks: 6 * pass)
        let values = viewer.frames.compactMap { $0[ring: "move"]?.p }
        #expect(viewer.frames.map(\.seq) == Array(greeting...greeting + UInt64(6 * pass)), "a frame a tick")
        #expect(zip(values, values.dropFirst()).contains { $0 < $1 }, "it goes up")
        #expect(zip(values, values.dropFirst()).contains { $0 > $1 }, "and back down")
        #expect(values.allSatisfy { (0...1).contains($0) })

        // The viewer leaves: composing stops although the animation still runs.
        viewer.leave()
        let afterLeaving = app.application.framesPublished
        #expect(afterLeaving == Int(6 * pass))
        app.advance(ticks: 10 * pass)
        #expect(app.application.framesPublished == afterLeaving, "frames composed after the last viewer left")
        #expect(try Self.move(app).animating)
    }
}
