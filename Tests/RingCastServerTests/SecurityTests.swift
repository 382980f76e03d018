import Foundation
import RingCastTransport
import Testing

/// Tokens, origins, safe retries and limits, against a live server.
@Suite("Auth, retries and limits")
struct SecurityTests {
    static let board = "/api/v1/boards/main"
    static let writeToken = "write-secret-1"
    static let readToken = "read-secret-1"

    private func target(_ server: TestServer, _ ring: String = "move", headers: [String: String] = [:]) throws -> Double? {
        var all = ["Authorization": "Bearer \(Self.writeToken)"]
        all.merge(headers) { _, new in new }
        return try server.http.get(Self.board, headers: all).decode(TestSnapshot.self)[ring: ring]?.target
    }

    @Test func writeToken_401WithoutOrWrong_403ForTheReadToken_200ForTheWriteToken() throws {
        let server = try TestServer {
            $0.writeToken = Self.writeToken
            $0.readToken = Self.readToken
        }
        defer { server.shutdown() }
        let http = server.http
        let body = #"{"rings":{"move":0.5}}"#

        let missing = try http.send("PATCH", Self.board, body: body)
        #expect(missing.status == 401)
        #expect(missing.error?.code == "unauthorized")
        #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)

        let wrong = try http.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "Authorization": "Bearer nope-nope-nope"],
            body: body
        )
        #expect(wrong.status == 401)

        let readOnly = try http.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(Self.readToken)"],
            body: body
        )
        #expect(readOnly.status == 403)
        #expect(try target(server) == nil, "a refused write changes nothing")

        let allowed = try http.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(Self.writeToken)"],
            body: body
        )
        #expect(allowed.status == 200)
        #expect(try target(server) == 0.5)
    }

    @Test func readToken_guardsRESTReadsAndViewers_butNotHealth() async throws {
        let server = try TestServer {
            $0.writeToken = Self.writeToken
            $0.readToken = Self.readToken
        }
        defer { server.shutdown() }
        let http = server.http

        #expect(try http.get(Self.board).status == 401)
        #expect(try http.get("/api/v1/boards").status == 401)
        #expect(try http.get(Self.board, headers: ["Authorization": "Bearer \(Self.readToken)"]).status == 200)
        #expect(try http.get(Self.board, headers: ["Authorization": "Bearer \(Self.writeToken)"]).status == 200)
        #expect(try http.get(Self.board + "?token=\(Self.readToken)").status == 200)
        #expect(try http.get(Self.board, headers: ["Cookie": "theme=dark; ringcast_token=\(Self.readToken)"]).status == 200)
        #expect(try http.get("/healthz").status == 200)

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

    @Test func idempotencyKey_replaysTheFirstAnswer_andRefusesReuseForAnotherRequest() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http
        let headers = ["Content-Type": "application/json", "Idempotency-Key": "push-42"]

        let first = try http.send("PATCH", Self.board, headers: headers, body: #"{"rings":{"move":0.4},"animation":"none"}"#)
        #expect(first.status == 200)
        // Someone else moves the ring; the retried push must not move it back.
        _ = try http.send("PUT", Self.board + "/rings/move", body: #"{"progress":0.9,"animation":"none"}"#)

        let retry = try http.send("PATCH", Self.board, headers: headers, body: #"{"rings":{"move":0.4},"animation":"none"}"#)
        #expect(retry.status == 200)
        #expect(retry.body == first.body)
        #expect(retry.headers["idempotent-replayed"] == "true")
        #expect(try target(server) == 0.9)

        let reused = try http.send("PATCH", Self.board, headers: headers, body: #"{"rings":{"move":0.1}}"#)
        #expect(reused.status == 422)
        #expect(reused.error?.code == "idempotency_key_reused")
        #expect(try target(server) == 0.9)
    }

    @Test func writesBeyondTheRate_get429WithRetryAfter_andChangeNothing() throws {
        let server = try TestServer { $0.writesPerMinute = 3 }
        defer { server.shutdown() }
        let http = server.http
        for value in [0.1, 0.2, 0.3] {
            let response = try http.send("PUT", Self.board + "/rings/move", body: #"{"progress":\#(value),"animation":"none"}"#)
            #expect(response.status == 200)
        }
        let limited = try http.send("PUT", Self.board + "/rings/move", body: #"{"progress":0.9,"animation":"none"}"#)
        #expect(limited.status == 429)
        #expect(limited.error?.code == "rate_limited")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect(try target(server) == 0.3)
        // Reads are not limited.
        #expect(try http.get(Self.board).status == 200)
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
