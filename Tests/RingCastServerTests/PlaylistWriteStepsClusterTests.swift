import Foundation
import Testing

/// Playlist writes in cluster mode take the board writes' steps in Redis's playlist script, on a real Redis with
/// real `ringcast serve --redis` nodes: a retry through another node with the same `Idempotency-Key` gets the first
/// answer and changes nothing, and the client's rate is limited.
@Suite("Playlist write steps in a cluster", .serialized)
struct PlaylistWriteStepsClusterTests {
    @Test func aRetryThroughAnotherNode_isReplayed_andTheRateIsLimited() async throws {
        let cluster = try TestCluster(writesPerMinute: 4)
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let keyed = ["Content-Type": "application/json", "Idempotency-Key": "wall-1"]
        let body = #"{"boards":["main"],"seconds":3}"#
        let first = try nodes[0].http.send("PUT", "/api/v1/playlists/wall", headers: keyed, body: body)
        try #require(first.status == 201, "\(first.text)\n\(cluster.logs)")
        let retry = try nodes[1].http.send("PUT", "/api/v1/playlists/wall", headers: keyed, body: body)
        #expect(retry.status == 201 && retry.headers["idempotent-replayed"] == "true", "\(retry.text)\n\(cluster.logs)")
        #expect(retry.headers["etag"] == first.headers["etag"])
        let reused = try nodes[1].http.send(
            "PUT", "/api/v1/playlists/wall", headers: keyed, body: #"{"boards":["main"],"seconds":4}"#)
        #expect(reused.status == 422 && reused.error?.code == "idempotency_key_reused", "\(reused.text)")

        // Four writes a minute from this client, replays and refusals included (as for a board): the fifth is limited.
        let another = try nodes[0].http.send(
            "PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":5}"#)
        #expect(another.status == 200, "\(another.text)")
        let limited = try nodes[1].http.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":6}"#)
        #expect(limited.status == 429 && limited.error?.code == "rate_limited", "\(limited.text)")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
    }
}
