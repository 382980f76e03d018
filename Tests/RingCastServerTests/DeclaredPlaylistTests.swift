import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// Playlists declared in the config file (`playlists`): checked at start as the API checks a playlist, each error
/// naming its key; served at start, anchored at the epoch, unless one of the name was written through the API.
@Suite("Declared playlists")
struct DeclaredPlaylistTests {
    private static let boards = #""boards": [{"name": "main", "template": "single"}, {"name": "ci", "template": "single"}]"#

    /// The configuration of a file holding `playlists` beside two boards, main and ci.
    private static func load(_ playlists: String) throws(ConfigurationError) -> RingCastConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try "{\(boards), \"playlists\": \(playlists)}".write(to: file, atomically: true, encoding: .utf8)
        } catch {
            Issue.record("cannot write \(file.path): \(error)")
        }
        return try RingCastConfiguration.load(file: file.path, environment: [:])
    }

    @Test func aDeclaredPlaylist_loadsAnchoredAtTheEpoch() throws {
        let configuration = try Self.load(#"[{"name": "wall", "boards": ["main", "ci"], "seconds": 30, "transition": "none"}]"#)
        #expect(
            configuration.playlists == [Playlist(name: "wall", boards: ["main", "ci"], seconds: 30, transition: nil, anchor: 0)])
    }

    @Test(arguments: [
        (#"[{"boards": ["main"], "seconds": 3}]"#, "playlists[0].name", "missing"),
        (#"[{"name": "Wall Screen", "boards": ["main"], "seconds": 3}]"#, "playlists[0].name", "not a playlist name"),
        (#"[{"name": "wall", "boards": ["main"], "seconds": 0}]"#, "playlists[0].seconds", "whole number"),
        (#"[{"name": "wall", "boards": ["main"], "seconds": 3, "speed": 2}]"#, "playlists[0].speed", "unknown"),
        (#"[{"name": "wall", "boards": [], "seconds": 3}]"#, "playlists[0].boards", "empty"),
        (
            #"[{"name": "wall", "boards": ["main", "sales"], "seconds": 3}]"#, "playlists[0].boards[1]",
            "no board named \"sales\""
        ),
        (#"[{"name": "wall", "boards": ["main", "main"], "seconds": 3}]"#, "playlists[0].boards[1]", "listed twice"),
        (
            #"[{"name": "wall", "boards": ["main"], "seconds": 3, "transition": "zoom"}]"#, "playlists[0].transition",
            "unknown transition"
        ),
        (
            #"[{"name": "wall", "boards": ["main"], "seconds": 3}, {"name": "wall", "boards": ["ci"], "seconds": 3}]"#,
            "playlists[1].name", "duplicate"
        ),
        (#"{"name": "wall"}"#, "playlists", "a list"),
    ])
    func aBadPlaylist_isRefusedAtStart_namingItsKey(playlists: String, key: String, says: String) {
        do {
            let configuration = try Self.load(playlists)
            Issue.record("loaded \(configuration.playlists)")
        } catch {
            #expect(error.key == key, "\(error)")
            #expect(error.message.contains(says), "\(error)")
        }
    }

    /// Through a real server and a restart on the same data directory (what only `buildServer` wires).
    @Test func aDeclaredPlaylist_isServed_oneWrittenThroughTheAPIWins_andADeletedOneComesBackAtStart() throws {
        let declared = Playlist(name: "wall", boards: ["main"], seconds: 30, transition: nil, anchor: 0)
        let adjust: (inout RingCastConfiguration) -> Void = { $0.playlists = [declared] }
        let first = try TestServer(adjust: adjust)
        defer { try? FileManager.default.removeItem(at: first.dataDirectory) }
        let shown = try first.http.get("/api/v1/playlists/wall")
        #expect(shown.status == 200 && shown.text.contains(#""anchor":0"#) && shown.text.contains(#""seconds":30"#))
        #expect(try first.http.get("/metrics").text.contains("ringcast_playlists 1"))
        let replaced = try first.http.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":9}"#)
        #expect(replaced.status == 200, "\(replaced.text)")
        first.stop()

        let second = try TestServer(dataDirectory: first.dataDirectory, adjust: adjust)
        let kept = try second.http.get("/api/v1/playlists/wall")
        #expect(kept.status == 200 && kept.text.contains(#""seconds":9"#), "the one written through the API wins: \(kept.text)")
        #expect(try second.http.send("DELETE", "/api/v1/playlists/wall", headers: [:], body: nil).status == 204)
        second.stop()

        let third = try TestServer(dataDirectory: first.dataDirectory, adjust: adjust)
        defer { third.stop() }
        let back = try third.http.get("/api/v1/playlists/wall")
        #expect(back.status == 200 && back.text.contains(#""seconds":30"#), "declared again at start: \(back.text)")
    }
}

/// A declared playlist in cluster mode: every node serves it from Redis, where a starting node writes it when Redis
/// holds none of the name; one written through the API stays.
@Suite("Declared playlists in a cluster", .serialized)
struct DeclaredPlaylistClusterTests {
    @Test func everyNodeServesTheDeclaredPlaylist_andAReplacementThroughTheAPIStaysWhenANodeJoins() async throws {
        let cluster = try TestCluster(playlists: #"[{"name": "wall", "boards": ["main"], "seconds": 30}]"#)
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        for node in nodes {
            let shown = try node.http.get("/api/v1/playlists/wall")
            #expect(shown.status == 200 && shown.text.contains(#""anchor":0"#), "\(node.name): \(shown.text)\n\(cluster.logs)")
        }
        let replaced = try nodes[0].http.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":9}"#)
        #expect(replaced.status == 200, "\(replaced.text)")
        let late = try await cluster.start("c")
        let kept = try late.http.get("/api/v1/playlists/wall")
        #expect(kept.status == 200 && kept.text.contains(#""seconds":9"#), "\(kept.text)\n\(cluster.logs)")
    }
}
