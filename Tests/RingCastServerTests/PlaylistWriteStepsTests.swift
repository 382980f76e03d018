import Foundation
import RingCastCore
import RingCastTransport
import Testing

@testable import RingCastServer

/// Playlist writes take the board writes' steps with the same answers (`Pipeline`), in process through the pipeline
/// and store the server runs: the client's rate (`limits.writesPerMinute`, one bucket with its board writes), the
/// `Idempotency-Key` (replay, reuse, in flight, too long, freed by a refusal), and `/metrics`' playlist figures.
/// Redis's playlist script is checked in `PlaylistScriptTests`, a cluster in `PlaylistWriteStepsClusterTests`.
@Suite("Playlist write steps")
struct PlaylistWriteStepsTests {
    private static let json = ["Content-Type": "application/json"]
    private static let wall = #"{"boards":["main"],"seconds":3}"#

    private static func keyed(_ key: String) -> [String: String] {
        ["Content-Type": "application/json", "Idempotency-Key": key]
    }

    @Test func playlistWrites_countInTheClientsWriteRate_withBoardWrites() throws {
        let api = try TestApplication { $0.writesPerMinute = 2 }
        #expect(try api.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.5}}"#).status == 200)
        #expect(try api.send("PUT", "/api/v1/playlists/wall", body: Self.wall).status == 201)
        let limited = try api.send("PUT", "/api/v1/playlists/lobby", body: Self.wall)
        #expect(limited.status == 429 && limited.error?.code == "rate_limited", "\(limited.text)")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect(try api.get("/api/v1/playlists/lobby").status == 404, "a refusal changes nothing")
        #expect(try api.send("DELETE", "/api/v1/playlists/wall", headers: [:]).status == 429)
        #expect(try api.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.6}}"#).status == 429)
        // Another client has its own bucket.
        #expect(try api.send("DELETE", "/api/v1/playlists/wall", headers: [:], peer: "10.0.0.2").status == 204)
    }

    @Test func anIdempotencyKey_replaysTheFirstAnswer_andRefusesAnotherRequestUnderIt() throws {
        let api = try TestApplication()
        let first = try api.send("PUT", "/api/v1/playlists/wall", headers: Self.keyed("p-1"), body: Self.wall)
        #expect(first.status == 201, "\(first.text)")
        // Replaced since: the retry must not put the first definition back.
        let replaced = try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":9}"#)
        #expect(replaced.status == 200)
        let retry = try api.send("PUT", "/api/v1/playlists/wall", headers: Self.keyed("p-1"), body: Self.wall)
        #expect(retry.status == 201 && retry.body == first.body, "\(retry.text)")
        #expect(retry.headers["idempotent-replayed"] == "true")
        #expect(try api.get("/api/v1/playlists/wall").headers["etag"] == replaced.headers["etag"])

        let reused = try api.send(
            "PUT", "/api/v1/playlists/wall", headers: Self.keyed("p-1"), body: #"{"boards":["main"],"seconds":4}"#)
        #expect(reused.status == 422 && reused.error?.code == "idempotency_key_reused", "\(reused.text)")
        // A board write under a playlist's key is another request too.
        let board = try api.send("PATCH", "/api/v1/boards/main", headers: Self.keyed("p-1"), body: #"{"rings":{"move":0.5}}"#)
        #expect(board.status == 422 && board.error?.code == "idempotency_key_reused")

        let deleted = try api.send("DELETE", "/api/v1/playlists/wall", headers: ["Idempotency-Key": "d-1"])
        #expect(deleted.status == 204)
        let again = try api.send("DELETE", "/api/v1/playlists/wall", headers: ["Idempotency-Key": "d-1"])
        #expect(again.status == 204 && again.headers["idempotent-replayed"] == "true", "a retried delete is not 404")
    }

    @Test func aKeyWhoseWriteIsStillBeingStored_is409() throws {
        let api = try TestApplication()
        var first: HTTPResponse?
        api.pipeline.handle(api.request("PUT", "/api/v1/playlists/wall", headers: Self.keyed("p-2"), body: Self.wall)) {
            first = $0
        }
        #expect(first == nil, "handed to the store, not yet durable")
        let during = try api.send("PUT", "/api/v1/playlists/wall", headers: Self.keyed("p-2"), body: Self.wall)
        #expect(during.status == 409 && during.error?.code == "idempotency_key_in_flight", "\(during.text)")
        #expect(api.drain(until: { first != nil }), "the first write is answered once stored")
        #expect(try #require(first).status == 201)
    }

    @Test func aRefusedWrite_freesItsKey_andAnOverlongKeyIs400() throws {
        let api = try TestApplication()
        let refused = try api.send(
            "PUT", "/api/v1/playlists/wall", headers: Self.keyed("p-3"), body: #"{"boards":["nope"],"seconds":3}"#)
        #expect(refused.status == 422, "\(refused.text)")
        let applied = try api.send("PUT", "/api/v1/playlists/wall", headers: Self.keyed("p-3"), body: Self.wall)
        #expect(applied.status == 201 && applied.headers["idempotent-replayed"] == nil, "\(applied.text)")

        let long = ["Content-Type": "application/json", "Idempotency-Key": String(repeating: "k", count: 256)]
        let overlong = try api.send("PUT", "/api/v1/playlists/lobby", headers: long, body: Self.wall)
        #expect(overlong.status == 400 && overlong.error?.field == "Idempotency-Key", "\(overlong.text)")
        #expect(try api.get("/api/v1/playlists/lobby").status == 404)
    }

    @Test func metrics_countPlaylistsAndTheirWrites() throws {
        let api = try TestApplication()
        func value(_ name: String) throws -> Double? {
            let lines = try api.get("/metrics").text.split(separator: "\n")
            return lines.first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        #expect(try value("ringcast_playlists") == 0)
        #expect(try api.send("PUT", "/api/v1/playlists/wall", body: Self.wall).status == 201)
        #expect(try api.send("PUT", "/api/v1/playlists/lobby", body: Self.wall).status == 201)
        #expect(try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":5}"#).status == 200)
        #expect(try value("ringcast_playlists") == 2)
        #expect(try value(#"ringcast_playlist_writes_total{playlist="wall"}"#) == 2)
        #expect(try api.send("DELETE", "/api/v1/playlists/lobby", headers: [:]).status == 204)
        // Refusals and a write that changes nothing are not writes.
        #expect(try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":5}"#).status == 200)
        #expect(try api.send("PUT", "/api/v1/playlists/x", body: #"{"boards":["nope"],"seconds":5}"#).status == 422)
        #expect(try value("ringcast_playlists") == 1)
        #expect(try value(#"ringcast_playlist_writes_total{playlist="wall"}"#) == 2)
        #expect(try value(#"ringcast_playlist_writes_total{playlist="lobby"}"#) == 2)
    }
}
