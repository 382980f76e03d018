import Dispatch
import Foundation
import RingCastCore
import RingCastStorage
import RingCastTransport
import Testing

/// Playlists across a real server's restart (the switches themselves are tested in process: `PlaylistBroadcastTests`).
@Suite("Playlists live")
struct PlaylistLiveTests {
    /// What the tests read of a JSON message beyond `TestFrame` and `TestLayout`: the type, the board, and the
    /// background with its splash layers.
    struct Message: Decodable {
        struct Background: Decodable {
            struct Layer: Decodable {
                var style: String
                var color: String
                var progress: Double
            }

            var color: String
            var splash: [Layer]
        }

        var type: String
        var board: String?
        var seq: UInt64?
        var keyframe: Bool?
        /// A layout's colour is a string; a frame's an object (absent from a delta that leaves it as it was).
        var background: Background?
        var layoutBackground: String?

        private enum CodingKeys: String, CodingKey { case type, board, seq, keyframe, background }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            board = try container.decodeIfPresent(String.self, forKey: .board)
            seq = try container.decodeIfPresent(UInt64.self, forKey: .seq)
            keyframe = try container.decodeIfPresent(Bool.self, forKey: .keyframe)
            background = try? container.decodeIfPresent(Background.self, forKey: .background)
            layoutBackground = try? container.decodeIfPresent(String.self, forKey: .background)
        }

        static func of(_ message: ViewerMessage) -> Message? {
            try? JSONDecoder().decode(Message.self, from: Data(message.bytes))
        }
    }

    static let ciBackground = "#4533c9"

    /// A server with board `ci` (a single ring on #4533c9) beside the shipped `main`, and playlist `wall` of both.
    private func serverWithPlaylist(seconds: Int, transition: String = "circle") throws -> TestServer {
        let server = try TestServer()
        let board = try server.http.send(
            "PUT", "/api/v1/boards/ci", body: #"{"template":"single","background":"\#(Self.ciBackground)"}"#)
        try #require(board.status == 201, "\(board.text)")
        let playlist = try server.http.send(
            "PUT", "/api/v1/playlists/wall",
            body: #"{"boards":["main","ci"],"seconds":\#(seconds),"transition":"\#(transition)"}"#)
        try #require(playlist.status == 201, "\(playlist.text)")
        return server
    }

    /// The messages from the first layout of `board` on (that layout first).
    static func fromLayout(of board: String, in messages: [ViewerMessage]) -> ArraySlice<ViewerMessage>? {
        guard let index = messages.firstIndex(where: { Message.of($0)?.type == "layout" && Message.of($0)?.board == board })
        else { return nil }
        return messages[index...]
    }

    /// Waits until `viewer` has switched to `board`: its layout and at least one frame after it.
    static func waitForSwitch(to board: String, _ viewer: TestViewer, timeout: Double = 15) async throws -> [ViewerMessage] {
        try await viewer.waitUntil(timeout: timeout, "the switch to \(board)") { messages in
            (fromLayout(of: board, in: messages)?.count ?? 0) >= 2
        }
    }

    @Test func aDamagedStoredPlaylist_isSkipped_andTheServerStartsWithTheOthers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-test-\(UUID().uuidString)")
        let store = try SQLiteStore(directory: directory.path)
        let good = #"{"anchor":1795797600,"boards":["main"],"name":"lobby","seconds":30,"transition":"circle"}"#
        let rows = [
            StoredPlaylist(name: "lobby", definition: Array(good.utf8)),
            StoredPlaylist(name: "wall", definition: Array(#"{"anchor":1,"boards":[],"name":"wall","seconds":30}"#.utf8)),
            StoredPlaylist(name: "moved", definition: Array(good.utf8)),
        ]
        for row in rows {
            let done = DispatchSemaphore(value: 0)
            store.write(playlist: row) { _ in done.signal() }
            #expect(done.wait(timeout: .now() + 10) == .success)
        }
        store.close()

        let server = try TestServer(dataDirectory: directory)
        defer { server.shutdown() }
        #expect(try server.http.get("/api/v1/playlists/lobby").status == 200)
        #expect(try server.http.get("/api/v1/playlists/wall").status == 404, "an empty list of boards does not load")
        #expect(try server.http.get("/api/v1/playlists/moved").status == 404, "a row naming another playlist does not load")
    }

    @Test func aPlaylist_isKeptAcrossARestart_withItsAnchor() async throws {
        let first = try serverWithPlaylist(seconds: 30)
        let before = try first.http.get("/api/v1/playlists/wall")
        first.stop()
        let second = try TestServer(dataDirectory: first.dataDirectory)
        defer { second.shutdown() }
        let after = try second.http.get("/api/v1/playlists/wall")
        #expect(after.status == 200)
        #expect(after.headers["etag"] == before.headers["etag"], "the same definition, anchor included")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: second.port, path: "/ws?playlist=wall&format=json")
        try await viewer.waitForGreeting()
    }
}

extension PlaylistLiveTests {
    /// The largest playlist a body may give (`Limits.playlistBoards` boards, `Limits.playlistSeconds` seconds) is
    /// stored and served the same after a restart; the first beyond each is refused naming its field, and changes
    /// nothing.
    @Test func theLargestPlaylist_isStoredAndServedAfterARestart_andTheFirstBeyondIsRefused() throws {
        let first = try TestServer { $0.writesPerMinute = 0 }
        let boards = ["main"] + (1..<Limits.playlistBoards.upperBound).map { "b\($0)" }
        for board in boards.dropFirst() + ["extra"] {
            #expect(try first.http.send("PUT", "/api/v1/boards/\(board)", body: #"{"template":"single"}"#).status == 201)
        }
        func body(_ names: [String], seconds: Int) -> String {
            #"{"boards":[\#(names.map { "\"\($0)\"" }.joined(separator: ","))],"seconds":\#(seconds)}"#
        }
        let largest = try first.http.send(
            "PUT", "/api/v1/playlists/wall", body: body(boards, seconds: Limits.playlistSeconds.upperBound))
        #expect(largest.status == 201, "\(largest.text)")
        let before = try first.http.get("/api/v1/playlists/wall")
        for (refused, field) in [
            (body(boards + ["extra"], seconds: 30), "boards"),
            (body(["main"], seconds: Limits.playlistSeconds.upperBound + 1), "seconds"),
            (body(["main"], seconds: Limits.playlistSeconds.lowerBound - 1), "seconds"),
        ] {
            let answer = try first.http.send("PUT", "/api/v1/playlists/wall", body: refused)
            #expect(answer.status == 422 && answer.error?.field == field, "\(answer.text)")
        }
        #expect(try first.http.get("/api/v1/playlists/wall").headers["etag"] == before.headers["etag"])
        first.stop()
        let second = try TestServer(dataDirectory: first.dataDirectory)
        defer { second.shutdown() }
        let after = try second.http.get("/api/v1/playlists/wall")
        #expect(after.status == 200 && after.headers["etag"] == before.headers["etag"], "\(after.text)")
    }
}
