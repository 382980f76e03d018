import Foundation
import RingCastCore
import RingCastTransport
import Testing

@testable import RingCastServer

/// In process, by tick: the real `Application` on a `MemoryLoop` (`TestApplication`); pushes through
/// `handleHTTP`, viewers through `admitViewer`, frames as the ticks are advanced.
@Suite("Broadcast to viewers")
struct BroadcastTests {
    @Test func viewerGetsLayoutThenFullFrameAtOnce_evenWhenIdle() throws {
        let app = try TestApplication()
        let viewer = app.connect()
        let messages = viewer.messages
        #expect(messages.count == 2)
        guard case .layout(let layout, _)? = messages.first else {
            Issue.record("first message is not a layout: \(messages)")
            return
        }
        #expect(layout.board == "main")
        // A hand-placed board's own arrangement first, then the portrait the server made for it.
        #expect(layout.arrangements.map(\.name) == ["landscape", "portrait"])
        #expect(layout.arrangements.first?.width == 1280 && layout.arrangements.first?.height == 720)
        #expect(
            layout.rings.map(\.id) == ["move", "exercise", "stand", "task1", "task2", "task3", "task4", "overall", "countdown"])
        #expect(layout.rings.first { $0.id == "overall" }?.kind == "derived")

        let frame = try #require(messages[1].frame)
        #expect(frame.board == "main")
        #expect(frame.seq == UInt64(app.tick))
        #expect(frame.rings.count == layout.rings.count)
        // Nothing was ever pushed: every ring is "no data", not 0 %.
        for ring in frame.rings {
            #expect(ring.p == nil, "ring \(ring.id)")
            #expect(ring.label == "—", "ring \(ring.id)")
        }
    }

    @Test func patchReachesTwoViewers_withTheSameBytesOnEveryTickOfTheAnimation() throws {
        let app = try TestApplication()
        let first = app.connect()
        let second = app.connect()
        let pushed = app.tick
        let response = try app.send(
            "PATCH", "/api/v1/boards/main",
            body: #"{"rings":{"move":0.8,"task1":0.5},"animation":{"curve":"linear","duration":1}}"#
        )
        #expect(response.status == 200, "\(response.text)")
        app.advance(ticks: Int64(app.fps) + 10)

        #expect(first.frames.last?[ring: "move"]?.p == 0.8)
        #expect(first.sent.dropFirst(2) == second.sent.dropFirst(2), "every viewer is sent the same bytes")
        let seqs = first.frames.dropFirst().map(\.seq)
        // A frame on every tick of the second the animation runs, its start and its end both included, and none after.
        #expect(seqs.first == UInt64(pushed + 1), "\(seqs)")
        #expect(seqs == Array(seqs.first!...seqs.last!), "one frame per tick: \(seqs)")
        #expect(seqs.count == app.fps + 1, "\(seqs)")
        let moving = first.frames.filter { ($0[ring: "move"]?.p ?? 0) > 0 && ($0[ring: "move"]?.p ?? 0) < 0.8 }
        #expect(moving.count >= app.fps - 2, "the animation is seen in between frames, got \(moving.count)")
    }

    @Test func lastFrameOfAnAnimationShowsTheTargetExactly() throws {
        let app = try TestApplication()
        let viewer = app.connect()
        let response = try app.send(
            "PUT", "/api/v1/boards/main/rings/exercise",
            body: #"{"progress":0.735,"animation":{"curve":"easeOut","duration":0.6}}"#
        )
        #expect(response.status == 200, "\(response.text)")
        app.advance(ticks: Int64(app.fps))
        let ring = try #require(viewer.frames.last?[ring: "exercise"])
        #expect(ring.p == 0.735)
        #expect(ring.a0 == -Double.pi / 2)
        #expect(abs(ring.a1 - (-Double.pi / 2 + 2 * Double.pi * 0.735)) < 1e-12)
        #expect(ring.label == "74%")  // 73.5 rounds half to even in binary: 0.735 × 100 = 73.5 → 74
        // Relative to the ring's centre: the page translates to where its arrangement places the ring.
        #expect(abs(ring.tip.x - 178 * cos(ring.a1)) < 1e-9)
        #expect(abs(ring.tip.y - 178 * sin(ring.a1)) < 1e-9)
        #expect(ring.tip.visible == false)

        // Each frame's label is the percent rule applied to that frame's p (counting along).
        var labels: [String] = []
        for frame in viewer.frames {
            guard let p = frame[ring: "exercise"]?.p else { continue }
            #expect(frame[ring: "exercise"]?.label == "\(Int((p * 100).rounded(.toNearestOrEven)))%")
            labels.append(frame[ring: "exercise"]!.label)
        }
        #expect(Set(labels).count >= 5, "the label should count along: \(labels)")
    }

    @Test func ringsPushedTogetherStartInTheSameFrame_andOverallIsTheMeanOfDisplayedTasks() throws {
        let app = try TestApplication()
        let viewer = app.connect()
        let response = try app.send(
            "PATCH", "/api/v1/boards/main",
            body:
                #"{"rings":{"task1":0.8,"task2":0.4,"task3":{"progress":1.0},"task4":0.2},"animation":{"curve":"linear","duration":0.3}}"#
        )
        #expect(response.status == 200, "\(response.text)")
        app.advance(ticks: Int64(app.fps))
        #expect(viewer.frames.last?[ring: "task1"]?.p == 0.8)

        let frames = viewer.frames.dropFirst()
        #expect(frames.count >= 5)
        for frame in frames {
            let tasks = ["task1", "task2", "task3", "task4"].map { frame[ring: $0]?.p ?? .nan }
            // Linear and started together: every task is the same fraction of its target.
            let fraction = tasks[0] / 0.8
            #expect(abs(tasks[1] / 0.4 - fraction) < 1e-9)
            #expect(abs(tasks[2] / 1.0 - fraction) < 1e-9)
            #expect(abs(tasks[3] / 0.2 - fraction) < 1e-9)
            let overall = try #require(frame[ring: "overall"]?.p)
            #expect(abs(overall - tasks.reduce(0, +) / 4) < 1e-12, "seq \(frame.seq)")
        }
        #expect(viewer.frames.last?[ring: "overall"]?.p.map { abs($0 - 0.6) < 1e-12 } == true)
    }

    @Test func lateJoinerGetsLayoutAndTheCurrentPictureMidAnimation_thenTheSameFramesAsEveryoneElse() throws {
        let app = try TestApplication()
        let early = app.connect()
        _ = try app.send(
            "PATCH", "/api/v1/boards/main", body: #"{"rings":{"stand":0.9},"animation":{"curve":"linear","duration":10}}"#)
        app.advance(ticks: 2 * Int64(app.fps))

        let late = app.connect()
        guard case .layout? = late.messages.first else {
            Issue.record("the late joiner's first message is not the layout")
            return
        }
        let keyframe = try #require(late.frames.first)
        #expect(keyframe.seq == UInt64(app.tick))
        #expect(keyframe.rings.count == 9)
        let stand = try #require(keyframe[ring: "stand"]?.p)
        #expect(abs(stand - 0.9 * 2 / 10) < 0.01, "the keyframe shows the animation in progress, got \(stand)")
        // It then follows the same frames as everyone else: the deltas against the tick it was greeted with.
        app.advance(ticks: 5)
        #expect(late.sent.count == 2 + 5)
        #expect(late.sent.suffix(5).elementsEqual(early.sent.suffix(5)), "the same bytes as the early viewer")
    }

    @Test func idleBoardSendsNoFrames_andAJumpIsOneFrame() throws {
        let app = try TestApplication()
        let viewer = app.connect()
        app.advance(ticks: 10 * Int64(app.fps))
        #expect(viewer.messages.count == 2, "no frames while nothing moves")
        #expect(app.loop.published.isEmpty, "nothing composed for nobody")

        let response = try app.send("PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":0.5,"animation":"none"}"#)
        #expect(response.status == 200)
        app.advance(ticks: 10 * Int64(app.fps))
        #expect(viewer.messages.count == 3, "the jump's frame, then silence")
        #expect(viewer.frames.last?[ring: "move"]?.p == 0.5)
    }

    @Test func reducedMotionViewer_getsTheEndStateOfAPushOnItsFirstTick_andNoAnimationFrames() throws {
        let app = try TestApplication()
        let full = app.connect()
        let still = app.connect("board=main&format=json&motion=reduced")
        let greeted = try #require(full.frames.last?.seq)

        let response = try app.send(
            "PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.6},"animation":{"curve":"linear","duration":0.3}}"#
        )
        #expect(response.status == 200)
        app.advance(ticks: 2 * Int64(app.fps))
        #expect(still.messages.count == 3, "layout, keyframe, end state — no frames in between: \(still.frames.map(\.seq))")
        // The end state came on the push's first tick, the first frame the full viewer got after its greeting.
        let first = try #require(full.frames.first { $0.seq > greeted })
        let end = try #require(still.frames.last)
        #expect(end.seq == first.seq)
        #expect(end[ring: "move"]?.p == 0.6)
        #expect(first[ring: "move"]?.p != 0.6, "the full viewer's first frame of the push is its start")
        #expect(end.keyframe == true)
        // The same picture the full viewers end on.
        #expect(end[ring: "move"] == full.frames.last?[ring: "move"])
        #expect(full.frames.count > 5)
    }

    /// Issue 35, item 3: no per-tick work nobody sees. While only reduced-motion viewers watch an animating board,
    /// no full-motion frame is composed or published; once a full-motion viewer joins, every tick is.
    @Test func aBoardOnlyReducedMotionViewersWatch_publishesNoFullMotionFrame_untilAFullMotionViewerJoins() throws {
        let app = try TestApplication()
        let still = app.connect("board=main&format=json&motion=reduced")
        let response = try app.send(
            "PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.6},"animation":{"curve":"linear","duration":1}}"#)
        #expect(response.status == 200)
        let before = app.loop.published.count
        app.advance(ticks: Int64(app.fps) / 2)
        let motions = app.loop.published.dropFirst(before).compactMap { ($0.channel.base as? StreamKey)?.motion }
        #expect(!motions.contains(.full), "full-motion frames published for nobody: \(motions.count)")
        #expect(motions.contains(.reduced), "the reduced-motion viewer's end state")
        #expect(still.frames.last?[ring: "move"]?.p == 0.6)

        // A full-motion viewer mid-animation: from its greeting on, a frame every tick.
        let full = app.connect()
        let joined = app.loop.published.count
        app.advance(ticks: 10)
        let published = app.loop.published.dropFirst(joined).filter { ($0.channel.base as? StreamKey)?.motion == .full }
        #expect(published.count == 10, "one full-motion frame a tick: \(published.map(\.sequence))")
        #expect(full.frames.count >= 10)
        let moving = full.frames.compactMap { $0[ring: "move"]?.p }
        #expect(Set(moving).count >= 10, "the animation, frame by frame: \(moving)")
    }

    @Test func reducedMotionViewer_getsACountdownsWholeSeconds() throws {
        let app = try TestApplication()
        let still = app.connect("board=main&format=json&motion=reduced")
        let started = try app.send("POST", "/api/v1/boards/main/countdown", body: #"{"seconds":2}"#)
        #expect(started.status < 300)
        app.advance(ticks: 4 * Int64(app.fps))
        let frames = still.frames
        let labels = frames.compactMap { $0[ring: "countdown"]?.label }
        // Its greeting, then one frame per whole second: no run of animation frames.
        #expect(Array(labels.drop { $0 != "2s" }) == ["2s", "1s", "0s"], "\(labels)")
        let seqs = frames.map(\.seq).suffix(2)
        #expect(seqs.last! - seqs.first! == UInt64(app.fps), "a second apart: \(seqs)")
    }

    @Test func viewerOfUnknownBoardIsRefused_with404() throws {
        let app = try TestApplication()
        let viewer = app.connect("board=nope&format=json")
        #expect(viewer.messages.isEmpty)
        #expect(viewer.refusal?.status == 404)
        #expect(viewer.refusal?.error?.code == "not_found", "\(viewer.refusal?.text ?? "")")
        #expect(app.loop.viewerCount == 0)
    }
}

/// Live: what only a running server shows.
@Suite("Broadcast to viewers, live")
struct BroadcastLiveTests {
    @Test func shutdownClosesViewersWithGoingAway() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitUntil("keyframe") { $0.count >= 2 }
        server.stop()
        let code = try await viewer.waitForClose()
        #expect(code == 1001)
    }
}

@Suite("Operator endpoints")
struct OperatorTests {
    @Test func metrics_countViewersFramesPushesAndRequests_inPrometheusText() throws {
        let app = try TestApplication()
        let viewer = app.connect()
        let push = try app.send(
            "PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.5},"animation":{"curve":"linear","duration":0.2}}"#
        )
        #expect(push.status == 200)
        app.advance(ticks: Int64(app.fps))
        #expect(viewer.frames.last?[ring: "move"]?.p == 0.5)
        _ = try app.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":11}}"#)

        let response = try app.get("/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
        let lines = response.text.split(separator: "\n").map(String.init)
        func value(_ prefix: String) -> Double? {
            lines.first { $0.hasPrefix(prefix + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        #expect(value(#"ringcast_viewers{board="main"}"#) == 1)
        #expect(value(#"ringcast_pushes_total{board="main"}"#) == 1)
        // Every frame the viewer got was published, but for its greeting's keyframe (composed for it alone).
        #expect(value(#"ringcast_frames_total{board="main"}"#) == Double(viewer.frames.count - 1))
        #expect(value("ringcast_messages_sent_total") == Double(viewer.messages.count))
        #expect((value("ringcast_bytes_sent_total") ?? 0) > 0)
        #expect(lines.contains { $0.hasPrefix("ringcast_http_requests_total{") && $0.contains(#"status="422""#) })
        #expect(lines.contains { $0.hasPrefix("ringcast_tick_lateness_seconds_bucket") })
        #expect(lines.contains { $0.hasPrefix("ringcast_frame_encode_seconds_count") })
    }
}

@Suite("Binary viewers")
struct BinaryViewerTests {
    @Test func binaryViewer_getsLayoutKeyframeThenDeltas_thatReconstructTheTarget() throws {
        let app = try TestApplication()
        let viewer = app.connect("board=main&format=binary")
        #expect(viewer.binaryMessages.count == 2)
        let response = try app.send(
            "PATCH", "/api/v1/boards/main",
            body: #"{"rings":{"move":0.8,"exercise":1.5},"animation":{"curve":"linear","duration":0.3}}"#
        )
        #expect(response.status == 200)
        app.advance(ticks: Int64(app.fps))

        var layout: BinaryFrame.DecodedLayout?
        var state: [Int: BinaryFrame.RingValues] = [:]
        var kinds: [BinaryFrame.Kind] = []
        for bytes in viewer.binaryMessages {
            switch try BinaryFrame.decode(bytes) {
            case .layout(let decoded): layout = decoded
            case .frame(let frame):
                kinds.append(frame.kind)
                BinaryFrame.apply(frame, to: &state)
            case .event: break
            }
        }
        let ids = try #require(layout?.ringIDs)
        #expect(ids.count == 9)
        #expect(kinds.first == .keyframe)
        #expect(kinds.dropFirst().allSatisfy { $0 == .delta }, "a viewer that reads every frame gets deltas: \(kinds)")
        let move = try #require(ids.firstIndex(of: "move"))
        let exercise = try #require(ids.firstIndex(of: "exercise"))
        #expect(state[move]?.p == Float(0.8))
        #expect(String(decoding: state[move]?.label ?? [], as: UTF8.self) == "80%")
        #expect(state[exercise]?.state.contains(.beyondOneTurn) == true)
        #expect(String(decoding: state[exercise]?.label ?? [], as: UTF8.self) == "150%")
        // Deltas of a moving ring stay small: ≤ 24 bytes per changed ring plus its label.
        let largest = viewer.binaryMessages.dropFirst(2).map(\.count).max() ?? 0
        #expect(largest <= 17 + 2 * (24 + 5), "largest delta \(largest) bytes")
    }
}
