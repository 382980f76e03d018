import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Requests at the edges of HTTP/1.1 and of the viewer protocol, against the real `ringcast`
/// executable: every one gets an HTTP/1.1 answer with the API's JSON error body, or the close code
/// RFC 6455 asks for — except where libwebsockets 4.1.6 answers first (docs/HTTP-EDGES.md).
@Suite("HTTP edges (live)")
struct HTTPEdgeTests {
    /// `ringcast serve` on 127.0.0.1, a free port and a data directory of its own.
    private struct LiveServer {
        let process: TestProcess
        let port: Int
        let dataDirectory: URL

        static func start() async throws -> LiveServer {
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-edges-\(UUID().uuidString)")
            let process = try await TestProcess(["serve", "--port", "0", "--data-dir", data.path, "--log-level", "error"])
            do {
                let line = try await process.waitForLine { $0.hasPrefix("listening on ") }
                let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
                return LiveServer(process: process, port: port, dataDirectory: data)
            } catch {
                process.signal(SIGKILL)
                throw error
            }
        }

        /// Waits long enough for the server's 10 s request deadline.
        var http: TestHTTPClient { TestHTTPClient(port: port, timeoutSeconds: 20) }

        func stop() {
            process.signal(SIGKILL)
            try? FileManager.default.removeItem(at: dataDirectory)
        }
    }

    private func request(_ requestLine: String, _ lines: [String] = ["Host: 127.0.0.1"], body: String = "") -> [UInt8] {
        Array((([requestLine] + lines).joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
    }

    // MARK: - What the transport answers

    @Test func nineKiBHeader_is431_withTheJSONErrorBody() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let response = try server.http.exchange(
            request("GET /api/v1/boards HTTP/1.1", ["Host: 127.0.0.1", "Cookie: a=" + String(repeating: "b", count: 9 * 1024)]))
        #expect(response.statusLine == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.error?.message == "the cookie header is 9226 bytes; the limit is 8192")
        #expect(response.headers["connection"] == "close")
    }

    @Test func targetOver8KiB_is414() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let response = try server.http.exchange(
            request("GET /api/v1/boards/" + String(repeating: "a", count: 8300) + " HTTP/1.1"))
        #expect(response.statusLine == "HTTP/1.1 414 URI Too Long")
        #expect(response.error?.message.contains("the limit is 8192") == true)
    }

    @Test(arguments: [
        ("a NUL in a header", ["Host: 127.0.0.1", "User-Agent: a\0b"], "the user-agent header contains a NUL byte"),
        (
            "a line without a colon (lws swallows the Host after it)", ["NoColonHere", "Host: 127.0.0.1"],
            "an HTTP/1.1 request needs a Host header"
        ),
        ("no Host", [], "an HTTP/1.1 request needs a Host header"),
    ])
    func malformedHeader_is400(_ name: String, lines: [String], message: String) async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let response = try server.http.exchange(request("GET /api/v1/boards HTTP/1.1", lines))
        #expect(response.statusLine == "HTTP/1.1 400 Bad Request", "\(name)")
        #expect(response.error?.code == "malformed")
        #expect(response.error?.message == message)
    }

    /// As the head's last line, a line without a colon leaves lws waiting for one: the head never
    /// completes and the request deadline answers it.
    @Test func lineWithoutColon_atTheEndOfTheHead_is408() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let response = try await onOwnThread {
            try server.http.exchange(self.request("GET /api/v1/boards HTTP/1.1", ["Host: 127.0.0.1", "NoColonHere"]))
        }
        #expect(response.statusLine == "HTTP/1.1 408 Request Timeout")
        #expect(response.error?.code == "request_timeout")
    }

    @Test func bodyShorterThanItsContentLength_is408() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let bytes = request(
            "PATCH /api/v1/boards/main HTTP/1.1", ["Host: 127.0.0.1", "Content-Type: application/json", "Content-Length: 50"],
            body: #"{"rings""#)
        let response = try await onOwnThread { try server.http.exchange(bytes) }
        #expect(response.statusLine == "HTTP/1.1 408 Request Timeout")
        #expect(response.error?.message == "the request body did not arrive within 10 s (8 of 50 bytes came)")
        #expect(try server.http.get("/api/v1/boards/main").decode(TestSnapshot.self)[ring: "move"]?.target == nil)
    }

    @Test(arguments: ["TRACE", "QUERY"])
    func methodHTTPDefines_is405_fromTheRoutes(method: String) async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let response = try server.http.exchange(request("\(method) /api/v1/boards HTTP/1.1"))
        #expect(response.statusLine == "HTTP/1.1 405 Method Not Allowed")
        #expect(response.error?.code == "method_not_allowed")
        #expect(response.headers["allow"]?.contains("GET") == true)
    }

    @Test(arguments: ["FOO", "PROPFIND"])
    func unknownMethod_is501(method: String) async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let response = try server.http.exchange(request("\(method) /api/v1/boards HTTP/1.1"))
        #expect(response.statusLine == "HTTP/1.1 501 Not Implemented")
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.error?.message == "\(method) is not a method this server implements")
    }

    @Test func pipelinedRequests_afterAStaticFile_areAnsweredInOrder() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let responses = try server.http.pipeline(
            request("GET /index.html HTTP/1.1") + request("GET /healthz HTTP/1.1") + request("GET /style.css HTTP/1.1")
                + request("GET /api/v1/boards HTTP/1.1"),
            responses: 4)
        #expect(responses.map(\.status) == [200, 200, 200, 200])
        #expect(responses[0].headers["content-type"] == "text/html; charset=utf-8")
        #expect(responses[1].text == #"{"status":"ok"}"# + "\n")
        #expect(responses[2].headers["content-type"] == "text/css; charset=utf-8")
        #expect(responses[3].text.contains(#""name":"main""#))
    }

    /// The application's own answers at the edge: a Host it does not answer to (421, static files
    /// excepted) and OPTIONS on an API path (204 with Allow); the connection stays open for the next.
    @Test func foreignHostAndOptions_areAnsweredByTheApplication_andKeepTheConnection() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let responses = try server.http.pipeline(
            request("GET /api/v1/boards HTTP/1.1", ["Host: evil.example"]) + request("OPTIONS /api/v1/boards/main HTTP/1.1")
                + request("GET /index.html HTTP/1.1", ["Host: evil.example"]) + request("GET /api/v1/boards HTTP/1.1"),
            responses: 4)
        #expect(responses.map(\.status) == [421, 204, 200, 200])
        #expect(responses[0].statusLine == "HTTP/1.1 421 Misdirected Request")
        #expect(responses[0].error?.code == "host_not_allowed")
        #expect(responses[1].headers["allow"] == "GET, HEAD, PATCH, PUT, DELETE, OPTIONS")
        #expect(responses[2].headers["content-type"] == "text/html; charset=utf-8")
    }

    // MARK: - HTTP/2 and upgrades

    @Test func curlHTTP2Patch_isServedAsHTTP11_andApplied() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let curl = try await TestProcess(
            [
                "-sS", "--max-time", "10", "--http2", "-X", "PATCH", "-H", "Content-Type: application/json",
                "-d", #"{"rings":{"move":0.25},"animation":"none"}"#, "-o", "/dev/null", "-w", "%{http_code} %{http_version}",
                "http://127.0.0.1:\(server.port)/api/v1/boards/main",
            ],
            executable: URL(fileURLWithPath: "/usr/bin/curl"))
        #expect(try await curl.waitForExit(timeout: 15) == 0, "\(curl.stderr)")
        #expect(curl.stdout == "200 1.1")
        #expect(try server.http.get("/api/v1/boards/main").decode(TestSnapshot.self)[ring: "move"]?.target == 0.25)
    }

    @Test func refusedUpgrade_isAnsweredWithAnHTTP11StatusLine() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let response = try server.http.exchange(
            request(
                "GET /ws?board=nope HTTP/1.1",
                [
                    "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                    "Sec-WebSocket-Version: 13",
                ]))
        #expect(response.statusLine == "HTTP/1.1 404 Not Found")
        #expect(response.error?.code == "not_found")
        #expect(response.headers["upgrade"] == nil)
    }

    @Test func refusalAsAMessage_upgradesSaysWhyAndClosesWith4000PlusTheStatus() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let port = server.port
        let (messages, code) = try await onOwnThread {
            try RawWebSocket(port: port, path: "/ws?board=nope&format=binary&refusal=message").readUntilClose()
        }
        #expect(code == 4404)
        struct Refusal: Decodable {
            var type: String
            var status: Int
            var code: String
            var field: String?
            var boards: [String]?
        }
        let refusal = try JSONDecoder().decode(Refusal.self, from: Data(try #require(messages.first)))
        #expect(messages.count == 1)
        #expect(refusal.type == "error" && refusal.status == 404 && refusal.code == "not_found")
        #expect(refusal.field == "board")
        #expect(refusal.boards == ["main"])
    }

    // MARK: - Viewer frames

    @Test func textFrameThatIsNotUTF8_isClosedWith1007() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let code = try await onOwnThread {
            let viewer = try RawWebSocket(port: server.port)
            try viewer.sendFrame(opcode: 0x1, payload: [0xc3, 0x28, 0xff])
            return try viewer.readCloseCode()
        }
        #expect(code == 1007)
    }

    /// RFC 6455 §5.1 asks for 1002; lws 4.1.6 neither checks a client frame's mask bit nor says
    /// whether it was set, so an unmasked data frame is refused like any data frame.
    @Test func unmaskedFrame_isClosedWith1003_notThe1002OfRFC6455() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let code = try await onOwnThread {
            let viewer = try RawWebSocket(port: server.port)
            try viewer.send([0x81, 0x05] + Array("hello".utf8))
            return try viewer.readCloseCode()
        }
        #expect(code == 1003)
    }
}
