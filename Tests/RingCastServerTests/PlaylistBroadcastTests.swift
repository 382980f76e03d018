import RingCastCore
import Testing

/// Playlists through the shipped wiring in process (`TestApplication`), by tick: every screen switches on the same
/// tick with the same bytes, through the splash; reduced-motion screens skip it; deleting a playlist or one of its
/// boards reaches its viewers. (`PlaylistLiveTests` keeps what a restart shows.)
@Suite("Playlists, wired")
struct PlaylistBroadcastTests {
    typealias Message = PlaylistLiveTests.Message

    /// Board `ci` (a single ring on #4533c9) beside the shipped `main`, and playlist `wall` of both.
    private func appWithPlaylist(seconds: Int, transition: String = "circle") throws -> TestApplication {
        let app = try TestApplication()
        let board = try app.send(
            "PUT", "/api/v1/boards/ci", body: #"{"template":"single","background":"\#(PlaylistLiveTests.ciBackground)"}"#)
        try #require(board.status == 201, "\(board.text)")
        let playlist = try app.send(
            "PUT", "/api/v1/playlists/wall",
            body: #"{"boards":["main","ci"],"seconds":\#(seconds),"transition":"\#(transition)"}"#)
        try #require(playlist.status == 201, "\(playlist.text)")
        return app
    }

    private static func fromLayout(of board: String, in messages: [ViewerMessage]) -> ArraySlice<ViewerMessage>? {
        PlaylistLiveTests.fromLayout(of: board, in: messages)
    }

    @Test func twoViewers_switchBoardOnTheSameTick_withTheLayoutFirst_throughASplash() throws {
        let app = try appWithPlaylist(seconds: 3)
        let viewers = [app.connect("playlist=wall&format=json"), app.connect("playlist=wall&format=json")]
        var mainBackground: String?
        for viewer in viewers {
            let greeting = try #require(viewer.messages.first.flatMap(Message.of))
            try #require(greeting.type == "layout" && greeting.board == "main", "the playlist starts on its first board")
            mainBackground = greeting.layoutBackground
        }
        // To the switch to ci (switches fall on whole seconds, the first within 4 s), then past its half-second splash.
        try #require(app.advance(atMost: 4 * Int64(app.fps)) { Self.fromLayout(of: "ci", in: viewers[0].messages) != nil })
        app.advance(ticks: Int64(app.fps))

        var firsts: [ViewerMessage] = []
        for viewer in viewers {
            let switched = try #require(Self.fromLayout(of: "ci", in: viewer.messages))
            try #require(switched.count >= 2)
            firsts.append(switched[switched.startIndex + 1])
        }
        let frames = try firsts.map { try #require(Message.of($0)) }
        #expect(frames.allSatisfy { $0.type == "frame" && $0.board == "ci" && $0.keyframe == true })
        #expect(frames[0].seq == frames[1].seq, "both screens' first frame of ci is of the same tick")
        #expect(firsts[0].bytes == firsts[1].bytes, "and the same bytes")
        #expect(viewers[0].sent == viewers[1].sent, "every message the same")
        let seq = try #require(frames[0].seq)
        #expect(seq % UInt64(app.fps) == 0, "switches fall on whole seconds: tick \(seq)")

        // The splash starts there: ci's background grows from main's, in a circle.
        let background = try #require(frames[0].background)
        #expect(background.color.hasPrefix(try #require(mainBackground).prefix(7)))
        #expect(background.splash.first?.style == "circle" && background.splash.first?.progress == 0)
        #expect(background.splash.first?.color.hasPrefix(PlaylistLiveTests.ciBackground) == true)

        // And ends half a second later with a keyframe of ci's own background.
        let after = try #require(Self.fromLayout(of: "ci", in: viewers[0].messages)).compactMap(Message.of)
        let end = try #require(
            after.first { $0.keyframe == true && $0.background?.splash.isEmpty == true },
            "\(after.map { "\($0.type) \($0.seq ?? 0) \($0.keyframe ?? false) \($0.background?.splash.count ?? -1)" })")
        #expect(end.seq == seq + UInt64(app.fps / 2), "the splash lasts 0.5 s: \(String(describing: end.seq))")
        #expect(end.background?.color.hasPrefix(PlaylistLiveTests.ciBackground) == true)
        let splash = after.prefix { !($0.keyframe == true && $0.background?.splash.isEmpty == true) }
        let progresses = splash.compactMap { $0.background?.splash.first?.progress }
        #expect(progresses == progresses.sorted(), "the splash grows: \(progresses)")
        #expect(Set(splash.compactMap(\.seq)) == Set(seq..<end.seq!), "a splash frame on every tick until it ends")

        // A screen that joins now shows the board of its greeting's slot at once: ci from the switch for 3 s.
        let late = app.connect("playlist=wall&format=json")
        let greeted = try #require(late.frames.first?.seq)
        #expect(greeted > seq && greeted < seq + 3 * UInt64(app.fps))
        #expect(late.messages.first.flatMap(Message.of)?.board == "ci", "greeted at \(greeted)")
    }

    @Test func aReducedMotionViewer_getsTheNewBoardsKeyframeAtTheSwitch_withoutTheSplash() throws {
        let app = try appWithPlaylist(seconds: 4)
        let full = app.connect("playlist=wall&format=json")
        let reduced = app.connect("playlist=wall&format=json&motion=reduced")
        try #require(app.advance(atMost: 5 * Int64(app.fps)) { Self.fromLayout(of: "ci", in: full.messages) != nil })
        app.advance(ticks: Int64(app.fps))
        let fullFirst = try #require(Self.fromLayout(of: "ci", in: full.messages))
        let reducedFirst = try #require(Self.fromLayout(of: "ci", in: reduced.messages))
        let fullFrame = try #require(Message.of(fullFirst[fullFirst.startIndex + 1]))
        let reducedFrame = try #require(Message.of(reducedFirst[reducedFirst.startIndex + 1]))
        #expect(fullFrame.seq == reducedFrame.seq)
        #expect(fullFrame.background?.splash.isEmpty == false)
        #expect(reducedFrame.background?.splash.isEmpty == true && reducedFrame.keyframe == true)
        #expect(reducedFrame.background?.color.hasPrefix(PlaylistLiveTests.ciBackground) == true)
        #expect(
            reducedFirst.compactMap(Message.of).allSatisfy { $0.type == "layout" || $0.background?.splash.isEmpty == true },
            "no splash for a reduced-motion viewer")
    }

    @Test func viewersOfADeletedPlaylist_areClosedWith4404_andAnUnknownOneIsRefused() throws {
        let app = try appWithPlaylist(seconds: 30)
        let viewer = app.connect("playlist=wall&format=json")
        #expect(try app.send("DELETE", "/api/v1/playlists/wall", body: "").status == 204)
        app.settle()
        #expect(viewer.closeCode == 4404)

        let refused = app.connect("playlist=wall&format=json&refusal=message")
        #expect(refused.closeCode == 4404)
        let error = try #require(refused.messages.first)
        #expect(String(decoding: error.bytes, as: UTF8.self).contains(#""field":"playlist""#))
    }

    @Test func aBoardDeletedWhileShown_givesWayToTheNextOne_withoutClosingTheViewers() throws {
        let app = try TestApplication()
        #expect(try app.send("PUT", "/api/v1/boards/ci", body: #"{"template":"single"}"#).status == 201)
        #expect(try app.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["ci","main"],"seconds":60}"#).status == 201)
        let viewer = app.connect("playlist=wall&format=json")
        #expect(viewer.messages.first.flatMap(Message.of)?.board == "ci")
        #expect(try app.send("DELETE", "/api/v1/boards/ci", body: "").status == 204)
        app.advance(ticks: 2)
        #expect((Self.fromLayout(of: "main", in: viewer.messages)?.count ?? 0) >= 2, "switched to main at the next tick")
        #expect(viewer.closeCode == nil, "the playlist's viewers stay")
        let reading = try app.get("/api/v1/playlists/wall").text
        #expect(reading.contains(#""current":{"board":"main","index":1}"#), "\(reading)")
    }
}
