import Foundation
import Testing

@testable import RingCastServer

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 32, item 3: a write that asks for `Prefer: return=minimal` (RFC 7240) is answered with its status, ETag and
/// Location alone, so the server encodes nothing of the board; the write itself is the same.
@Suite("Minimal answers")
struct MinimalAnswerTests {
    static let minimal = ["Content-Type": "application/json", "Prefer": "return=minimal"]

    @Test(
        arguments: [
            (nil, ReturnPreference.representation),
            ("", .representation),
            ("return=minimal", .minimal),
            ("RETURN=Minimal", .minimal),
            ("return=\"minimal\"", .minimal),
            (" respond-async , return=minimal; foo=bar", .minimal),
            ("return=representation", .representation),
            ("return=representation, return=minimal", .representation),  // only the first counts (RFC 7240 §2)
            ("return=minimal, return=representation", .minimal),
            ("handling=strict", .representation),
            ("return", .representation),
            ("return=", .representation),
            ("returns=minimal", .representation),
            ("wait=10, return = minimal", .minimal),
        ] as [(String?, ReturnPreference)])
    func theHeader_isReadAsRFC7240Says(header: String?, expected: ReturnPreference) {
        #expect(ReturnPreference(prefer: header) == expected)
    }

    @Test func aPatch_isAnswered204WithTheETag_andChangesTheBoardAsAFullAnswerWould() throws {
        let api = try TestApplication()
        let answer = try api.send(
            "PATCH", "/api/v1/boards/main", headers: Self.minimal, body: #"{"rings":{"move":0.3},"animation":"none"}"#)
        #expect(answer.status == 204, "\(answer.text)")
        #expect(answer.body.isEmpty)
        #expect(answer.headers["preference-applied"] == "return=minimal")
        let board = try api.get("/api/v1/boards/main")
        #expect(
            answer.headers["etag"] != nil && answer.headers["etag"] == board.headers["etag"], "the ETag of the board as written")
        #expect(board.text.contains(#""id":"move""#) && board.text.contains(#""progress":0.3"#), "\(board.text)")

        // The same write asked in full answers the board, at the next revision.
        let full = try api.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.4},"animation":"none"}"#)
        #expect(full.status == 200 && full.text.contains(#""progress":0.4"#), "\(full.text)")
        #expect(full.headers["preference-applied"] == nil)
    }

    @Test func creatingABoardOrARing_is201WithLocationAndETag_andNoBody() throws {
        let api = try TestApplication()
        let board = try api.send("PUT", "/api/v1/boards/ci", headers: Self.minimal, body: #"{"template":"single"}"#)
        #expect(board.status == 201, "\(board.text)")
        #expect(board.body.isEmpty)
        #expect(board.headers["location"] == "/api/v1/boards/ci")
        #expect(board.headers["etag"] == (try api.get("/api/v1/boards/ci")).headers["etag"])

        let ring = try api.send(
            "POST", "/api/v1/boards/ci/rings", headers: Self.minimal, body: #"{"id":"lint","title":"Lint"}"#)
        #expect(ring.status == 201, "\(ring.text)")
        #expect(ring.body.isEmpty)
        #expect(ring.headers["location"] == "/api/v1/boards/ci/rings/lint")
        #expect(ring.headers["etag"] == (try api.get("/api/v1/boards/ci")).headers["etag"])
    }

    @Test func aPlaylist_is201WithLocationWhenNew_then204_andNoBody() throws {
        let api = try TestApplication()
        let body = #"{"boards":["main"],"seconds":30}"#
        let created = try api.send("PUT", "/api/v1/playlists/lobby", headers: Self.minimal, body: body)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.body.isEmpty)
        #expect(created.headers["location"] == "/api/v1/playlists/lobby")
        #expect(created.headers["preference-applied"] == "return=minimal")
        let read = try api.get("/api/v1/playlists/lobby")
        #expect(created.headers["etag"] != nil && created.headers["etag"] == read.headers["etag"])

        let replaced = try api.send(
            "PUT", "/api/v1/playlists/lobby", headers: Self.minimal, body: #"{"boards":["main"],"seconds":45}"#)
        #expect(replaced.status == 204 && replaced.body.isEmpty, "\(replaced.text)")
        #expect(replaced.headers["etag"] == (try api.get("/api/v1/playlists/lobby")).headers["etag"])
        #expect((try api.get("/api/v1/playlists/lobby")).text.contains(#""seconds":45"#))

        // Asked in full, the same write answers the playlist.
        let full = try api.send("PUT", "/api/v1/playlists/lobby", body: #"{"boards":["main"],"seconds":45}"#)
        #expect(full.status == 200 && full.text.contains(#""seconds":45"#), "\(full.text)")
    }

    @Test func aRefusal_keepsItsBody_andAWriteThatChangesNothing_isMinimalToo() throws {
        let api = try TestApplication()
        let refused = try api.send("PATCH", "/api/v1/boards/main", headers: Self.minimal, body: #"{"rings":{"move":11}}"#)
        #expect(refused.status == 422 && refused.error?.field == "rings.move", "\(refused.text)")
        #expect(refused.headers["preference-applied"] == nil)

        // No countdown runs, so cancelling changes nothing: answered at once, minimally.
        let unchanged = try api.send("DELETE", "/api/v1/boards/main/countdown", headers: Self.minimal)
        #expect(unchanged.status == 204 && unchanged.body.isEmpty, "\(unchanged.text)")
    }

    @Test func anIdempotentReplay_answersTheMinimalAnswerAgain() throws {
        let api = try TestApplication()
        var headers = Self.minimal
        headers["Idempotency-Key"] = "push-1"
        let body = #"{"rings":{"move":0.5},"animation":"none"}"#
        let first = try api.send("PATCH", "/api/v1/boards/main", headers: headers, body: body)
        let again = try api.send("PATCH", "/api/v1/boards/main", headers: headers, body: body)
        #expect(first.status == 204 && again.status == 204)
        #expect(again.headers["idempotent-replayed"] == "true")
        #expect(again.headers["etag"] == first.headers["etag"])
    }

    /// Over a real socket: the transport hands `Prefer` to the pipeline (libwebsockets 4.1.6 knows it by no token of
    /// its own, so it is looked up as a custom header).
    @Test func overTheWire_theTransportPassesPreferOn() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let answer = try server.http.send(
            "PUT", "/api/v1/boards/main/rings/move", headers: Self.minimal, body: #"{"progress":0.25,"animation":"none"}"#)
        #expect(answer.status == 204, "\(answer.text)")
        #expect(answer.body.isEmpty)
        #expect(answer.headers["preference-applied"] == "return=minimal")
        #expect(answer.headers["etag"] == (try server.http.get("/api/v1/boards/main")).headers["etag"])
    }

    /// A keep-alive client sending minimal writes one after the other (a script pushing in a loop): each is answered,
    /// and the server goes on serving. The transport once wrote a 204's empty body as a zero-length final write, which
    /// left libwebsockets 4.1.6 spinning on the connection's next request with a body: no answer, and the whole
    /// server stalled.
    @Test func minimalWritesOnOneKeepAliveConnection_areEachAnswered_andTheServerGoesOn() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let fd = try connectLoopback(port: server.port, timeoutSeconds: 10)
        defer { close(fd) }
        var received: [UInt8] = []
        for seconds in [10, 20, 30, 40] {
            let body = #"{"seconds":\#(seconds)}"#
            let request =
                "POST /api/v1/boards/main/countdown HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nPrefer: return=minimal\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let bytes = Array(request.utf8)
            #expect(bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count)
            // A 204 is its head alone.
            var head: String?
            while head == nil {
                if let end = received.indices.dropLast(3).first(where: {
                    received[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10])
                }) {
                    head = String(decoding: received[..<end], as: UTF8.self)
                    received.removeFirst(end + 4)
                    break
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
                guard count > 0 else {
                    Issue.record("no answer to the minimal write of \(seconds) s on the kept-alive connection (recv \(count))")
                    return
                }
                received += chunk[0..<count]
            }
            #expect(head?.hasPrefix("HTTP/1.1 204") == true, "\(head ?? "")")
        }
        #expect(try server.http.get("/healthz").status == 200)
    }

    /// Two writes pipelined on one connection (the second sent before the first is answered), with and without
    /// `Prefer: return=minimal`: libwebsockets 4.1.6 handed the second one's body over again and again without polling,
    /// and the whole server stalled. The connection may be closed; the server must go on answering everyone else.
    @Test(arguments: [false, true])
    func pipelinedWrites_neverStallTheServer(minimal: Bool) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let fd = try connectLoopback(port: server.port, timeoutSeconds: 10)
        defer { close(fd) }
        func patch(_ progress: Double) -> String {
            let body = #"{"rings":{"move":\#(progress)},"animation":"none"}"#
            return "PATCH /api/v1/boards/main HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                + (minimal ? "Prefer: return=minimal\r\n" : "")
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        }
        let bytes = Array((patch(0.2) + patch(0.3)).utf8)
        #expect(bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count)
        // Whatever the pipelining client gets (answers, or a closed connection), within its 10 s.
        var chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeMutableBytes({ recv(fd, $0.baseAddress!, $0.count, 0) }) > 0 {}
        #expect(try server.http.get("/healthz").status == 200, "the server answers everyone else")
        #expect(try server.http.get("/api/v1/boards/main").status == 200)
    }
}
