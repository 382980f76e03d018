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
        // The push's tick, from the time GET says the last write came (the board may have gone stale before it, on
        // a loaded box that took over a second to greet the viewers).
        let reading = try nodes[0].http.get("/api/v1/boards/ops").text
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reading.utf8)) as? [String: Any])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let updatedAt = try #require((object["updatedAt"] as? String).flatMap(formatter.date(from:)), "\(reading)")
        let push = UInt64((updatedAt.timeIntervalSince1970 * 60).rounded())
        // Then a second without a write: the frame that makes both entries stale.
        for (viewer, binaryViewer) in zip(json, binary) {
            let messages = try await viewer.waitUntil(timeout: 15, "the board to go stale after the push") { messages in
                messages.contains {
                    ($0.frame?.seq ?? 0) >= push + 60
                        && String(decoding: $0.bytes, as: UTF8.self).contains(#""stale":"updated under 1 min ago""#)
                }
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
            // A resting board sends the stale frame alone, on the tick its text starts (a second after the push's). A
            // loaded node whose timer fires late composes it at a later tick instead (ticks are never composed after
            // the fact): so each node's first stale frame comes at least a second after the push, and shows the
            // same picture on both.
            func isStale(_ bytes: [UInt8]) -> Bool {
                format == "JSON" ? String(decoding: bytes, as: UTF8.self).contains("stale") : bytes[1] == 5
            }
            let firstStale = frames.map {
                $0.1.filter { $0.key.seq & 0xffff_ffff >= (push + 60) & 0xffff_ffff && isStale($0.value) }.min { $0.key < $1.key }
            }
            // (A viewer starved for a second may have had the push's frame replaced by the stale one: latest wins.)
            #expect(
                firstStale.allSatisfy { $0 != nil }, "\(format): a node's viewer got no stale frame: \(frames.map { $0.1.keys })")
            if format == "JSON" {
                let pictures = try firstStale.compactMap(\.self).map { stale in
                    try JSONDecoder().decode(TestFrame.self, from: Data(stale.value)).rings
                }
                #expect(Set(pictures.map { "\($0)" }).count == 1, "the nodes' stale frames show the same: \(pictures)")
            }
        }
    }
}
