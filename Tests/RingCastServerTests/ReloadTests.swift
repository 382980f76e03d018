import Foundation
import RingCastCore
import RingCastServer
import RingCastTransport
import Synchronization
import Testing

/// SIGHUP and `RingCastServer.reload`: new settings and boards without dropping viewers, and an
/// invalid config that changes nothing.
@Suite("Configuration reload")
struct ReloadTests {
    private static let shippedConfig = repositoryRoot.appendingPathComponent("config/ringcast.json")
    private static let move = "/api/v1/boards/main/rings/move"

    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `ringcast serve` on `config`, with its data in `directory`, once it listens; and its port.
    private static func serve(config: URL, in directory: URL) async throws -> (TestProcess, Int) {
        let serve = try await TestProcess([
            "serve", "--config", config.path, "--port", "0", "--data-dir", directory.appendingPathComponent("data").path,
        ])
        let line = try await serve.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "line: \(line)")
        return (serve, port)
    }

    /// The shipped config with `token` as the write token and `edit` applied to its text.
    private static func writeConfig(to file: URL, token: String, edit: (String) -> String = { $0 }) throws {
        let shipped = try String(contentsOf: shippedConfig, encoding: .utf8)
        let withToken = shipped.replacingOccurrences(
            of: #""host": "127.0.0.1","#, with: "\"host\": \"127.0.0.1\",\n  \"token\": \"\(token)\",")
        #expect(withToken != shipped, "the shipped config no longer starts with a host line")
        try edit(withToken).write(to: file, atomically: true, encoding: .utf8)
    }

    private static func push(_ port: Int, progress: Double, token: String) throws -> TestResponse {
        try TestHTTPClient(port: port).send(
            "PUT", move, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
            body: #"{"progress":\#(progress),"animation":"none"}"#)
    }

    /// The value of the unlabelled sample `name` in `/metrics`.
    private static func metric(_ name: String, port: Int) throws -> Double? {
        let text = try TestHTTPClient(port: port).get("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    /// Polls `/metrics` (on a thread of its own) until `name` reads `value`; false after `timeout`.
    private static func waitForMetric(_ name: String, _ value: Double, port: Int, timeout: Double = 10) async throws -> Bool {
        try await onOwnThread {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if try metric(name, port: port) == value { return true }
                usleep(5_000)
            }
            return false
        }
    }

    @Test func sighup_newWriteToken_keepsTheViewer_oldTokenIs401_andABadFileChangesNothing() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("ringcast.json")
        try Self.writeConfig(to: config, token: "first-token-1")
        let (serve, port) = try await Self.serve(config: config, in: directory)
        defer { serve.signal(SIGKILL) }

        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: port)
        try await viewer.waitUntil("layout and keyframe") { $0.count >= 2 }
        #expect(try await onOwnThread { try Self.push(port, progress: 0.25, token: "first-token-1").status } == 200)
        try await viewer.waitUntil("the first push") { $0.last?.frame?[ring: "move"]?.p == 0.25 }

        // A new write token and a restart-only change (fps), then SIGHUP.
        try Self.writeConfig(to: config, token: "second-token-2") {
            $0.replacingOccurrences(of: #""fps": 60"#, with: #""fps": 30"#)
        }
        serve.signal(SIGHUP)
        #expect(try await Self.waitForMetric("ringcast_config_reloads_total", 1, port: port), "stderr: \(serve.stderr)")

        let (old, new) = try await onOwnThread {
            (
                try Self.push(port, progress: 0.5, token: "first-token-1").status,
                try Self.push(port, progress: 0.75, token: "second-token-2").status
            )
        }
        #expect(old == 401)
        #expect(new == 200)
        try await viewer.waitUntil("the push with the new token") { $0.last?.frame?[ring: "move"]?.p == 0.75 }
        #expect(viewer.closeCode == nil, "the viewer was closed by the reload")
        #expect(try await serve.waitForStandardError(containing: "fps: 60 → 30 needs a restart"), "stderr: \(serve.stderr)")

        // A JSON syntax error: logged with the same words as at start, and nothing changes.
        try "{ \"token\": ".write(to: config, atomically: true, encoding: .utf8)
        serve.signal(SIGHUP)
        #expect(try await Self.waitForMetric("ringcast_config_reload_failures_total", 1, port: port))
        #expect(
            try await serve.waitForStandardError(
                containing: "reload refused, keeping the running configuration: \(config.path):1:12: expected a value"),
            "stderr: \(serve.stderr)")
        #expect(try await onOwnThread { try Self.push(port, progress: 0.5, token: "second-token-2").status } == 200)
        try await viewer.waitUntil("a push after the refused reload") { $0.last?.frame?[ring: "move"]?.p == 0.5 }
        #expect(try Self.metric("ringcast_config_reloads_total", port: port) == 1)
        #expect(try Self.metric("ringcast_config_reload_failures_total", port: port) == 1)
        #expect(viewer.closeCode == nil)

        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit() == 0, "stderr: \(serve.stderr)")
    }

    @Test func sighup_changesTheLogLevel() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("ringcast.json")
        let atLevel: (String) -> (String) -> String = { level in
            {
                $0.replacingOccurrences(
                    of: #""host": "127.0.0.1","#, with: "\"host\": \"127.0.0.1\", \"logLevel\": \"\(level)\",")
            }
        }
        try Self.writeConfig(to: config, token: "first-token-1", edit: atLevel("warning"))
        let (serve, port) = try await Self.serve(config: config, in: directory)
        defer { serve.signal(SIGKILL) }

        // At warning, an answered write is not logged (it is at info).
        #expect(try await onOwnThread { try Self.push(port, progress: 0.2, token: "first-token-1").status } == 200)
        try Self.writeConfig(to: config, token: "first-token-1", edit: atLevel("info"))
        serve.signal(SIGHUP)
        #expect(try await Self.waitForMetric("ringcast_config_reloads_total", 1, port: port))
        #expect(try await serve.waitForStandardError(containing: "configuration reloaded: changed logLevel"))
        #expect(try await onOwnThread { try Self.push(port, progress: 0.4, token: "first-token-1").status } == 200)
        #expect(try await serve.waitForStandardError(containing: "PUT /api/v1/boards/main/rings/move 200"), "\(serve.stderr)")
        #expect(serve.stderr.components(separatedBy: "PUT /api/v1/boards/main/rings/move 200").count == 2, "\(serve.stderr)")
    }

    @Test func sighup_withABadValue_keepsTheRunningTokenAndLimits() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("ringcast.json")
        try Self.writeConfig(to: config, token: "first-token-1")
        let (serve, port) = try await Self.serve(config: config, in: directory)
        defer { serve.signal(SIGKILL) }

        // A valid new token next to a bad value: the whole file is refused.
        try Self.writeConfig(to: config, token: "second-token-2") {
            $0.replacingOccurrences(of: #""stallTimeoutSeconds": 10"#, with: #""stallTimeoutSeconds": 10, "maxViewers": 0"#)
        }
        serve.signal(SIGHUP)
        #expect(try await Self.waitForMetric("ringcast_config_reload_failures_total", 1, port: port))
        #expect(
            try await serve.waitForStandardError(containing: "\(config.path): limits.maxViewers: expected 1…1000000, got 0"),
            "stderr: \(serve.stderr)")
        let (old, new) = try await onOwnThread {
            (
                try Self.push(port, progress: 0.5, token: "first-token-1").status,
                try Self.push(port, progress: 0.75, token: "second-token-2").status
            )
        }
        #expect(old == 200)
        #expect(new == 401)
        #expect(try Self.metric("ringcast_config_reloads_total", port: port) == 0)

        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit() == 0, "stderr: \(serve.stderr)")
    }

    /// The shipped config with `tokens` (a JSON array) and no shorthand token.
    private static func writeConfig(to file: URL, tokens: String) throws {
        let shipped = try String(contentsOf: shippedConfig, encoding: .utf8)
        let withTokens = shipped.replacingOccurrences(
            of: #""host": "127.0.0.1","#, with: "\"host\": \"127.0.0.1\",\n  \"tokens\": \(tokens),")
        #expect(withTokens != shipped, "the shipped config no longer starts with a host line")
        try withTokens.write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func sighup_newScopedTokens_refuseTheOldAndTakeTheNew_andABrokenTokensListKeepsTheRunningSet() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("ringcast.json")
        try Self.writeConfig(to: config, tokens: #"[{"name":"ci","token":"ci-token-one","boards":["main"],"access":"write"}]"#)
        let (serve, port) = try await Self.serve(config: config, in: directory)
        defer { serve.signal(SIGKILL) }
        #expect(try await onOwnThread { try Self.push(port, progress: 0.25, token: "ci-token-one").status } == 200)

        // The same name with another secret, given as its SHA-256 (`printf %s ci-token-two | sha256sum`).
        let two = "149b4e6b6164c1726cc87a25299f5443a9e4c6a95ad8bcdc701d147ef89e0df0"
        try Self.writeConfig(to: config, tokens: #"[{"name":"ci","sha256":"\#(two)","boards":["main"],"access":"write"}]"#)
        serve.signal(SIGHUP)
        #expect(try await Self.waitForMetric("ringcast_config_reloads_total", 1, port: port), "stderr: \(serve.stderr)")
        let (old, new) = try await onOwnThread {
            (
                try Self.push(port, progress: 0.5, token: "ci-token-one").status,
                try Self.push(port, progress: 0.75, token: "ci-token-two").status
            )
        }
        #expect(old == 401)
        #expect(new == 200)

        // Two tokens of one name: the reload is refused with the key named, and the running set stays.
        try Self.writeConfig(
            to: config,
            tokens: #"""
                [{"name":"ci","token":"ci-token-three","boards":["main"],"access":"write"},
                 {"name":"ci","token":"ci-token-four","boards":["*"],"access":"admin"}]
                """#)
        serve.signal(SIGHUP)
        #expect(try await Self.waitForMetric("ringcast_config_reload_failures_total", 1, port: port))
        #expect(
            try await serve.waitForStandardError(containing: "reload refused, keeping the running configuration"),
            "stderr: \(serve.stderr)")
        #expect(serve.stderr.contains("tokens[1].name"), "the refusal names the entry: \(serve.stderr)")
        let statuses = try await onOwnThread {
            try ["ci-token-one", "ci-token-two", "ci-token-three", "ci-token-four"].map {
                try Self.push(port, progress: 0.5, token: $0).status
            }
        }
        #expect(statuses == [401, 200, 401, 401])
        #expect(try Self.metric("ringcast_config_reloads_total", port: port) == 1)
        for secret in ["ci-token-one", "ci-token-three", "ci-token-four"] {
            #expect(!serve.stderr.contains(secret), "a secret in the log: \(serve.stderr)")
        }

        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit() == 0, "stderr: \(serve.stderr)")
    }

    // MARK: - Boards, in process

    /// The configuration `TestServer` runs, for `server`, with `adjust` applied.
    private static func configuration(
        of server: TestServer, _ adjust: (inout RingCastConfiguration) -> Void = { _ in }
    ) throws -> RingCastConfiguration {
        var configuration = try RingCastConfiguration.load(file: shippedConfig.path, environment: [:])
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.webRoot = repositoryRoot.appendingPathComponent("web").path
        configuration.openAPIDocument = repositoryRoot.appendingPathComponent("docs/openapi.yaml").path
        configuration.dataDirectory = server.dataDirectory.path
        adjust(&configuration)
        return configuration
    }

    /// Reloads `server` and waits (on a thread of its own) for the answer: whether it took.
    private static func reload(_ server: TestServer, _ configuration: RingCastConfiguration) async throws -> Bool? {
        try await onOwnThread {
            let done = DispatchSemaphore(value: 0)
            let applied = Mutex<Bool?>(nil)
            server.server.reload(configuration) { result in
                applied.withLock { $0 = result }
                done.signal()
            }
            guard done.wait(timeout: .now() + 10) == .success else { return nil }
            return applied.withLock { $0 }
        }
    }

    /// The shipped main board under another name.
    private static func extraBoard(_ configuration: RingCastConfiguration) -> BoardSpec {
        var extra = configuration.boards[0]
        extra.name = "extra"
        return extra
    }

    private struct BoardList: Decodable {
        struct Entry: Decodable { var name: String }
        var boards: [Entry]
    }

    @Test func reload_addsABoard_removesIt_closingItsViewers_andKeepsItsStoredState() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let main = TestViewer(client: client, port: server.port)
        try await main.waitUntil("main's greeting") { $0.count >= 2 }

        let withExtra = try Self.configuration(of: server) { $0.boards.append(Self.extraBoard($0)) }
        #expect(try await Self.reload(server, withExtra) == true)
        let listed = try server.http.get("/api/v1/boards").decode(BoardList.self).boards.map(\.name)
        #expect(listed == ["main", "extra"])
        let extraViewer = TestViewer(client: client, port: server.port, path: "/ws?board=extra&format=json")
        try await extraViewer.waitUntil("extra's greeting") { $0.count >= 2 }
        let put = try server.http.send(
            "PUT", "/api/v1/boards/extra/rings/move", body: #"{"progress":0.4,"animation":"none"}"#)
        #expect(put.status == 200, "\(put.text)")
        try await extraViewer.waitUntil("the push to extra") { $0.last?.frame?[ring: "move"]?.p == 0.4 }

        // Removed: its viewers are closed with 4404, it is no longer served; main's viewer stays.
        #expect(try await Self.reload(server, try Self.configuration(of: server)) == true)
        #expect(try await extraViewer.waitForClose() == 4404)
        #expect(try server.http.get("/api/v1/boards/extra").status == 404)
        #expect(try server.http.get("/api/v1/boards").decode(BoardList.self).boards.map(\.name) == ["main"])
        #expect(try server.http.send("PUT", Self.move, body: #"{"progress":0.6,"animation":"none"}"#).status == 200)
        try await main.waitUntil("main still live") { $0.last?.frame?[ring: "move"]?.p == 0.6 }
        #expect(main.closeCode == nil)

        // Its stored state was kept: a server started with the board again has the value.
        server.stop()
        let restarted = try TestServer(dataDirectory: server.dataDirectory) { $0.boards.append(Self.extraBoard($0)) }
        defer { restarted.stop() }
        let snapshot = try restarted.http.get("/api/v1/boards/extra").decode(TestSnapshot.self)
        #expect(snapshot[ring: "move"]?.target == 0.4)
    }

    @Test func reload_changedBoard_continuesFromItsState_andItsViewersGetTheNewLayoutInBand() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        #expect(try server.http.send("PUT", Self.move, body: #"{"progress":0.3,"animation":"none"}"#).status == 200)
        #expect(try server.http.send("PUT", "/api/v1/boards/main/rings/stand", body: #"{"progress":0.8}"#).status == 200)
        // `move` grows, `stand` goes away.
        let changed = try Self.configuration(of: server) { configuration in
            configuration.boards[0].rings.removeAll { $0.id == "stand" }
            let index = configuration.boards[0].rings.firstIndex { $0.id == "move" }!
            configuration.boards[0].rings[index].r = 230
        }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let watching = TestViewer(client: client, port: server.port)
        try await watching.waitUntil("the greeting") { $0.count >= 2 }
        server.server.reload(changed)
        // The viewer stays connected and gets the new layout, then a keyframe.
        let received = try await watching.waitUntil("the new layout in-band and a frame after it") { messages in
            guard let index = messages.lastIndex(where: { if case .layout = $0 { true } else { false } }) else { return false }
            return index >= 2 && messages.count > index + 1
        }
        #expect(watching.closeCode == nil)
        let index = try #require(received.lastIndex { if case .layout = $0 { true } else { false } })
        let messages = Array(received[index...])
        guard case .layout(let layout, _) = messages[0] else {
            Issue.record("no layout: \(messages[0])")
            return
        }
        #expect(layout.rings.first { $0.id == "move" }?.r == 230)
        #expect(!layout.rings.contains { $0.id == "stand" })
        #expect(messages[1].frame?.keyframe == true)
        #expect(messages[1].frame?[ring: "move"]?.p == 0.3)
        let snapshot = try server.http.get("/api/v1/boards/main").decode(TestSnapshot.self)
        #expect(snapshot[ring: "move"]?.target == 0.3)
        #expect(snapshot[ring: "stand"] == nil)
    }

    @Test func reload_withAnInvalidConfiguration_changesNothing() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var invalid = try Self.configuration(of: server)
        invalid.writesPerMinute = -1
        #expect(try await Self.reload(server, invalid) == false)
        var duplicate = try Self.configuration(of: server)
        duplicate.boards.append(duplicate.boards[0])
        #expect(try await Self.reload(server, duplicate) == false)
        let text = try server.http.get("/metrics").text
        #expect(text.contains("ringcast_config_reload_failures_total 2"), "\(text)")
        #expect(text.contains("ringcast_config_reloads_total 0"))
        #expect(try server.http.get("/api/v1/boards").decode(BoardList.self).boards.map(\.name) == ["main"])
    }

    /// `allowedHosts` is reloadable, like `allowedOrigins`: a proxy's name added with SIGHUP is served at once,
    /// REST and viewers, and taken away again.
    @Test func reload_allowedHosts_takesEffectForTheNextRequest() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let proxied = TestHTTPClient(port: server.port, host: "rings.example.com")
        let body = #"{"progress":0.4,"animation":"none"}"#
        #expect(try proxied.send("PUT", Self.move, body: body).status == 421)

        #expect(
            try await Self.reload(server, try Self.configuration(of: server) { $0.allowedHosts = ["rings.example.com"] }) == true)
        let put = try proxied.send("PUT", Self.move, body: body)
        #expect(put.status == 200, "\(put.text)")
        _ = try RawWebSocket(port: server.port, host: "rings.example.com")
        #expect(try server.http.get("/metrics").text.contains("ringcast_config_reloads_total 1"))

        #expect(try await Self.reload(server, try Self.configuration(of: server)) == true)
        #expect(try proxied.send("PUT", Self.move, body: body).status == 421)
    }

    /// `embedOrigins` is reloadable: the page's next answer may be framed by the site added with SIGHUP.
    @Test func reload_embedOrigins_takesEffectForThePagesNextAnswer() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        #expect(try server.http.get("/").headers["x-frame-options"] == "deny")
        let wiki = try Self.configuration(of: server) { $0.embedOrigins = ["https://wiki.example.com"] }
        #expect(try await Self.reload(server, wiki) == true)
        let page = try server.http.get("/")
        #expect(page.headers["x-frame-options"] == nil)
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'self' https://wiki.example.com;") == true)
        #expect(try await Self.reload(server, try Self.configuration(of: server)) == true)
        #expect(try server.http.get("/").headers["x-frame-options"] == "deny")
    }
}
