import Foundation
import RingCastTransport
import Testing

extension ClusterTests {
    /// Push-to-create in a cluster (DESIGN §14, docs/CLUSTER.md): the board or ring a write creates travels with the
    /// write, so a board made through node b is the same board, revision and ETag on node a, and a ring grown on an
    /// existing board through b reaches a's viewers with the same bytes for every seq as b's.
    @Test func autoCreateThroughOneNode_buildsTheSameBoardAndFramesOnTheOther() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let config = try String(contentsOfFile: cluster.configFile, encoding: .utf8)
        try #require(config.contains(#""limits": {"#))
        try config.replacingOccurrences(of: #""limits": {"#, with: #""autoCreate": true, "limits": {"#)
            .write(toFile: cluster.configFile, atomically: true, encoding: .utf8)
        let nodes = try await cluster.start(["a", "b"])

        // A board that exists nowhere, made by a write to one of its rings through b.
        #expect(try nodes[0].http.get("/api/v1/boards/new").status == 404)
        let made = try nodes[1].http.send("PUT", "/api/v1/boards/new/rings/lint", body: #"{"progress":0.5}"#)
        try #require(made.status == 200 || made.status == 201, "\(made.status) \(made.text)")
        let answers = try await Self.poll(
            { try nodes.map { try $0.http.get("/api/v1/boards/new") } },
            until: { $0.allSatisfy { $0.status == 200 } && Self.sameETag($0) })
        #expect(answers.map(\.status) == [200, 200], "\(answers.map(\.text))\n\(cluster.logs)")
        #expect(Self.sameETag(answers), "ETags: \(answers.map { $0.headers["etag"] ?? "none" })")
        let boards = try answers.map { try $0.decode(ClusterBoard.self) }
        #expect(boards[0] == boards[1], "a: \(boards[0]) b: \(boards[1])")
        #expect(boards[0][ring: "lint"] == 0.5, "\(boards[0])")

        // A ring an existing board lacks, pushed through b while a and b each have a JSON and a binary viewer.
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let (json, binary) = try await Self.viewers(on: nodes, client: client)
        let grown = try nodes[1].http.send(
            "PUT", Self.board + "/rings/deploy", body: #"{"progress":0.7,"animation":{"curve":"linear","duration":1}}"#)
        try #require(grown.status == 200 || grown.status == 201, "\(grown.status) \(grown.text)")
        for (viewer, binaryViewer) in zip(json, binary) {
            let rest = try await Self.waitForRest(viewer, ["deploy": 0.7], cluster)
            try await binaryViewer.waitForSeq(atLeast: rest, binary: true)
        }
        for (format, frames) in [
            ("JSON", zip(nodes, json).map { ($0.name, $1.jsonBroadcast) }),
            ("binary", zip(nodes, binary).map { ($0.name, $1.binaryBroadcast) }),
        ] {
            let (common, mismatches) = compareBroadcasts(frames)
            #expect(mismatches.isEmpty, "\(format): \(mismatches.count) frames differ: \(mismatches.prefix(5))")
            #expect(!common.isEmpty, "\(format): no seq reached both nodes' viewers")
        }
        let after = try await Self.readBoards(on: nodes) { Self.sameETag($0) }
        #expect(Self.sameETag(after), "ETags: \(after.map { $0.headers["etag"] ?? "none" })")
        #expect(try after.map { try $0.decode(ClusterBoard.self)[ring: "deploy"] } == [0.7, 0.7])
    }
}
