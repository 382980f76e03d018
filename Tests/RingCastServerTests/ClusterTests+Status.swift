import Foundation
import RingCastTransport
import Testing

extension ClusterTests {
    /// A status change and a value crossing thresholds, pushed on one node, give the same bytes for every seq on
    /// both nodes' viewers (DESIGN §13: threshold colours are a pure function of the stored state and the tick).
    @Test func statusAndThresholdColours_pushedOnOneNode_giveTheSameBytesOnBoth() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let made = try nodes[0].http.send(
            "PUT", "/api/v1/boards/ci",
            body: ##"""
                {"rings":[{"id":"build","status":"running"},
                 {"id":"coverage","thresholds":[[0,"#e74c3c"],[0.5,"#f1c40f"],[0.9,["#2ecc71","#27ae60"]]]}]}
                """##)
        try #require(made.status == 200 || made.status == 201, "\(made.status) \(made.text)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        var viewers: [TestViewer] = []
        for node in nodes {
            let viewer = TestViewer(client: client, port: node.port, path: "/ws?board=ci&format=json")
            try await viewer.waitUntil(timeout: 10, "the board on \(node.name)") {
                $0.contains { $0.frame?[ring: "coverage"] != nil }
            }
            viewers.append(viewer)
        }
        let pushed = try nodes[1].http.send(
            "PATCH", "/api/v1/boards/ci",
            body: #"{"rings":{"build":{"status":"failure"},"coverage":1},"animation":{"curve":"linear","duration":3}}"#)
        try #require(pushed.status == 200, "\(pushed.status) \(pushed.text)")
        for viewer in viewers {
            try await viewer.waitUntil(timeout: 15, "both rings at rest in their new colours") { messages in
                let picture = TestViewer.picture(of: messages.compactMap(\.frame))
                return picture["build"]?.tip.color == "#c0392bff" && picture["coverage"]?.tip.color == "#27ae60ff"
            }
        }
        let (common, mismatches) = compareBroadcasts(zip(nodes, viewers).map { ($0.name, $1.jsonBroadcast) })
        #expect(mismatches.isEmpty, "\(mismatches.count) frames differ: \(mismatches.prefix(3))")
        // 180 frames animate; a starved machine skips some on each viewer (each to its newest frame), so fewer reach
        // both: 21 did with two yes processes and three builds beside the test. Ten still compare the colours
        // mid-animation on both nodes.
        #expect(common.count >= 10, "only \(common.count) seqs reached both nodes' viewers")
    }
}
