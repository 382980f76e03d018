import Foundation
import RingCastTransport
import Testing

/// Playlists in cluster mode, on a real Redis with real `ringcast serve --redis` nodes: a playlist written through
/// one node reaches the other, and their viewers switch board on the same tick with the same bytes.
@Suite("Playlists in a cluster", .serialized)
struct PlaylistClusterTests {
    @Test func viewersOnTwoNodes_switchOnTheSameTick_withTheSameBytes() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let board = try nodes[0].http.send(
            "PUT", "/api/v1/boards/ci", body: ##"{"template":"single","background":"#4533c9"}"##)
        try #require(board.status == 201, "\(board.text)\n\(cluster.logs)")
        // Node b checks the playlist's boards against what it serves: it must have heard of ci first.
        let heard = Date().addingTimeInterval(10)
        while try nodes[1].http.get("/api/v1/boards/ci").status != 200 {
            guard Date() < heard else { throw ViewerError.failed("node b never held board ci:\n\(cluster.logs)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let written = try nodes[1].http.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main","ci"],"seconds":3}"#)
        try #require(written.status == 201, "\(written.text)\n\(cluster.logs)")
        let etag = try #require(written.headers["etag"])
        // The other node holds it once Redis's notification is read.
        let deadline = Date().addingTimeInterval(10)
        while try nodes[0].http.get("/api/v1/playlists/wall").headers["etag"] != etag {
            guard Date() < deadline else { throw ViewerError.failed("node a never held the playlist:\n\(cluster.logs)") }
            try await Task.sleep(for: .milliseconds(20))
        }

        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = nodes.map { TestViewer(client: client, port: $0.port, path: "/ws?playlist=wall&format=json") }
        for viewer in viewers {
            try await viewer.waitForGreeting()
            let first = try #require(viewer.messages.first.flatMap(PlaylistLiveTests.Message.of))
            try #require(first.board == "main", "the playlist starts on its first board")
        }
        var switches: [(seq: UInt64?, bytes: [UInt8])] = []
        for viewer in viewers {
            let messages = try await PlaylistLiveTests.waitForSwitch(to: "ci", viewer, timeout: 20)
            let switched = try #require(PlaylistLiveTests.fromLayout(of: "ci", in: messages))
            let frame = switched[switched.startIndex + 1]
            switches.append((PlaylistLiveTests.Message.of(frame)?.seq, frame.bytes))
        }
        #expect(switches[0].seq != nil && switches[0].seq == switches[1].seq, "the same switch tick on both nodes")
        #expect(switches[0].bytes == switches[1].bytes, "the same first frame of ci on both nodes")

        // The splash that follows is the same on both nodes too, frame for frame (a node that skipped a tick under
        // load has no frame of it to compare).
        for viewer in viewers {
            try await viewer.waitForSeq(atLeast: (switches[0].seq ?? 0) + 30, timeout: 10)
        }
        let (common, mismatches) = compareBroadcasts(zip(nodes, viewers).map { ($0.name, $1.jsonBroadcast) })
        #expect(mismatches.isEmpty, "\(mismatches.count) frames differ: \(mismatches.prefix(3))")
        #expect(common.contains { $0.seq == switches[0].seq }, "both got the switch tick")
    }
}
