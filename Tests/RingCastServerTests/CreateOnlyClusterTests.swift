import Foundation
import Testing

/// `If-None-Match: *` in cluster mode, on a real Redis with real `ringcast serve --redis` nodes: a node that has not
/// heard of a board another node just created still cannot create it again (Redis's write script checks it with
/// the write, atomically).
@Suite("If-None-Match in a cluster", .serialized)
struct CreateOnlyClusterTests {
    @Test func twoNodesCreatingTheSameBoard_oneGets201_theOther412_andTheFirstStays() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let headers = ["Content-Type": "application/json", "If-None-Match": "*"]
        let first = try nodes[0].http.send(
            "PUT", "/api/v1/boards/ci", headers: headers, body: #"{"template":"single","title":"First"}"#)
        try #require(first.status == 201, "\(first.text)\n\(cluster.logs)")
        // At once, before node b need have heard of it.
        let second = try nodes[1].http.send(
            "PUT", "/api/v1/boards/ci", headers: headers, body: #"{"template":"tasks","title":"Second"}"#)
        #expect(second.status == 412 && second.error?.field == "If-None-Match", "\(second.text)\n\(cluster.logs)")
        let deadline = Date().addingTimeInterval(10)
        while try nodes[1].http.get("/api/v1/boards/ci").headers["etag"] != first.headers["etag"] {
            guard Date() < deadline else { throw ViewerError.failed("node b never held board ci:\n\(cluster.logs)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try nodes[1].http.get("/api/v1/boards/ci").text.contains(#""title":"First""#))

        // Playlists too, through the playlist script.
        let playlist = #"{"boards":["main"],"seconds":3}"#
        #expect(try nodes[0].http.send("PUT", "/api/v1/playlists/wall", headers: headers, body: playlist).status == 201)
        let again = try nodes[1].http.send("PUT", "/api/v1/playlists/wall", headers: headers, body: playlist)
        #expect(again.status == 412 && again.error?.field == "If-None-Match", "\(again.text)\n\(cluster.logs)")
    }
}
