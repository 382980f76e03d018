import Foundation
import RingCastTransport
import Testing

/// A wall screen's address keeps its meaning (issue 23): a viewer who names no board (the page at `/`) watches
/// the configured `defaultBoard` whatever other boards exist, and is told plainly when there is no such board.
@Suite("Default board live")
struct DefaultBoardLiveTests {
    private struct Refusal: Decodable {
        var type: String
        var status: Int
        var message: String
        var field: String?
        var boards: [String]?
    }

    private static func layoutBoard(_ viewer: TestViewer) async throws -> String {
        let messages = try await viewer.waitUntil("a layout") { $0.contains { if case .layout = $0 { true } else { false } } }
        for message in messages {
            if case .layout(let layout, _) = message { return layout.board }
        }
        throw CancellationError()
    }

    @Test func aViewerNamingNoBoard_watchesTheDefaultBoard_whenOtherBoardsCameFirst() async throws {
        let server = try TestServer { $0.defaultBoard = "lobby" }
        defer { server.shutdown() }
        for (name, template) in [("ci", "tasks"), ("lobby", "single"), ("zz", "countdown")] {
            let created = try server.http.send("PUT", "/api/v1/boards/\(name)", body: #"{"template":"\#(template)"}"#)
            #expect(created.status == 201, "\(created.text)")
        }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port, path: "/ws?format=json")
        #expect(try await Self.layoutBoard(viewer) == "lobby")
        // Naming a board still shows that board.
        let named = TestViewer(client: client, port: server.port, path: "/ws?board=ci&format=json")
        #expect(try await Self.layoutBoard(named) == "ci")
        let list = try server.http.get("/api/v1/boards")
        #expect(list.text.hasSuffix(#""defaultBoard":"lobby"}"# + "\n"), "\(list.text)")
    }

    @Test func withoutADefaultBoard_aViewerNamingNoBoardIsToldWhichIsMissing_andWhichBoardsThereAre() async throws {
        let server = try TestServer { $0.defaultBoard = "lobby" }
        defer { server.shutdown() }
        let port = server.port
        let (messages, code) = try await onOwnThread {
            try RawWebSocket(port: port, path: "/ws?format=json&refusal=message").readUntilClose()
        }
        #expect(code == 4404)
        let refusal = try JSONDecoder().decode(Refusal.self, from: Data(try #require(messages.first)))
        #expect(refusal.type == "error" && refusal.status == 404 && refusal.field == "board")
        #expect(refusal.message.contains(#""lobby""#) && refusal.message.contains("defaultBoard"), "\(refusal.message)")
        #expect(refusal.boards == ["main"])
    }
}
