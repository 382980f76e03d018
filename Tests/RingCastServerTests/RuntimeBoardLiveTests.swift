import Foundation
import RingCastTransport
import Testing

/// Boards shaped at runtime, seen by real viewers over real sockets, and kept across a SIGKILL.
@Suite("Runtime boards live")
struct RuntimeBoardLiveTests {
    private static func isLayout(_ message: ViewerMessage) -> Bool {
        String(decoding: message.bytes, as: UTF8.self).contains(#""type":"layout""#)
    }

    private static func text(_ message: ViewerMessage) -> String {
        String(decoding: message.bytes, as: UTF8.self)
    }

    @Test func viewersOfABoardGainingARing_getTheNewLayoutThenAKeyframe_theSameBytesForAll() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        #expect(try server.http.send("PUT", "/api/v1/boards/ci", body: #"{"template":"tasks","count":2}"#).status == 201)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = (0..<2).map { _ in TestViewer(client: client, port: server.port, path: "/ws?board=ci&format=json") }
        for viewer in viewers { try await viewer.waitUntil("greeting") { $0.count >= 2 } }

        let added = try server.http.send("POST", "/api/v1/boards/ci/rings", body: #"{"id":"deploy","title":"Deploy"}"#)
        #expect(added.status == 201, "\(added.text)")
        var received: [[ViewerMessage]] = []
        for viewer in viewers {
            let messages = try await viewer.waitUntil("the new layout and a frame after it") { messages in
                guard let index = messages.lastIndex(where: { Self.isLayout($0) && Self.text($0).contains("deploy") }) else {
                    return false
                }
                return index > 1 && messages.count > index + 1
            }
            received.append(messages)
        }
        for messages in received {
            let index = try #require(messages.lastIndex { Self.isLayout($0) && Self.text($0).contains("deploy") })
            let next = Self.text(messages[index + 1])
            #expect(next.contains(#""keyframe":true"#), "the frame after a new layout is a keyframe: \(next.prefix(200))")
            #expect(next.contains(#""id":"deploy""#))
        }
        let layouts = received.map { messages in messages.last { Self.isLayout($0) && Self.text($0).contains("deploy") }?.bytes }
        #expect(layouts[0] != nil && layouts[0] == layouts[1], "every viewer gets the same layout bytes")
    }

    @Test func viewersOfADeletedBoard_areClosedWith4404() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        #expect(try server.http.send("PUT", "/api/v1/boards/gone", body: #"{"template":"single"}"#).status == 201)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port, path: "/ws?board=gone&format=json")
        try await viewer.waitUntil("greeting") { $0.count >= 2 }
        #expect(try server.http.send("DELETE", "/api/v1/boards/gone", body: "").status == 204)
        #expect(try await viewer.waitForClose() == 4404)
        let refused = TestViewer(client: client, port: server.port, path: "/ws?board=gone&format=json")
        _ = try? await refused.waitForClose()
        #expect(refused.messages.isEmpty, "a viewer asking for a deleted board is refused")
    }

    @Test func aFractionCountsThroughIntermediateValues_andNullEndsOnTheDash() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        #expect(try server.http.send("PUT", "/api/v1/boards/ci", body: #"{"rings":[{"id":"tests"}]}"#).status == 201)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port, path: "/ws?board=ci&format=json")
        try await viewer.waitUntil("greeting") { $0.count >= 2 }
        let pushed = try server.http.send(
            "PUT", "/api/v1/boards/ci/rings/tests",
            body: #"{"value":12,"max":20,"label":"fraction","animation":{"curve":"linear","duration":0.5}}"#)
        #expect(pushed.status == 200, "\(pushed.text)")
        try await viewer.waitUntil("12/20") { $0.last?.frame?[ring: "tests"]?.label == "12/20" }
        let labels = viewer.frames.compactMap { $0[ring: "tests"]?.label }
        let fractions = Set(labels.filter { $0.hasSuffix("/20") })
        #expect(fractions.count >= 6, "counts through the values: \(fractions.sorted())")
        #expect(fractions.allSatisfy { Int($0.dropLast(3)).map { (0...12).contains($0) } ?? false })

        #expect(try server.http.send("PATCH", "/api/v1/boards/ci", body: #"{"rings":{"tests":null}}"#).status == 200)
        try await viewer.waitUntil("no data") { $0.last?.frame?[ring: "tests"]?.label == "—" }
        #expect(viewer.frames.last?[ring: "tests"]?.p == nil)
    }

    @Test func runtimeBoardsAndRings_surviveSIGKILL_andADeletedConfiguredBoardStaysDeleted() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-shape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        func serve() async throws -> (TestProcess, TestHTTPClient) {
            let process = try await TestProcess(["serve", "--port", "0", "--log-level", "error", "--data-dir", data.path])
            let line = try await process.waitForLine { $0.hasPrefix("listening on ") }
            let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
            return (process, TestHTTPClient(port: port))
        }
        var (server, http) = try await serve()
        #expect(try http.send("PUT", "/api/v1/boards/ci", body: #"{"template":"tasks","count":3}"#).status == 201)
        #expect(try http.send("POST", "/api/v1/boards/ci/rings", body: #"{"id":"deploy","title":"Deploy"}"#).status == 201)
        #expect(try http.send("DELETE", "/api/v1/boards/ci/rings/task3", body: "").status == 204)
        #expect(
            try http.send("PUT", "/api/v1/boards/ci/rings/task1", body: #"{"value":3,"max":4,"label":"fraction"}"#).status == 200)
        #expect(try http.send("DELETE", "/api/v1/boards/main", body: "").status == 204)
        let before = try http.get("/api/v1/boards/ci")
        server.signal(SIGKILL)
        _ = try await server.waitForExit()

        (server, http) = try await serve()
        defer { server.signal(SIGTERM) }
        let list = try http.get("/api/v1/boards")
        #expect(list.text.contains(#""name":"ci""#))
        #expect(!list.text.contains(#""name":"main""#), "a deleted configured board stays deleted: \(list.text)")
        let after = try http.get("/api/v1/boards/ci")
        #expect(after.status == 200)
        #expect(after.headers["etag"] != before.headers["etag"], "a new run, a new ETag nonce")
        for fragment in [#""id":"deploy""#, #""title":"Deploy""#, #""max":4"#, #""label":"fraction""#] {
            #expect(after.text.contains(fragment), "\(fragment) in \(after.text)")
        }
        #expect(!after.text.contains(#""id":"task3""#))
        // Created again, the configured name works like any other.
        #expect(try http.send("PUT", "/api/v1/boards/main", body: #"{"template":"main"}"#).status == 201)

        // With every board deleted the server still starts, and says there is none.
        #expect(try http.send("DELETE", "/api/v1/boards/main", body: "").status == 204)
        #expect(try http.send("DELETE", "/api/v1/boards/ci", body: "").status == 204)
        server.signal(SIGKILL)
        _ = try await server.waitForExit()
        (server, http) = try await serve()
        #expect(try http.get("/api/v1/boards").text == #"{"boards":[],"defaultBoard":"main"}"# + "\n")
        #expect(try http.get("/readyz").status == 200)
        do {
            _ = try RawWebSocket(port: http.port, path: "/ws?format=json")
            Issue.record("a viewer naming no board was upgraded with no board to show")
        } catch {
            #expect("\(error)".contains("404"), "\(error)")
        }
    }
}
