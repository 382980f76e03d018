import Foundation
import RingCastTransport
import Testing

@Suite("Dynamic HTTP")
struct DynamicHTTPTests {
    private func decodeEcho(_ response: RawResponse) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: Data(response.body))
    }

    @Test(arguments: ["PATCH", "PUT", "DELETE", "POST"])
    func requestWithBody_reachesDelegateWithEverythingIntact(method: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let body = Array(#"{"rings":{"move":0.8}}"#.utf8)
        let response = try server.connection().request(
            method,
            "/api/v1/boards/main?animation=easeIn&label=a%20b&empty=&flag",
            headers: [
                ("Content-Type", "application/json"),
                ("Authorization", "Bearer secret"),
                ("If-Match", "\"v7\""),
                ("If-None-Match", "\"v6\""),
                ("Idempotency-Key", "key-123"),
                ("X-Request-Id", "req-9"),
                ("Cookie", "token=abc"),
                ("User-Agent", "tests/1.0"),
                ("Origin", "http://example.test"),
            ],
            body: body
        )
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["x-echo"] == "yes")
        let echo = try decodeEcho(response)
        #expect(echo.method == method)
        #expect(echo.path == "/api/v1/boards/main")
        #expect(echo.query == ["animation": "easeIn", "label": "a b", "empty": "", "flag": ""])
        #expect(echo.body == #"{"rings":{"move":0.8}}"#)
        #expect(echo.peer == "127.0.0.1")
        #expect(echo.headers["content-type"] == "application/json")
        #expect(echo.headers["content-length"] == "\(body.count)")
        #expect(echo.headers["authorization"] == "Bearer secret")
        #expect(echo.headers["if-match"] == "\"v7\"")
        #expect(echo.headers["if-none-match"] == "\"v6\"")
        #expect(echo.headers["idempotency-key"] == "key-123")
        #expect(echo.headers["x-request-id"] == "req-9")
        #expect(echo.headers["cookie"] == "token=abc")
        #expect(echo.headers["user-agent"] == "tests/1.0")
        #expect(echo.headers["origin"] == "http://example.test")
        #expect(echo.headers["host"] == "127.0.0.1")
    }

    @Test(arguments: ["PATCH", "PUT", "POST", "DELETE"])
    func zeroLengthBody_isAnsweredAtOnce(method: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try server.connection().request(method, "/api/v1/boards/main", headers: [("Content-Length", "0")])
        #expect(response.status == 200)
        let echo = try decodeEcho(response)
        #expect(echo.method == method)
        #expect(echo.body == "")
    }

    @Test func getWithoutBody_andPercentEncodedPath_areDecoded() throws {
        let server = try TestServer { $0.dynamicPrefixes = ["/api", "/healthz"] }
        defer { server.stop() }
        let response = try server.connection().request("GET", "/api/boards/caf%C3%A9/x?board=m%26m")
        let echo = try decodeEcho(response)
        #expect(echo.path == "/api/boards/café/x")
        #expect(echo.query == ["board": "m&m"])
        let health = try server.connection().request("GET", "/healthz")
        #expect(try decodeEcho(health).path == "/healthz")
    }

    @Test func expectContinue_getsInterimResponseBeforeTheBodyIsSent() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        let body = #"{"progress":0.5}"#
        try connection.send(
            "PUT /api/v1/boards/main/rings/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n"
        )
        let interim = try connection.readResponse()
        #expect(interim.status == 100)
        try connection.send(body)
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(try decodeEcho(response).body == body)
    }

    @Test func contentLengthOverTheLimit_is413AndTheConnectionCloses() throws {
        let server = try TestServer { $0.maxBodyBytes = 1000 }
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send(
            "PATCH /api/v1/boards/main HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.headers["connection"] == "close")
        #expect(response.text.contains("100000"))
        #expect(response.text.contains("\"status\":\"413\""))
        #expect(connection.isClosedByServer())
    }

    @Test func chunkedBody_is411() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send("POST /api/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 411)
        #expect(connection.isClosedByServer())
    }

    @Test func postWithoutContentLength_is411() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send("POST /api/x HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 411)
    }

    @Test func deferredRespond_fromAScheduledTimer_arrives() throws {
        let server = try TestServer()
        defer { server.stop() }
        let started = Date()
        let response = try server.connection().request("GET", "/api/deferred?seconds=0.15")
        #expect(response.status == 200)
        #expect(try decodeEcho(response).path == "/api/deferred")
        #expect(Date().timeIntervalSince(started) >= 0.14)
    }

    @Test func keepAlive_servesTwoRequestsOnOneConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        let first = try connection.request("PATCH", "/api/one", body: Array("1".utf8))
        let second = try connection.request("GET", "/api/two")
        let third = try connection.request("PUT", "/api/three", body: [])
        #expect(first.status == 200 && second.status == 200 && third.status == 200)
        #expect(try decodeEcho(first).body == "1")
        #expect(try decodeEcho(second).path == "/api/two")
        #expect(try decodeEcho(third).method == "PUT")
    }

    @Test func largeResponse_spanningManyWrites_arrivesIntact() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        let response = try connection.request("GET", "/api/large?bytes=1000003")
        #expect(response.status == 200)
        #expect(response.body == EchoDelegate.pattern(1_000_003))
        #expect(try connection.request("GET", "/api/after").status == 200)
    }

    @Test func head_sendsLengthButNoBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send("HEAD /api/large?bytes=5000 HTTP/1.1\r\nHost: x\r\n\r\n")
        // Read only the head: a HEAD answer has Content-Length but no body.
        try connection.send("GET /api/after HTTP/1.1\r\nHost: x\r\n\r\n")
        var head = try connection.readResponse(ignoringBodyOfLength: true)
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "5000")
        head = try connection.readResponse()
        #expect(head.status == 200)
        #expect(try decodeEcho(head).path == "/api/after")
    }

    @Test func connectMethod_isRefusedWith501() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send("CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n")
        #expect(try connection.readResponse().status == 501)
        #expect(connection.isClosedByServer())
    }

    @Test func secondRespond_isIgnored() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        let response = try connection.request("GET", "/api/twice")
        #expect(response.status == 200)
        #expect(response.text == "first")
        #expect(try connection.request("GET", "/api/after").status == 200)
    }
}
