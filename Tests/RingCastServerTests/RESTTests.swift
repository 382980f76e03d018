import Foundation
import RingCastTransport
import Testing

/// The board as `GET /api/v1/boards/{board}` shows it, in the parts the tests compare.
struct TestSnapshot: Decodable, Equatable {
    struct Ring: Decodable, Equatable {
        var id: String
        var target: Double?
        var progress: Double?
        var colors: [String]
    }

    var board: String
    var rings: [Ring]
    var background: String?

    subscript(ring id: String) -> Ring? { rings.first { $0.id == id } }
}

/// One bad request and what it must be answered with.
struct BadRequest: CustomTestStringConvertible, Sendable {
    var name: String
    var method: String
    var path: String
    var headers: [String: String] = ["Content-Type": "application/json"]
    var body: String?
    var status: Int
    var code: String?
    var field: String?

    var testDescription: String { name }
}

@Suite("REST API")
struct RESTTests {
    static let board = "/api/v1/boards/main"

    static let badRequests: [BadRequest] = [
        BadRequest(name: "malformed JSON", method: "PATCH", path: board, body: #"{"rings":"#, status: 400, code: "malformed"),
        BadRequest(name: "not an object", method: "PATCH", path: board, body: "[1,2]", status: 400, code: "malformed"),
        BadRequest(name: "empty body", method: "PATCH", path: board, body: "", status: 400, code: "malformed"),
        BadRequest(
            name: "duplicate key", method: "PATCH", path: board, body: #"{"rings":{"move":0.5,"move":0.9}}"#,
            status: 400, code: "malformed", field: "rings.move"
        ),
        BadRequest(
            name: "deep nesting", method: "PATCH", path: board,
            body: #"{"rings":{"move":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}}",
            status: 400, code: "malformed"
        ),

        BadRequest(
            name: "wrong type", method: "PATCH", path: board, body: #"{"rings":{"move":"high"}}"#,
            status: 400, code: "malformed", field: "rings.move"
        ),
        BadRequest(
            name: "unknown field", method: "PATCH", path: board, body: #"{"rings":{"move":0.5},"colour":"red"}"#,
            status: 400, code: "unknown_field", field: "colour"
        ),
        BadRequest(
            name: "unknown board", method: "PATCH", path: "/api/v1/boards/nope", body: #"{"rings":{"move":0.5}}"#, status: 404,
            code: "not_found"),
        BadRequest(
            name: "unknown ring among good ones", method: "PATCH", path: board, body: #"{"rings":{"move":0.5,"nope":0.2}}"#,
            status: 404, code: "not_found", field: "rings.nope"
        ),
        BadRequest(
            name: "PUT unknown ring", method: "PUT", path: board + "/rings/nope", body: #"{"progress":0.5}"#, status: 404,
            code: "not_found"),
        BadRequest(name: "unknown route", method: "GET", path: "/api/v2/boards", status: 404, code: "not_found"),
        BadRequest(name: "DELETE a board", method: "DELETE", path: board, status: 405, code: "method_not_allowed"),
        BadRequest(
            name: "POST the board list", method: "POST", path: "/api/v1/boards", body: "{}", status: 405,
            code: "method_not_allowed"),
        BadRequest(
            name: "body too large", method: "PATCH", path: board, body: String(repeating: " ", count: 70_000) + "{}", status: 413),
        BadRequest(
            name: "not JSON", method: "PATCH", path: board, headers: ["Content-Type": "text/plain"],
            body: #"{"rings":{"move":0.5}}"#, status: 415, code: "unsupported_media_type"
        ),
        BadRequest(
            name: "progress above 10", method: "PATCH", path: board, body: #"{"rings":{"move":10.5}}"#,
            status: 422, field: "rings.move"
        ),
        BadRequest(
            name: "negative progress", method: "PUT", path: board + "/rings/move", body: #"{"progress":-0.1}"#,
            status: 422, field: "progress"
        ),
        BadRequest(
            name: "one bad ring in a PATCH", method: "PATCH", path: board,
            body: #"{"rings":{"move":0.5,"exercise":11}}"#, status: 422, field: "rings.exercise"
        ),
        BadRequest(
            name: "unknown curve", method: "PATCH", path: board,
            body: #"{"rings":{"move":0.5},"animation":{"curve":"wobble","duration":1}}"#, status: 422
        ),
        BadRequest(
            name: "zero duration", method: "PATCH", path: board,
            body: #"{"rings":{"move":0.5},"animation":{"curve":"linear","duration":0}}"#, status: 422
        ),
        BadRequest(
            name: "duration above 60 s", method: "PUT", path: board + "/rings/move",
            body: #"{"progress":0.5,"animation":{"curve":"linear","duration":61}}"#, status: 422
        ),
        BadRequest(
            name: "one colour", method: "PATCH", path: board, body: ##"{"rings":{"move":{"colors":["#ff0000"]}}}"##,
            status: 422
        ),
        BadRequest(
            name: "bad colour", method: "PATCH", path: board,
            body: ##"{"rings":{"move":{"colors":["#ff0000","red"]}}}"##, status: 422
        ),
        BadRequest(
            name: "derived ring", method: "PUT", path: board + "/rings/overall", body: #"{"progress":0.5}"#,
            status: 422
        ),
        BadRequest(name: "empty rings", method: "PATCH", path: board, body: #"{"rings":{}}"#, status: 422),
        BadRequest(
            name: "huge number", method: "PATCH", path: board, body: #"{"rings":{"move":1e400}}"#,
            status: 400
        ),
    ]

    @Test(arguments: badRequests)
    func badRequest_isAnsweredWithItsStatusAndChangesNothing(_ bad: BadRequest) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http
        let seeded = try http.send(
            "PATCH", Self.board, body: #"{"rings":{"move":0.3,"exercise":0.6},"animation":"none"}"#
        )
        try #require(seeded.status == 200, "\(seeded.text)")
        let before = try http.get(Self.board)

        let response = try http.send(bad.method, bad.path, headers: bad.headers, body: bad.body)

        #expect(response.status == bad.status, "\(response.text)")
        #expect(response.headers["content-type"] == "application/json")
        let error = try #require(response.error, "error body: \(response.text)")
        #expect(!error.message.isEmpty)
        if let code = bad.code { #expect(error.code == code) }
        if let field = bad.field { #expect(error.field == field) }
        if bad.status == 405 { #expect(response.headers["allow"] != nil) }

        let after = try http.get(Self.board)
        #expect(after.headers["etag"] == before.headers["etag"])
        #expect(try after.decode(TestSnapshot.self).rings.map(\.target) == before.decode(TestSnapshot.self).rings.map(\.target))
    }

    @Test func invalidUTF8_andABodyWithoutALength_areRefusedAndChangeNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http
        let before = try http.get(Self.board)

        let body: [UInt8] = Array(#"{"rings":{"mo"#.utf8) + [0xff, 0xfe] + Array(#"ve":0.5}}"#.utf8)
        let head =
            "PATCH \(Self.board) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let invalid = try http.exchange(Array(head.utf8) + body)
        #expect(invalid.status == 400, "\(invalid.text)")
        #expect(invalid.error?.code == "malformed")

        let chunked =
            "PATCH \(Self.board) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n16\r\n{\"rings\":{\"move\":0.5}}\r\n0\r\n\r\n"
        let unlengthed = try http.exchange(Array(chunked.utf8))
        #expect(unlengthed.status == 411, "\(unlengthed.text)")
        #expect(unlengthed.error?.code == "length_required")

        #expect(try http.get(Self.board).headers["etag"] == before.headers["etag"])
    }

    @Test func getBoard_showsTargetsAndPresentation_withAnETagThatFollowsTheTargets() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http

        let empty = try http.get(Self.board)
        #expect(empty.status == 200)
        let snapshot = try empty.decode(TestSnapshot.self)
        #expect(snapshot.board == "main")
        #expect(snapshot.rings.count == 9)
        #expect(snapshot.rings.allSatisfy { $0.target == nil && $0.progress == nil })
        #expect(snapshot[ring: "move"]?.colors == ["#e74c3cff", "#c0392bff"])

        let put = try http.send("PUT", Self.board + "/rings/move", body: #"{"progress":0.25,"animation":"none"}"#)
        #expect(put.status == 200)
        #expect(try put.decode(TestSnapshot.self)[ring: "move"]?.target == 0.25)
        let after = try http.get(Self.board)
        #expect(try after.decode(TestSnapshot.self)[ring: "move"]?.progress == 0.25)
        #expect(after.headers["etag"] != nil && after.headers["etag"] != empty.headers["etag"])

        // If-Match: the current tag is accepted, a stale one gets 412 and changes nothing.
        let stale = try http.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "If-Match": empty.headers["etag"]!],
            body: #"{"rings":{"move":0.9}}"#
        )
        #expect(stale.status == 412)
        #expect(try http.get(Self.board).decode(TestSnapshot.self)[ring: "move"]?.target == 0.25)
        let fresh = try http.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "If-Match": after.headers["etag"]!],
            body: #"{"rings":{"move":0.9}}"#
        )
        #expect(fresh.status == 200)
    }

    @Test func curlsDefaultFormContentType_isAcceptedAsJSON() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.http.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: #"{"rings":{"move":0.8}}"#
        )
        #expect(response.status == 200, "\(response.text)")
    }

    @Test func boardList_healthAndStaticPage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http

        struct List: Decodable {
            struct Entry: Decodable {
                var name: String
                var rings: [String]
            }
            var boards: [Entry]
        }
        let list = try http.get("/api/v1/boards")
        #expect(list.status == 200)
        #expect(try list.decode(List.self).boards.map(\.name) == ["main"])

        #expect(try http.get("/healthz").status == 200)
        #expect(try http.get("/readyz").status == 200)
        let document = try http.get("/api/v1/openapi.yaml")
        #expect(document.status == 200)
        #expect(document.text.hasPrefix("openapi: 3.1"))

        let page = try http.get("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.text.contains("app.js"))
    }

    @Test func restartKeepsEveryAcknowledgedPush_andContinuesItsAnimationWhereTheGridIs() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try TestServer(dataDirectory: directory)
        let response = try first.http.send(
            "PATCH", Self.board,
            body:
                ##"{"rings":{"move":0.42,"task2":{"progress":1.5,"colors":["#112233","#445566"]}},"animation":{"curve":"linear","duration":30}}"##
        )
        #expect(response.status == 200)
        first.stop()

        let second = try TestServer(dataDirectory: directory)
        defer { second.shutdown() }
        let snapshot = try second.http.get(Self.board).decode(TestSnapshot.self)
        #expect(snapshot[ring: "move"]?.target == 0.42)
        // A 30 s animation goes on from where the time has taken it: not replayed, not jumped.
        let progress = try #require(snapshot[ring: "move"]?.progress)
        #expect(progress >= 0 && progress < 0.1, "progress \(progress)")
        #expect(snapshot[ring: "task2"]?.target == 1.5)
        #expect(snapshot[ring: "task2"]?.colors == ["#112233ff", "#445566ff"])

        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: second.port)
        let messages = try await viewer.waitUntil("keyframe") { $0.count >= 2 }
        let shown = try #require(messages[1].frame?[ring: "move"]?.p)
        #expect(shown >= progress && shown < 0.1, "keyframe shows \(shown)")
    }

    @Test func corruptStateFile_stopsTheServerWithAClearError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-corrupt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("state.json")
        try Data("{not json".utf8).write(to: file)

        #expect {
            _ = try TestServer(dataDirectory: directory)
        } throws: { error in
            "\(error)".contains("state.json") && "\(error)".contains("corrupt")
        }
        // Never silently replaced.
        #expect(try String(contentsOf: file, encoding: .utf8) == "{not json")
    }
}
