import Foundation
import RingCastTransport
import Testing

/// CORS for `allowedOrigins` (issue 21, defect 2), on a live server: a page on a listed origin could not
/// write from a browser (its preflight got 405 without any `Access-Control-Allow-*`), and with the list set
/// the server's own page was refused as a viewer.
@Suite("CORS")
struct CORSTests {
    static let board = "/api/v1/boards/main"
    static let tv = "http://tv.example:8080"

    private static func server() throws -> TestServer {
        try TestServer { $0.allowedOrigins = [Self.tv] }
    }

    /// What a browser sends before a cross-origin PATCH with a JSON body and a token.
    private static func preflight(
        _ http: TestHTTPClient, _ path: String = board, origin: String, method: String = "PATCH"
    ) throws -> TestResponse {
        try http.send(
            "OPTIONS", path,
            headers: [
                "Origin": origin, "Access-Control-Request-Method": method,
                "Access-Control-Request-Headers": "authorization,content-type,if-match",
            ], body: nil)
    }

    /// No header of the CORS protocol in `response`.
    private static func expectNoCORS(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        let cors = response.headers.keys.filter { $0.hasPrefix("access-control-") }
        #expect(cors.isEmpty, "\(response.headers)", sourceLocation: sourceLocation)
    }

    @Test func preflightFromAListedOrigin_is204WithTheMethodsAndHeaders() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let response = try Self.preflight(server.http, origin: Self.tv)
        #expect(response.status == 204, "\(response.text)")
        #expect(response.headers["access-control-allow-origin"] == Self.tv)
        #expect(response.headers["access-control-allow-methods"] == "GET, HEAD, PATCH, PUT, DELETE")
        #expect(
            response.headers["access-control-allow-headers"]
                == "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key")
        #expect(response.headers["access-control-max-age"] == "600")
        #expect(response.headers["vary"] == "Origin")
        #expect(response.headers["access-control-allow-credentials"] == nil)
        #expect(response.body.isEmpty)

        let ring = try Self.preflight(server.http, Self.board + "/rings/move", origin: Self.tv, method: "PUT")
        #expect(ring.status == 204)
        #expect(ring.headers["access-control-allow-methods"] == "DELETE, GET, HEAD, PUT")
        let countdown = try Self.preflight(server.http, Self.board + "/countdown", origin: Self.tv, method: "POST")
        #expect(countdown.headers["access-control-allow-methods"] == "POST, DELETE")
    }

    @Test func preflightNeedsNoToken_andTheWriteAfterItDoes() throws {
        let server = try TestServer {
            $0.allowedOrigins = [Self.tv]
            $0.writeToken = "write-secret-1"
            $0.readToken = "read-secret-1"
        }
        defer { server.shutdown() }
        let preflight = try Self.preflight(server.http, origin: Self.tv)
        #expect(preflight.status == 204, "\(preflight.text)")
        let unauthorized = try server.http.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "Origin": Self.tv],
            body: #"{"rings":{"move":0.5}}"#)
        #expect(unauthorized.status == 401)
        // The page can read why: the error carries the CORS headers too.
        #expect(unauthorized.headers["access-control-allow-origin"] == Self.tv)
        let written = try server.http.send(
            "PATCH", Self.board,
            headers: ["Content-Type": "application/json", "Origin": Self.tv, "Authorization": "Bearer write-secret-1"],
            body: #"{"rings":{"move":0.5}}"#)
        #expect(written.status == 200, "\(written.text)")
        #expect(written.headers["access-control-allow-origin"] == Self.tv)
    }

    @Test func preflightFromAnotherOrigin_is403WithoutCORS_andChangesNothing() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let before = try server.http.get(Self.board)
        for origin in ["http://evil.example", "http://tv.example:8081", "https://tv.example:8080", "null"] {
            let response = try Self.preflight(server.http, origin: origin)
            #expect(response.status == 403, "\(origin): \(response.text)")
            #expect(response.error?.code == "origin_not_allowed")
            #expect(response.error?.field == "Origin")
            Self.expectNoCORS(response)
        }
        #expect(try server.http.get(Self.board).headers["etag"] == before.headers["etag"])
    }

    /// The server's own page needs no CORS, but a preflight from it (a page elsewhere on the same site
    /// would not send one) is answered like a listed origin's.
    @Test func theServersOwnOrigin_isAnsweredLikeAListedOne() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let own = "http://127.0.0.1:\(server.port)"
        let preflight = try Self.preflight(server.http, origin: own)
        #expect(preflight.status == 204, "\(preflight.text)")
        #expect(preflight.headers["access-control-allow-origin"] == own)
    }

    @Test func answersToAListedOrigin_echoIt_successAndError_andOthersGetNothing() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let json = ["Content-Type": "application/json", "Origin": Self.tv]
        let written = try server.http.send("PATCH", Self.board, headers: json, body: #"{"rings":{"move":0.7}}"#)
        #expect(written.status == 200, "\(written.text)")
        #expect(written.headers["access-control-allow-origin"] == Self.tv)
        #expect(written.headers["access-control-expose-headers"] == "ETag, Location, Retry-After, X-RingCast-Node")
        #expect(written.headers["vary"] == "Origin")
        #expect(written.headers["etag"] != nil)

        let read = try server.http.get(Self.board, headers: ["Origin": Self.tv])
        #expect(read.status == 200)
        #expect(read.headers["access-control-allow-origin"] == Self.tv)
        for (method, path, body, status) in [
            ("PATCH", Self.board, #"{"rings":{"move":11}}"#, 422), ("GET", "/api/v1/boards/nope", nil, 404),
            ("POST", Self.board, "{}", 405), ("PUT", Self.board + "/rings/nope", #"{"progress":0.1}"#, 404),
        ] as [(String, String, String?, Int)] {
            let refused = try server.http.send(method, path, headers: json, body: body)
            #expect(refused.status == status, "\(method) \(path): \(refused.text)")
            #expect(refused.headers["access-control-allow-origin"] == Self.tv, "\(method) \(path)")
        }

        let elsewhere = ["Content-Type": "application/json", "Origin": "http://evil.example"]
        let foreignRead = try server.http.get(Self.board, headers: ["Origin": "http://evil.example"])
        #expect(foreignRead.status == 200)
        Self.expectNoCORS(foreignRead)
        let foreignWrite = try server.http.send("PATCH", Self.board, headers: elsewhere, body: #"{"rings":{"move":0.1}}"#)
        #expect(foreignWrite.status == 403)
        Self.expectNoCORS(foreignWrite)
        Self.expectNoCORS(try server.http.get(Self.board))
        #expect(try server.http.get(Self.board).decode(TestSnapshot.self)[ring: "move"]?.target == 0.7)
    }

    @Test func optionsWithoutAPreflight_listsTheMethods() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let plain = try server.http.send("OPTIONS", Self.board, headers: [:], body: nil)
        #expect(plain.status == 204, "\(plain.text)")
        #expect(plain.headers["allow"] == "GET, HEAD, PATCH, PUT, DELETE, OPTIONS")
        Self.expectNoCORS(plain)
        let unknown = try server.http.send("OPTIONS", "/api/v1/nothing", headers: ["Origin": Self.tv], body: nil)
        #expect(unknown.status == 404)
        // Behind a rebinding name, a preflight is refused like everything else.
        let rebound = try TestHTTPClient(port: server.port, host: "tv.example:8080").send(
            "OPTIONS", Self.board, headers: ["Origin": Self.tv, "Access-Control-Request-Method": "PATCH"], body: nil)
        #expect(rebound.status == 421, "\(rebound.text)")
    }

    /// With `allowedOrigins` set, the server's own page was refused as a viewer (403): it is always allowed.
    @Test func theServersOwnPage_watches_whenAllowedOriginsIsSet() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let own = TestViewer(client: client, port: server.port, origin: "http://127.0.0.1:\(server.port)")
        try await own.waitUntil("the own page's layout and keyframe") { $0.count >= 2 }
        let listed = TestViewer(client: client, port: server.port, origin: Self.tv)
        try await listed.waitUntil("the listed origin's layout and keyframe") { $0.count >= 2 }
        let otherPort = TestViewer(client: client, port: server.port, origin: "http://127.0.0.1:\(server.port + 1)")
        _ = try await otherPort.waitForClose()
        #expect(otherPort.failure?.contains("403") == true, "\(String(describing: otherPort.failure))")
    }
}
