import Foundation
import RingCastTransport
import Testing

/// What only a live server shows of tokens, origins and limits: viewers' WebSocket upgrades, and a
/// browser-shaped cross-site form on real sockets. The pipeline's other steps are tested in process
/// (PipelineTests).
@Suite("Auth, retries and limits")
struct SecurityTests {
    static let board = "/api/v1/boards/main"
    static let writeToken = "write-secret-1"
    static let readToken = "read-secret-1"

    @Test func crossSiteForm_is403_andATokenInACookieCannotWrite() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http
        let before = try http.get(Self.board)

        // What a page on another site submits with <form method=post action=…/countdown>.
        let form = try http.send(
            "POST", Self.board + "/countdown",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"],
            body: #"{"seconds":5}"#)
        #expect(form.status == 403, "\(form.text)")
        #expect(form.error?.code == "origin_not_allowed")
        #expect(try http.get(Self.board).headers["etag"] == before.headers["etag"])

        let tokened = try TestServer { $0.writeToken = Self.writeToken }
        defer { tokened.shutdown() }
        let cookie = try tokened.http.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "Cookie": "ringcast_token=\(Self.writeToken)"],
            body: #"{"rings":{"move":0.5}}"#)
        #expect(cookie.status == 401, "\(cookie.text)")
        #expect(try tokened.http.get(Self.board).decode(TestSnapshot.self)[ring: "move"]?.target == nil)
    }

    @Test func readToken_guardsViewers() async throws {
        let server = try TestServer {
            $0.writeToken = Self.writeToken
            $0.readToken = Self.readToken
        }
        defer { server.shutdown() }

        let client = try WebSocketClient()
        defer { client.shutdown() }
        let refused = TestViewer(client: client, port: server.port)
        _ = try await refused.waitForClose()
        #expect(refused.messages.isEmpty)
        #expect(refused.failure?.contains("401") == true, "\(String(describing: refused.failure))")

        let admitted = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=json&token=\(Self.readToken)")
        try await admitted.waitUntil("layout and keyframe") { $0.count >= 2 }
    }

    @Test func originAllowList_refusesOtherBrowsers_letsToolsWithoutOriginIn() async throws {
        let server = try TestServer { $0.allowedOrigins = ["http://tv.example:8080"] }
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }

        let stranger = TestViewer(client: client, port: server.port, origin: "http://evil.example")
        _ = try await stranger.waitForClose()
        #expect(stranger.messages.isEmpty)
        #expect(stranger.failure?.contains("403") == true, "\(String(describing: stranger.failure))")

        let tv = TestViewer(client: client, port: server.port, origin: "http://tv.example:8080")
        try await tv.waitUntil("layout and keyframe") { $0.count >= 2 }
        let tool = TestViewer(client: client, port: server.port)
        try await tool.waitUntil("layout and keyframe") { $0.count >= 2 }
    }

    @Test func viewersBeyondTheMaximum_get503() async throws {
        let server = try TestServer { $0.maxViewers = 1 }
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let first = TestViewer(client: client, port: server.port)
        try await first.waitUntil("layout and keyframe") { $0.count >= 2 }
        let second = TestViewer(client: client, port: server.port)
        _ = try await second.waitForClose()
        #expect(second.failure?.contains("503") == true, "\(String(describing: second.failure))")

        // A place frees up when a viewer leaves.
        first.close()
        _ = try await first.waitForClose()
        let deadline = Date().addingTimeInterval(5)
        var admitted = false
        while !admitted && Date() < deadline {
            let third = TestViewer(client: client, port: server.port)
            admitted = (try? await third.waitUntil(timeout: 1, "layout") { $0.count >= 2 }) != nil
        }
        #expect(admitted)
    }
}
