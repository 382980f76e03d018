import RingCastClient
import Testing

@Suite("HTTP client")
struct HTTPClientTests {
    private func client(_ server: CannedHTTPServer, token: String? = nil, timeoutSeconds: Int = 5) throws -> HTTPClient {
        HTTPClient(
            address: try ServerAddress(numericHost: "127.0.0.1", port: server.port), token: token, timeoutSeconds: timeoutSeconds)
    }

    /// The error `body` threw, or nil when it returned.
    private func failure(_ body: () throws -> Void) -> ClientError? {
        do {
            try body()
            return nil
        } catch {
            return error as? ClientError
        }
    }

    @Test func request_returnsA2xxAnswer_andThrowsHTTPStatusWithTheServersErrorForAnyOther() throws {
        let notFound = #"{"error":{"code":"not_found","message":"no board named \"x\"","field":"board"}}"#
        let server = try CannedHTTPServer(connections: [
            [
                CannedHTTPServer.answer(200, "ok"),
                CannedHTTPServer.answer(404, notFound, headers: "Content-Type: application/json\r\n"),
                CannedHTTPServer.answer(502, "<html>bad gateway</html>"),
            ]
        ])
        let client = try client(server, token: "secret")

        let response = try client.request("GET", "/a")
        #expect(response.status == 200 && response.text == "ok")
        let expected = ServerError(code: "not_found", message: #"no board named "x""#, field: "board")
        #expect(failure { _ = try client.request("GET", "/b") } == .httpStatus(404, error: expected))
        #expect(failure { _ = try client.request("GET", "/c") } == .httpStatus(502, error: nil))
        #expect(server.requestHeads.count == 3, "one keep-alive connection: \(server.requestHeads)")
        #expect(server.requestHeads.allSatisfy { $0.contains("Authorization: Bearer secret\r\n") })
    }

    @Test func request_onAKeepAliveConnectionTheServerClosed_isSentOnceMoreOnANewOne() throws {
        let server = try CannedHTTPServer(connections: [
            [CannedHTTPServer.answer(200, "first")],
            [CannedHTTPServer.answer(200, "second")],
        ])
        let client = try client(server)

        #expect(try client.request("GET", "/").text == "first")
        #expect(try client.request("GET", "/").text == "second")
    }

    @Test func request_toAPortNobodyListensOn_throwsConnectionFailed() throws {
        let client = HTTPClient(address: try ServerAddress(numericHost: "127.0.0.1", port: 1), token: nil)

        let error = failure { _ = try client.request("GET", "/") }
        guard case .connectionFailed(let server, let reason) = error else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
        #expect(server == "http://127.0.0.1:1" && reason.hasPrefix("connect: "))
        #expect(error?.description.hasPrefix("cannot reach http://127.0.0.1:1: connect: ") == true)
    }

    @Test func request_thatIsNeverAnswered_throwsTimedOutAfterTheTimeout() throws {
        let server = try CannedHTTPServer(connections: [[nil]])
        let client = try client(server, timeoutSeconds: 1)

        #expect(
            failure { _ = try client.request("GET", "/") } == .timedOut(server: "http://127.0.0.1:\(server.port)", seconds: 1))
    }

    /// The answer read is bounded: a head past 64 KiB, a Content-Length or chunk past 32 MiB is refused before
    /// it is read.
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 70 * 1024), "a head longer than 64 KiB"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\nxxxx", "an answer larger than 32 MiB"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nE8D4A51000\r\nxxxx", "an answer larger than 32 MiB"),
    ])
    func request_answeredPastTheCap_throwsInvalidResponse(answer: String, reason: String) throws {
        let server = try CannedHTTPServer(connections: [[answer]])
        let client = try client(server)

        #expect(
            failure { _ = try client.request("GET", "/") }
                == .invalidResponse(server: "http://127.0.0.1:\(server.port)", reason: reason))
    }

    @Test func request_answeredWithAChunkedBody_readsIt_andTheNextAnswerOnTheSameConnection() throws {
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n1\r\n!\r\n0\r\nX-T: 1\r\n\r\n"
        let server = try CannedHTTPServer(connections: [[chunked, "HTTP/1.1 204 No Content\r\n\r\n"]])
        let client = try client(server)

        #expect(try client.request("GET", "/").text == "hello!")
        #expect(try client.request("GET", "/").status == 204)
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "SSH-2.0-OpenSSH_9.2\r\n\r\n",
    ])
    func request_answeredWithWhatItCannotRead_throwsInvalidResponse(answer: String) throws {
        let server = try CannedHTTPServer(connections: [[answer]])
        let client = try client(server)

        let error = failure { _ = try client.request("GET", "/") }
        guard case .invalidResponse = error else {
            Issue.record("expected invalidResponse, got \(String(describing: error))")
            return
        }
    }

    @Test func serverAddress_numericHost_refusesNames_andKnowsLoopback() throws {
        #expect(try ServerAddress(numericHost: "127.0.0.2", port: 8080).isLoopback)
        let ipv6 = try ServerAddress(numericHost: "::1", port: 8080)
        #expect(ipv6.isLoopback && ipv6.description == "http://[::1]:8080" && ipv6.authority == "[::1]:8080")
        #expect(try !ServerAddress(numericHost: "192.0.2.1", port: 80).isLoopback)
        let name = failure { _ = try ServerAddress(numericHost: "localhost", port: 80) }
        guard case .cannotResolve(let host, _) = name else {
            Issue.record("expected cannotResolve, got \(String(describing: name))")
            return
        }
        #expect(host == "localhost")
    }
}
