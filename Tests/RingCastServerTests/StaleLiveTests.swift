import Foundation
import RingCastCore
import RingCastServer
import RingCastTransport
import Testing

/// Stale data through the real server (DESIGN §13, issue 23): pushes stop until a board goes stale, its viewers
/// get the text in their frames, a push clears it, GET shows when the last write came, a restart keeps it, and
/// the config declares it with the API's rules.
@Suite("Stale data, live")
struct StaleLiveTests {
    static let board = "/api/v1/boards/ops"

    /// Each entry's id and stale text, from a JSON frame's bytes.
    struct Entries: Decodable {
        struct Entry: Decodable {
            var id: String
            var stale: String?
        }

        var seq: UInt64
        var rings: [Entry]
    }

    static func entries(_ message: ViewerMessage) -> Entries? {
        guard case .frame(_, let bytes) = message else { return nil }
        return try? JSONDecoder().decode(Entries.self, from: Data(bytes))
    }

    static func created(_ server: TestServer) throws {
        let created = try server.http.send(
            "PUT", board,
            body: #"{"staleAfter":1,"rings":[{"id":"build"},{"id":"tests","kind":"counter","value":3}]}"#)
        #expect(created.status == 201, "\(created.text)")
    }

    static func getJSON(_ server: TestServer) throws -> [String: Any] {
        let answer = try server.http.send("GET", board, body: "")
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
    }

    @Test func pushesStopped_theBoardGoesStaleInEveryViewersFrames_andAPushClearsIt() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try Self.created(server)
        let pushed = try server.http.send("PATCH", Self.board, body: #"{"rings":{"build":0.5},"animation":"none"}"#)
        #expect(pushed.status == 200, "\(pushed.text)")

        let client = try WebSocketClient()
        defer { client.shutdown() }
        let json = TestViewer(client: client, port: server.port, path: "/ws?board=ops&format=json")
        let binary = TestViewer(client: client, port: server.port, path: "/ws?board=ops&format=binary")
        // No write for a second: every entry of the board shows the server's text, though nothing moves. ("updated
        // under 1 min ago"; a test starved for a minute on a loaded box sees the next text, so any of them counts.)
        func isStale(_ text: String?) -> Bool { text?.hasPrefix("updated ") == true }
        do {
            try await json.waitUntil(timeout: 15, "the board to go stale") { messages in
                messages.compactMap(Self.entries).contains { $0.rings.allSatisfy { isStale($0.stale) } }
            }
        } catch {
            let seen = json.messages.map { message in
                Self.entries(message).map { "\($0.seq): \($0.rings.map { "\($0.id)=\($0.stale ?? "-")" })" }
                    ?? String(decoding: message.bytes.prefix(80), as: UTF8.self)
            }
            Issue.record("\(error); received \(seen)")
            return
        }
        try await binary.waitUntil(timeout: 15, "the binary viewer's stale section") { _ in
            binary.binaryFrames.contains { $0.frame.stale.values.contains(where: isStale) }
        }
        let section = try #require(binary.binaryFrames.last { !$0.frame.stale.isEmpty })
        #expect(section.bytes[1] == BinaryFrame.staleVersion)
        #expect(Set(section.frame.stale.keys) == [0, 1] && Set(section.frame.stale.values).count == 1)
        #expect(section.frame.stale.values.allSatisfy(isStale))

        var answer = try Self.getJSON(server)
        #expect(answer["staleAfter"] as? Int == 1)
        #expect(isStale(answer["stale"] as? String))
        let updatedAt = try #require(answer["updatedAt"] as? String)
        #expect(updatedAt.hasSuffix("Z") && updatedAt.count == 24, "\(updatedAt)")
        let rings = try #require(answer["rings"] as? [[String: Any]])
        #expect(rings.allSatisfy { isStale($0["stale"] as? String) } && rings.count == 2)
        #expect(rings.first?["updatedAt"] as? String == updatedAt)

        // A push to one ring clears the board's staleness on every entry, from the push's frame on.
        let seen = json.messages.count
        let again = try server.http.send("PUT", Self.board + "/rings/tests", body: #"{"value":4}"#)
        #expect(again.status == 200, "\(again.text)")
        try await json.waitUntil(timeout: 10, "the push to clear it") { messages in
            messages.dropFirst(seen).compactMap(Self.entries).contains { $0.rings.allSatisfy { $0.stale == nil } }
        }
        answer = try Self.getJSON(server)
        #expect((answer["updatedAt"] as? String).map { $0 > updatedAt } == true)
    }

    @Test func aRingsOwnStaleAfter_isSetAndClearedThroughAPatch_andABadOneChangesNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try Self.created(server)
        let set = try server.http.send("PATCH", Self.board, body: #"{"rings":{"build":{"staleAfter":600}}}"#)
        #expect(set.status == 200, "\(set.text)")
        var rings = try #require(try Self.getJSON(server)["rings"] as? [[String: Any]])
        #expect(rings.first?["staleAfter"] as? Int == 600)
        #expect(rings.first?["updatedAt"] is String)

        let before = try server.http.send("GET", Self.board, body: "")
        for body in [#"{"rings":{"build":{"staleAfter":0}}}"#, #"{"rings":{"build":{"staleAfter":"soon"}}}"#] {
            let refused = try server.http.send("PATCH", Self.board, body: body)
            #expect([400, 422].contains(refused.status), "\(refused.text)")
            #expect(refused.text.contains(#""field":"rings.build.staleAfter""#), "\(refused.text)")
        }
        #expect(try server.http.send("GET", Self.board, body: "").text == before.text)

        let cleared = try server.http.send("PUT", Self.board + "/rings/build", body: #"{"staleAfter":null}"#)
        #expect(cleared.status == 200, "\(cleared.text)")
        rings = try #require(try Self.getJSON(server)["rings"] as? [[String: Any]])
        #expect(rings.first?["staleAfter"] == nil)
    }

    /// The write ticks are stored with the board: after a restart GET names the same last write, and the board
    /// is stale at once, as it was.
    @Test func aRestart_keepsWhenTheLastWriteCame() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-stale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let updatedAt: String
        do {
            let server = try TestServer(dataDirectory: directory)
            // Stopped, not shut down: that would delete the directory.
            defer { server.stop() }
            try Self.created(server)
            #expect(try server.http.send("PATCH", Self.board, body: #"{"rings":{"build":0.5}}"#).status == 200)
            updatedAt = try #require(try Self.getJSON(server)["updatedAt"] as? String)
        }
        let server = try TestServer(dataDirectory: directory)
        defer { server.shutdown() }
        #expect(try Self.getJSON(server)["updatedAt"] as? String == updatedAt)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port, path: "/ws?board=ops&format=json")
        try await viewer.waitUntil(timeout: 15, "the restored board to be stale") { messages in
            messages.compactMap(Self.entries).last?.rings.allSatisfy { $0.stale != nil } == true
        }
    }

    @Test func theConfig_declaresStaleAfterForBoardsAndRings_andAMistakeNamesItsKey() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        func load(board: String, ring: String) throws -> RingCastConfiguration {
            try #"{"boards":[{"name":"ops",\#(board)"rings":[{"id":"a"\#(ring)},{"id":"b"}]}]}"#.write(
                to: file, atomically: true, encoding: .utf8)
            return try RingCastConfiguration.load(file: file.path, environment: [:])
        }
        let loaded = try #require(try load(board: #""staleAfter":900,"#, ring: #","staleAfter":60"#).boards.first)
        #expect(loaded.staleAfter == 900)
        #expect(loaded.rings.map(\.staleAfter) == [60, nil])
        let template = #"{"boards":[{"name":"ops","template":"tasks","staleAfter":5}]}"#
        try template.write(to: file, atomically: true, encoding: .utf8)
        #expect(try RingCastConfiguration.load(file: file.path, environment: [:]).boards.first?.staleAfter == 5)
        for (board, ring, key) in [
            (#""staleAfter":0,"#, "", "boards[0].staleAfter"),
            ("", #","staleAfter":604801"#, "boards[0].rings[0].staleAfter"),
            ("", #","staleAfter":"1m""#, "boards[0].rings[0].staleAfter"),
        ] {
            do {
                _ = try load(board: board, ring: ring)
                Issue.record("\(board)\(ring) loaded")
            } catch let error as ConfigurationError {
                #expect(error.key == key, "\(board)\(ring): \(error)")
            }
        }
    }
}
