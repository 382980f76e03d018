import Foundation
import RingCastTransport
import Testing

extension ClusterTests {
    /// Stale data in cluster mode (DESIGN §13): a board made on one node and pushed through another goes stale on
    /// the same tick with the same bytes on both, JSON and binary, since each node counts from the write's start
    /// tick, the same everywhere.
    @Test func aBoardGoingStale_givesTheSameBytesOnEveryNode() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let made = try nodes[0].http.send(
            "PUT", "/api/v1/boards/ops",
            body: #"{"staleAfter":1,"rings":[{"id":"build"},{"id":"tests","kind":"counter","value":3}]}"#)
        try #require(made.status == 201, "\(made.status) \(made.text)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        var json: [TestViewer] = []
        var binary: [TestViewer] = []
        for node in nodes {
            let viewer = TestViewer(client: client, port: node.port, path: "/ws?board=ops&format=json")
            try await viewer.waitForGreeting()
            json.append(viewer)
            let binaryViewer = TestViewer(client: client, port: node.port, path: "/ws?board=ops&format=binary")
            try await binaryViewer.waitForGreeting(binary: true)
            binary.append(binaryViewer)
        }
        let pushed = try nodes[1].http.send(
            "PATCH", "/api/v1/boards/ops", body: #"{"rings":{"build":0.5},"animation":"none"}"#)
        try #require(pushed.status == 200, "\(pushed.status) \(pushed.text)")
        // The push's frame, then a second without a write: the frame that makes both entries stale.
        for (viewer, binaryViewer) in zip(json, binary) {
            let messages = try await viewer.waitUntil(timeout: 15, "the board to go stale") { messages in
                messages.contains { String(decoding: $0.bytes, as: UTF8.self).contains(#""stale":"updated under 1 min ago""#) }
            }
            let stale = try #require(messages.compactMap(\.frame).last?.seq)
            try await binaryViewer.waitForSeq(atLeast: stale, binary: true)
        }
        for (format, frames) in [
            ("JSON", zip(nodes, json).map { ($0.name, $1.jsonBroadcast) }),
            ("binary", zip(nodes, binary).map { ($0.name, $1.binaryBroadcast) }),
        ] {
            let (_, mismatches) = compareBroadcasts(frames)
            #expect(mismatches.isEmpty, "\(format): \(mismatches.count) frames differ: \(mismatches.prefix(3))")
            // A resting board sends the stale frame alone: both nodes' viewers got it, at the same seq. (As a delta or a
            // keyframe: a node that met a write late reloads the board and sends keyframes for a while, the same picture.)
            func staleSeqs(_ frames: [FrameKey: [UInt8]]) -> Set<UInt64> {
                Set(
                    frames.filter {
                        format == "JSON" ? String(decoding: $0.value, as: UTF8.self).contains("stale") : $0.value[1] == 5
                    }
                    .map(\.key.seq))
            }
            let staleSeqs = frames.map { staleSeqs($0.1) }.reduce(staleSeqs(frames[0].1)) { $0.intersection($1) }
            #expect(!staleSeqs.isEmpty, "\(format): no stale frame reached both nodes' viewers")
        }
    }
}
