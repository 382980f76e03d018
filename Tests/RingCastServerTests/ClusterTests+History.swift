import Foundation
import RingCastTransport
import Testing

extension ClusterTests {
    /// Issue 33 across nodes: pushes through either node give every ring the same history on both (the write script
    /// keeps it in Redis), the same eta text and sparkline in the same frames, and deleting a ring deletes it.
    @Test func history_pushedThroughEitherNode_readsTheSameOnBoth_andGoesWithItsRing() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let made = try nodes[0].http.send(
            "PUT", "/api/v1/boards/ci", body: #"{"rings":[{"id":"build","label":"eta","sparkline":true},{"id":"tests"}]}"#)
        try #require(made.status == 200 || made.status == 201, "\(made.status) \(made.text)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        var viewers: [TestViewer] = []
        for node in nodes {
            let viewer = TestViewer(client: client, port: node.port, path: "/ws?board=ci&format=json")
            try await viewer.waitUntil(timeout: 10, "the board on \(node.name)") {
                $0.contains { $0.frame?[ring: "build"] != nil }
            }
            viewers.append(viewer)
        }
        let values = [0.1, 0.25, 0.4, 0.4, 0.7]
        for (index, value) in values.enumerated() {
            let node = nodes[index % 2]
            let pushed = try node.http.send(
                "PUT", "/api/v1/boards/ci/rings/build", body: #"{"progress":\#(value),"status":"running"}"#)
            try #require(pushed.status == 200, "\(pushed.status) \(pushed.text)")
            try await Task.sleep(for: .milliseconds(120))
        }
        let until = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000
        let path = "/api/v1/boards/ci/rings/build/history?since=\(until - 7_200_000)&until=\(until)"
        let answers = try nodes.map { node in try node.http.get(path) }
        for answer in answers { try #require(answer.status == 200, "\(answer.status) \(answer.text)") }
        #expect(answers[0].text == answers[1].text, "both nodes read the same points")
        let points = try #require(
            (try JSONSerialization.jsonObject(with: Data(answers[0].text.utf8)) as? [String: Any])?["points"] as? [[String: Any]])
        #expect(points.map { $0["progress"] as? Double } == values, "every accepted target, in order: \(points)")
        #expect(points.allSatisfy { $0["status"] as? String == "running" })
        let times = points.compactMap { $0["t"] as? Int64 }
        #expect(times == times.sorted() && Set(times).count == times.count, "\(times)")
        let csv = try nodes[1].http.get(path, headers: ["Accept": "text/csv"])
        #expect(csv.text.split(separator: "\n").count == values.count + 1, "\(csv.text)")

        // Both viewers saw the same eta texts in the same frames.
        for viewer in viewers {
            try await viewer.waitUntil(timeout: 15, "an estimate on the eta label") { messages in
                TestViewer.picture(of: messages.compactMap(\.frame))["build"]?.label.hasSuffix("left") == true
            }
        }
        let broadcasts = zip(nodes, viewers).map { ($0.name, $1.jsonBroadcast) }
        let (common, mismatches) = compareBroadcasts(broadcasts)
        #expect(mismatches.isEmpty, "\(mismatches.count) frames differ: \(mismatches.prefix(3))")
        #expect(common.count > 10, "only \(common.count) seqs reached both nodes' viewers")
        let sparked = broadcasts[0].1.filter { common.contains($0.key) && String(decoding: $0.value, as: UTF8.self).contains(#""spark":["#) }
        #expect(!sparked.isEmpty, "the sparkline is among the frames both nodes sent alike")

        // A ring deleted through one node has no history on either, nor when it is added again.
        let deleted = try nodes[1].http.send("DELETE", "/api/v1/boards/ci/rings/build", body: nil)
        try #require(deleted.status == 204, "\(deleted.status) \(deleted.text)")
        let added = try nodes[0].http.send("POST", "/api/v1/boards/ci/rings", body: #"{"id":"build"}"#)
        try #require(added.status == 201, "\(added.status) \(added.text)")
        for node in nodes {
            let answer = try node.http.get(path)
            #expect(answer.status == 200 && answer.text.contains(#""kept":0"#), "\(node.name): \(answer.text)")
        }
    }
}
