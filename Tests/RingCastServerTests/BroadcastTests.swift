import Foundation
import RingCastCore
import RingCastTransport
import Testing

/// Live: a real server on 127.0.0.1, real WebSocket viewers, real HTTP pushes.
@Suite("Broadcast to viewers")
struct BroadcastTests {
    @Test func viewerGetsLayoutThenFullFrameAtOnce_evenWhenIdle() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }

        let viewer = TestViewer(client: client, port: server.port)
        let messages = try await viewer.waitUntil("layout and keyframe") { $0.count >= 2 }

        guard case .layout(let layout, _) = messages[0] else {
            Issue.record("first message is not a layout: \(String(decoding: messages[0].bytes, as: UTF8.self))")
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
        #expect(frame.rings.count == layout.rings.count)
        // Nothing was ever pushed: every ring is "no data", not 0 %.
        for ring in frame.rings {
            #expect(ring.p == nil, "ring \(ring.id)")
            #expect(ring.label == "—", "ring \(ring.id)")
        }
    }

    @Test func patchReachesTwoViewers_withByteIdenticalFramesPerSeq() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }

        let first = TestViewer(client: client, port: server.port)
        let second = TestViewer(client: client, port: server.port)
        try await first.waitUntil("keyframe") { $0.count >= 2 }
        try await second.waitUntil("keyframe") { $0.count >= 2 }

        let response = try server.http.send(
            "PATCH", "/api/v1/boards/main",
            body: #"{"rings":{"move":0.8,"task1":0.5},"animation":{"curve":"linear","duration":1}}"#
        )
        #expect(response.status == 200, "\(response.text)")

        for viewer in [first, second] {
            try await viewer.waitUntil("the frame at the target") { $0.last?.frame?[ring: "move"]?.p == 0.8 }
        }
        let framesBySeq = [first, second].map { viewer in
            Dictionary(
                // A viewer that fell behind gets a keyframe instead of a delta: same seq, other bytes.
                viewer.messages.compactMap { message in message.frame.map { ("\($0.seq)/\($0.keyframe ?? true)", message.bytes) }
                },
                uniquingKeysWith: { old, _ in old }
            )
        }
        let shared = Set(framesBySeq[0].keys).intersection(framesBySeq[1].keys)
        #expect(shared.count >= 10, "the viewers should share most frames of a 1 s animation")
        for seq in shared {
            #expect(framesBySeq[0][seq] == framesBySeq[1][seq], "frame \(seq) differs between viewers")
        }
        for viewer in [first, second] {
            let seqs = viewer.frames.map(\.seq)
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "seq must strictly increase: \(seqs)")
            let moving = viewer.frames.filter { ($0[ring: "move"]?.p ?? 0) > 0 && ($0[ring: "move"]?.p ?? 0) < 0.8 }
            #expect(moving.count >= 10, "the animation should be seen in between frames, got \(moving.count)")
        }
    }

    @Test func lastFrameOfAnAnimationShowsTheTargetExactly() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitUntil("keyframe") { $0.count >= 2 }

        let response = try server.http.send(
            "PUT", "/api/v1/boards/main/rings/exercise",
            body: #"{"progress":0.735,"animation":{"curve":"easeOut","duration":0.6}}"#
        )
        #expect(response.status == 200, "\(response.text)")
        let messages = try await viewer.waitUntil("the final frame") { $0.last?.frame?[ring: "exercise"]?.p == 0.735 }
        let ring = try #require(messages.last?.frame?[ring: "exercise"])
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

    @Test func ringsPushedTogetherStartInTheSameFrame_andOverallIsTheMeanOfDisplayedTasks() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitUntil("keyframe") { $0.count >= 2 }

        let response = try server.http.send(
            "PATCH", "/api/v1/boards/main",
            body:
                #"{"rings":{"task1":0.8,"task2":0.4,"task3":{"progress":1.0},"task4":0.2},"animation":{"curve":"linear","duration":0.3}}"#
        )
        #expect(response.status == 200, "\(response.text)")
        try await viewer.waitUntil("the final frame") { $0.last?.frame?[ring: "task1"]?.p == 0.8 }

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

    @Test func lateJoinerGetsLayoutAndTheCurrentPictureMidAnimation() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let early = TestViewer(client: client, port: server.port)
        try await early.waitUntil("keyframe") { $0.count >= 2 }

        _ = try server.http.send(
            "PATCH", "/api/v1/boards/main",
            // A minute: a loaded run once let a 10 s animation end before the late joiner connected.
            body: #"{"rings":{"stand":0.9},"animation":{"curve":"linear","duration":60}}"#
        )
        try await early.waitUntil("the animation under way") { ($0.last?.frame?[ring: "stand"]?.p ?? 0) > 0.05 }

        let late = TestViewer(client: client, port: server.port)
        let messages = try await late.waitUntil("layout and keyframe") { $0.count >= 2 }
        guard case .layout = messages[0] else {
            Issue.record("the late joiner's first message is not the layout")
            return
        }
        let keyframe = try #require(messages[1].frame)
        #expect(keyframe.rings.count == 9)
        let stand = try #require(keyframe[ring: "stand"]?.p)
        #expect(stand > 0.05 && stand < 0.9, "the keyframe shows the animation in progress, got \(stand)")
        // It then follows the same frames as everyone else.
        try await late.waitUntil("a frame after the keyframe") { $0.count >= 4 }
        let next = try #require(late.frames.last)
        #expect(early.messages.contains { $0.frame?.seq == next.seq } || early.frames.last!.seq < next.seq)
    }

    @Test func idleBoardSendsNoFrames() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitUntil("keyframe") { $0.count >= 2 }

        try await Task.sleep(for: .seconds(1))
        #expect(viewer.messages.count == 2, "no frames while nothing moves")

        // A jump is one frame, then silence again.
        let response = try server.http.send(
            "PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":0.5,"animation":"none"}"#
        )
        #expect(response.status == 200)
        try await viewer.waitUntil("the jump's frame") { $0.count >= 3 }
        try await Task.sleep(for: .milliseconds(500))
        #expect(viewer.messages.count == 3)
        #expect(viewer.frames.last?[ring: "move"]?.p == 0.5)
    }

    @Test func reducedMotionViewer_getsTheEndStateOfAPushOnItsFirstTick_andNoAnimationFrames() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let full = TestViewer(client: client, port: server.port)
        let still = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=json&motion=reduced")
        try await full.waitUntil("keyframe") { $0.count >= 2 }
        try await still.waitUntil("keyframe") { $0.count >= 2 }
        let greeted = try #require(full.frames.last?.seq)

        let response = try server.http.send(
            "PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.6},"animation":{"curve":"linear","duration":0.3}}"#
        )
        #expect(response.status == 200)
        let messages = try await still.waitUntil("the end state") { $0.last?.frame?[ring: "move"]?.p == 0.6 }
        try await full.waitUntil("the end state") { $0.last?.frame?[ring: "move"]?.p == 0.6 }
        // Past the animation: nothing more reaches the reduced-motion viewer.
        try await Task.sleep(for: .milliseconds(300))
        #expect(still.messages.count == 3, "layout, keyframe, end state — no frames in between")
        // The end state came on the push's first tick, the first frame the full viewer got after its greeting.
        let first = try #require(full.frames.first { $0.seq > greeted })
        #expect(messages.last?.frame?.seq == first.seq)
        #expect(first[ring: "move"]?.p != 0.6, "the full viewer's first frame of the push is its start")
        #expect(messages.last?.frame?.keyframe == true)
        // The same picture the full viewers end on.
        #expect(messages.last?.frame?[ring: "move"] == full.frames.last?[ring: "move"])
        #expect(full.frames.count > 5)
    }

    @Test func reducedMotionViewer_getsACountdownsWholeSeconds() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let still = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=json&motion=reduced")
        try await still.waitForGreeting()
        let started = try server.http.send("POST", "/api/v1/boards/main/countdown", body: #"{"seconds":2}"#)
        #expect(started.status < 300)
        let messages = try await still.waitUntil(timeout: 15, "the countdown's end") {
            $0.last?.frame?[ring: "countdown"]?.label == "0s"
        }
        let labels = messages.compactMap { $0.frame?[ring: "countdown"]?.label }
        // Its greeting, then one frame per whole second: no run of animation frames.
        #expect(Array(labels.drop { $0 != "2s" }) == ["2s", "1s", "0s"], "\(labels)")
        // "2s" is shown from the start s (before s + 60) and "0s" from s + 120 on: more than a second apart, whatever
        // tick a loaded server composed each on.
        let seqs = messages.compactMap { $0.frame?.seq }.suffix(3)
        #expect(seqs.last! - seqs.first! > 60, "whole seconds apart at 60 fps: \(seqs)")
    }

    @Test func viewerOfUnknownBoardIsRefused() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port, path: "/ws?board=nope&format=json")
        _ = try await viewer.waitForClose()
        #expect(viewer.messages.isEmpty)
        #expect(viewer.failure != nil || viewer.closeCode != nil)
    }

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
    @Test func metrics_countViewersFramesPushesAndRequests_inPrometheusText() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitUntil("keyframe") { $0.count >= 2 }
        let push = try server.http.send(
            "PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.5},"animation":{"curve":"linear","duration":0.2}}"#
        )
        #expect(push.status == 200)
        try await viewer.waitUntil("the end state") { $0.last?.frame?[ring: "move"]?.p == 0.5 }
        _ = try server.http.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":11}}"#)

        let response = try server.http.get("/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
        let lines = response.text.split(separator: "\n").map(String.init)
        func value(_ prefix: String) -> Double? {
            lines.first { $0.hasPrefix(prefix + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        #expect(value(#"ringcast_viewers{board="main"}"#) == 1)
        #expect(value(#"ringcast_pushes_total{board="main"}"#) == 1)
        let frames = try #require(value(#"ringcast_frames_total{board="main"}"#))
        // Every frame the viewer got was published, but for its greeting's keyframe (composed for it alone).
        #expect(frames >= Double(viewer.frames.count - 1))
        #expect((value("ringcast_messages_sent_total") ?? 0) >= Double(viewer.messages.count))
        #expect((value("ringcast_bytes_sent_total") ?? 0) > 0)
        #expect(lines.contains { $0.hasPrefix("ringcast_http_requests_total{") && $0.contains(#"status="422""#) })
        #expect(lines.contains { $0.hasPrefix("ringcast_tick_lateness_seconds_bucket") })
        #expect(lines.contains { $0.hasPrefix("ringcast_frame_encode_seconds_count") })
    }
}

@Suite("Binary viewers")
struct BinaryViewerTests {
    @Test func binaryViewer_getsLayoutKeyframeThenDeltas_thatReconstructTheTarget() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=binary")
        let json = TestViewer(client: client, port: server.port)
        try await json.waitUntil("keyframe") { $0.count >= 2 }
        let deadline = Date().addingTimeInterval(5)
        while viewer.binaryMessages.count < 2 && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }

        let response = try server.http.send(
            "PATCH", "/api/v1/boards/main",
            body: #"{"rings":{"move":0.8,"exercise":1.5},"animation":{"curve":"linear","duration":0.3}}"#
        )
        #expect(response.status == 200)
        try await json.waitUntil("the end state") { $0.last?.frame?[ring: "exercise"]?.p == 1.5 }

        var layout: BinaryFrame.DecodedLayout?
        var state: [Int: BinaryFrame.RingValues] = [:]
        var kinds: [BinaryFrame.Kind] = []
        let settle = Date().addingTimeInterval(5)
        while Date() < settle {
            layout = nil
            state = [:]
            kinds = []
            for bytes in viewer.binaryMessages {
                switch try BinaryFrame.decode(bytes) {
                case .layout(let decoded): layout = decoded
                case .frame(let frame):
                    kinds.append(frame.kind)
                    BinaryFrame.apply(frame, to: &state)
                case .event: break
                }
            }
            if let move = layout?.ringIDs.firstIndex(of: "move"), state[move]?.p == Float(0.8) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let ids = try #require(layout?.ringIDs)
        #expect(ids.count == 9)
        #expect(kinds.first == .keyframe)
        #expect(kinds.dropFirst().contains(.delta))
        let move = try #require(ids.firstIndex(of: "move"))
        let exercise = try #require(ids.firstIndex(of: "exercise"))
        #expect(state[move]?.p == Float(0.8))
        #expect(String(decoding: state[move]?.label ?? [], as: UTF8.self) == "80%")
        #expect(state[exercise]?.state.contains(.beyondOneTurn) == true)
        #expect(String(decoding: state[exercise]?.label ?? [], as: UTF8.self) == "150%")
        // Deltas of a moving ring stay small: ≤ 24 bytes per changed ring plus its label. (A tick the
        // loop was late for reaches everyone as a keyframe, since nobody holds its base: not counted.)
        let deltas = try viewer.binaryMessages.dropFirst(2).filter { bytes in
            if case .frame(let frame) = try BinaryFrame.decode(bytes) { return frame.kind == .delta }
            return false
        }
        let largest = deltas.map(\.count).max() ?? 0
        #expect(largest <= 17 + 2 * (24 + 5), "largest delta \(largest) bytes")
    }
}
