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

@Suite("REST API")
struct RESTTests {
    static let board = "/api/v1/boards/main"

    @Test func oversizedBody_is413_andHeadOnAGetRoute_hasNoBody() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http
        let before = try http.get(Self.board)
        let large = try http.send("PATCH", Self.board, body: String(repeating: " ", count: 70_000) + "{}")
        #expect(large.status == 413, "\(large.text)")
        #expect(large.error?.code == "payload_too_large")
        #expect(try http.get(Self.board).headers["etag"] == before.headers["etag"])

        let head = try http.send("HEAD", Self.board, headers: [:], body: nil)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(Int(head.headers["content-length"] ?? "") == before.body.count)
    }

    @Test func invalidUTF8_andABodyWithoutALength_areRefusedAndChangeNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http
        let before = try http.get(Self.board)

        let body: [UInt8] = Array(#"{"rings":{"mo"#.utf8) + [0xff, 0xfe] + Array(#"ve":0.5}}"#.utf8)
        let head =
            "PATCH \(Self.board) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let invalid = try http.exchange(Array(head.utf8) + body)
        #expect(invalid.status == 400, "\(invalid.text)")
        #expect(invalid.error?.code == "malformed")

        let chunked =
            "PATCH \(Self.board) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n16\r\n{\"rings\":{\"move\":0.5}}\r\n0\r\n\r\n"
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

    @Test func boardList_healthAndStaticPage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http

        struct List: Decodable {
            struct Entry: Decodable {
                struct Ring: Decodable {
                    var id: String
                    var title: String
                    var kind: String
                }
                var name: String
                var title: String
                var rings: [Ring]
            }
            var boards: [Entry]
        }
        let list = try http.get("/api/v1/boards")
        #expect(list.status == 200)
        let boards = try list.decode(List.self).boards
        #expect(boards.map(\.name) == ["main"])
        #expect(boards.first?.rings.first.map { [$0.id, $0.title, $0.kind] } == ["move", "Move", "plain"])

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
