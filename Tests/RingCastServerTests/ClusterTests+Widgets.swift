import Foundation
import RingCastTransport
import Testing

extension ClusterTests {
    /// A board of every widget kind, made on one node and pushed through another, gives the same bytes for
    /// every seq on both nodes' viewers, JSON and binary (DESIGN §12: widgets are stored and replayed as rings).
    @Test func aBoardOfEveryWidget_madeOnOneNode_pushedOnAnother_givesTheSameBytesOnBoth() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let made = try nodes[0].http.send(
            "PUT", "/api/v1/boards/wall",
            body: ##"""
                {"rings":[{"id":"build"},{"id":"passed","kind":"counter","value":99,"grouping":",","unit":"tests"},
                 {"id":"status","kind":"text","text":"Queued"},{"id":"load","kind":"indicator"},
                 {"id":"mood","kind":"gradient","colors":["#e74c3c","#f1c40f","#2ecc71"]}]}
                """##)
        try #require(made.status == 200 || made.status == 201, "\(made.status) \(made.text)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        var json: [TestViewer] = []
        var binary: [TestViewer] = []
        for node in nodes {
            let viewer = TestViewer(client: client, port: node.port, path: "/ws?board=wall&format=json")
            try await viewer.waitUntil(timeout: 10, "the wall on \(node.name)") {
                $0.contains { $0.frame?[ring: "passed"] != nil }
            }
            json.append(viewer)
            let binaryViewer = TestViewer(client: client, port: node.port, path: "/ws?board=wall&format=binary")
            try await binaryViewer.waitForGreeting(binary: true)
            binary.append(binaryViewer)
        }
        let pushed = try nodes[1].http.send(
            "PATCH", "/api/v1/boards/wall",
            body: ##"""
                {"rings":{"passed":{"value":1234},"status":{"text":"Deploying"},"load":0.73,
                 "mood":{"colors":["#2c3e50","#8e44ad","#3498db"]}},"animation":{"curve":"easeInOut","duration":1.5}}
                """##)
        try #require(pushed.status == 200, "\(pushed.status) \(pushed.text)")
        // Each node's viewers end on the board at rest; a node whose timer fired late may have skipped a tick
        // (the latest frame wins), so each node's binary viewer waits for its own node's last JSON frame.
        for (viewer, binaryViewer) in zip(json, binary) {
            let messages = try await viewer.waitUntil(timeout: 15, "the counter at rest") { messages in
                let picture = TestViewer.picture(of: messages.compactMap(\.frame))
                return picture["passed"]?.label == "1,234 tests" && picture["load"]?.label == "73 %"
            }
            let rest = try #require(messages.compactMap(\.frame).last?.seq)
            try await binaryViewer.waitForSeq(atLeast: rest, binary: true)
        }
        for (format, frames) in [
            ("JSON", zip(nodes, json).map { ($0.name, $1.jsonBroadcast) }),
            ("binary", zip(nodes, binary).map { ($0.name, $1.binaryBroadcast) }),
        ] {
            let (common, mismatches) = compareBroadcasts(frames)
            #expect(mismatches.isEmpty, "\(format): \(mismatches.count) frames differ: \(mismatches.prefix(3))")
            #expect(!common.isEmpty, "\(format): no seq reached both nodes' viewers")
        }
    }
}
