import Foundation
import RingCastTransport
import Testing

/// The frames of a background as a viewer sees them.
struct TestBackgroundFrame: Decodable {
    struct Layer: Decodable {
        var style: String
        var color: String
        var progress: Double
    }

    struct Message: Decodable {
        struct Background: Decodable {
            var color: String
            var splash: [Layer]
        }

        var type: String
        var background: Background
    }
}

/// Each seed animation, pushed through REST and watched on a real viewer.
@Suite("Seed animations, live")
struct AnimationLiveTests {
    static let board = "/api/v1/boards/main"

    private func viewer(_ server: TestServer, _ client: WebSocketClient) async throws -> TestViewer {
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitUntil("keyframe") { $0.count >= 2 }
        return viewer
    }

    @Test func bouncySpring_overshootsThenSettlesExactlyOnTheTarget() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = try await viewer(server, client)

        let response = try server.http.send(
            "PATCH", Self.board, body: #"{"rings":{"move":{"progress":0.8,"animation":"bouncy"}}}"#)
        #expect(response.status == 200, "\(response.text)")
        try await viewer.waitUntil(timeout: 10, "the spring at rest") { messages in
            messages.last?.frame?[ring: "move"]?.p == 0.8 && messages.count > 10
        }
        let values = viewer.frames.compactMap { $0[ring: "move"]?.p }
        #expect(values.contains { $0 > 0.8 }, "a bouncy spring passes its target")
        #expect(values.last == 0.8)
    }

    @Test func retargetingASpringMidFlight_neverJumps() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = try await viewer(server, client)

        _ = try server.http.send(
            "PUT", Self.board + "/rings/stand", body: #"{"progress":1,"animation":{"curve":"linear","duration":1}}"#)
        try await viewer.waitUntil("half way") { ($0.last?.frame?[ring: "stand"]?.p ?? 0) > 0.3 }
        _ = try server.http.send(
            "PUT", Self.board + "/rings/stand",
            body: #"{"progress":0.1,"animation":{"spring":{"response":0.4,"dampingFraction":0.9}}}"#
        )
        try await viewer.waitUntil(timeout: 10, "the new target") { $0.last?.frame?[ring: "stand"]?.p == 0.1 }
        let frames = viewer.frames.filter { $0[ring: "stand"]?.p != nil }
        // Peak speeds: the linear motion 1/s; the spring, started at displacement x0 from its target
        // with velocity v0, never exceeds |x0|·ω + |v0| (ω = 2π/response). A step faster than that
        // over the time between two frames is a jump.
        let highest = frames.compactMap { $0[ring: "stand"]?.p }.max() ?? 1
        let peakSpeed = (highest - 0.1) * (2 * Double.pi / 0.4) + 1
        for (before, after) in zip(frames, frames.dropFirst()) {
            let step = abs(after[ring: "stand"]!.p! - before[ring: "stand"]!.p!)
            let seconds = (after.t - before.t) / 1000
            #expect(step <= peakSpeed * seconds + 0.005, "seq \(before.seq) → \(after.seq): step \(step) in \(seconds) s")
        }
    }

    @Test func colourPush_animatesTheGradient_inGammaEncodedRGB() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        _ = try server.http.send("PUT", Self.board + "/rings/move", body: #"{"progress":0.5,"animation":"none"}"#)
        let viewer = try await viewer(server, client)

        let response = try server.http.send(
            "PATCH", Self.board,
            body: ##"{"rings":{"move":{"colors":["#000000","#ffffff"]}},"animation":{"curve":"linear","duration":0.4}}"##
        )
        #expect(response.status == 200, "\(response.text)")
        struct Message: Decodable {
            struct Ring: Decodable {
                struct Cap: Decodable { var color: String }
                var id: String
                var cap: Cap
            }
            var rings: [Ring]?
        }
        try await viewer.waitUntil("the new colours") { messages in
            guard let last = messages.last, case .frame = last else { return false }
            let message = try? JSONDecoder().decode(Message.self, from: Data(last.bytes))
            return message?.rings?.first { $0.id == "move" }?.cap.color == "#000000ff"
        }
        let caps = viewer.messages.compactMap { message in
            (try? JSONDecoder().decode(Message.self, from: Data(message.bytes)))?.rings?.first { $0.id == "move" }?.cap.color
        }
        // From #e74c3c towards black, through in-between colours.
        #expect(caps.first == "#e74c3cff")
        #expect(Set(caps).count >= 5, "\(caps)")
    }

    @Test func labelColourPush_animatesTheLabelText_andSurvivesARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-label-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try TestServer(dataDirectory: directory)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = try await viewer(server, client)
        struct Message: Decodable {
            struct Ring: Decodable {
                var id: String
                var labelColor: String
            }
            var rings: [Ring]?
        }
        func labelColors(_ messages: [ViewerMessage]) -> [String] {
            messages.compactMap { message in
                (try? JSONDecoder().decode(Message.self, from: Data(message.bytes)))?.rings?.first { $0.id == "move" }?.labelColor
            }
        }

        let response = try server.http.send(
            "PATCH", Self.board,
            body: ##"{"rings":{"move":{"progress":0.4,"labelColor":"#ff0000"}},"animation":{"curve":"linear","duration":0.5}}"##
        )
        #expect(response.status == 200, "\(response.text)")
        try await viewer.waitUntil("the red label") { labelColors($0).last == "#ff0000ff" }
        let colours = labelColors(viewer.messages)
        // The shipped config leaves the label colour automatic: on the black background the light grey.
        #expect(colours.first == "#f2f2f7ff")
        #expect(Set(colours).count >= 5, "the label colour should pass through in-between colours: \(colours)")
        #expect(try server.http.send("PATCH", Self.board, body: ##"{"rings":{"move":{"labelColor":"red"}}}"##).status == 422)

        server.stop()
        let again = try TestServer(dataDirectory: directory)
        defer { again.shutdown() }
        let restored = TestViewer(client: client, port: again.port)
        let greeting = try await restored.waitUntil("keyframe") { $0.count >= 2 }
        #expect(labelColors([greeting[1]]) == ["#ff0000ff"])
    }

    @Test func backgroundSplash_growsAsALayer_thenBecomesTheBackground_andSurvivesARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-splash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try TestServer(dataDirectory: directory)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = try await viewer(server, client)

        let response = try server.http.send(
            "PUT", Self.board + "/background", body: ##"{"color":"#2ecc71","transition":"circle","duration":0.3}"##
        )
        #expect(response.status == 200, "\(response.text)")
        let messages = try await viewer.waitUntil("the new background") { messages in
            let last = messages.last.flatMap { try? JSONDecoder().decode(TestBackgroundFrame.Message.self, from: Data($0.bytes)) }
            return last?.background.color == "#2ecc71ff" && last?.background.splash.isEmpty == true
        }
        let layers = messages.compactMap { try? JSONDecoder().decode(TestBackgroundFrame.Message.self, from: Data($0.bytes)) }
            .flatMap(\.background.splash)
        #expect(layers.contains { $0.style == "circle" && $0.color == "#2ecc71ff" && $0.progress > 0 && $0.progress < 1 })

        let bad = try server.http.send("PUT", Self.board + "/background", body: ##"{"color":"#2ecc71","transition":"zigzag"}"##)
        #expect(bad.status == 422)

        server.stop()
        let again = try TestServer(dataDirectory: directory)
        defer { again.shutdown() }
        let restored = TestViewer(client: client, port: again.port)
        let greeting = try await restored.waitUntil("keyframe") { $0.count >= 2 }
        let frame = try JSONDecoder().decode(TestBackgroundFrame.Message.self, from: Data(greeting[1].bytes))
        #expect(frame.background.color == "#2ecc71ff")
    }

    @Test func countdown_countsWholeSecondsDown_thenCancelClearsIt() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = try await viewer(server, client)

        #expect(try server.http.send("POST", Self.board + "/countdown", body: #"{"seconds":0}"#).status == 422)
        #expect(try server.http.send("POST", Self.board + "/countdown", body: #"{"seconds":86401}"#).status == 422)
        #expect(try server.http.send("POST", Self.board + "/countdown", body: #"{"secs":2}"#).status == 400)

        let start = try server.http.send("POST", Self.board + "/countdown", body: #"{"seconds":1.5}"#)
        #expect(start.status == 200, "\(start.text)")
        try await viewer.waitUntil(timeout: 10, "the end of the countdown") { $0.last?.frame?[ring: "countdown"]?.label == "0s" }
        let labels = viewer.frames.compactMap { $0[ring: "countdown"]?.label }
        var sequence: [String] = []
        for label in labels where sequence.last != label { sequence.append(label) }
        #expect(sequence.suffix(3) == ["2s", "1s", "0s"], "\(sequence)")
        #expect(viewer.frames.last?[ring: "countdown"]?.p == 1)

        let cancel = try server.http.send("DELETE", Self.board + "/countdown", headers: [:], body: nil)
        #expect(cancel.status == 200, "\(cancel.text)")
        try await viewer.waitUntil("the cleared ring") { $0.last?.frame?[ring: "countdown"]?.label == "—" }
        #expect(viewer.frames.last?[ring: "countdown"]?.p == nil)
    }
}
