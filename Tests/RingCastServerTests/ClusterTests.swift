import Foundation
import RingCastCluster
import RingCastCore
import RingCastTransport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Cluster mode (issue 12, docs/CLUSTER.md): `ringcast serve --redis` processes on one real
/// `redis-server`. Each test starts its own Redis and nodes on fresh loopback ports and temporary
/// directories, and stops them all when it ends, failed or not.
@Suite("Cluster on Redis", .serialized)
struct ClusterTests {
    static let board = "/api/v1/boards/main"

    @Test func threeNodes_aPushReachesViewersOnEveryNode_withTheSameBytesForEverySeq_jsonAndBinary() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b", "c"])
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let (json, binary) = try await Self.viewers(on: nodes, client: client)

        let first = try nodes[0].http.send(
            "PATCH", Self.board,
            body: #"{"rings":{"move":0.8,"exercise":1.2,"task1":0.5},"animation":{"curve":"linear","duration":1.5}}"#)
        try #require(first.status == 200, "push on a: \(first.status) \(first.text)")
        // A second push, through another node, while the first animates.
        try await json[0].waitUntil(timeout: 10, "the first push's frames") { $0.compactMap(\.frame).count >= 20 }
        let second = try nodes[2].http.send(
            "PATCH", Self.board, body: #"{"rings":{"exercise":0.4,"task2":0.7},"animation":{"curve":"easeInOut","duration":1}}"#)
        try #require(second.status == 200, "push on c: \(second.status) \(second.text)")

        let targets = ["move": 0.8, "exercise": 0.4, "task1": 0.5, "task2": 0.7]
        // Each viewer ends on the board's state; a node whose timer fired late may have skipped a tick (the
        // latest frame wins), so each node's binary viewer waits for its own node's last frame.
        for (viewer, binaryViewer) in zip(json, binary) {
            let rest = try await Self.waitForRest(viewer, targets, cluster)
            try await binaryViewer.waitForSeq(atLeast: rest, binary: true)
        }

        for (format, frames) in [
            ("JSON", zip(nodes, json).map { ($0.name, $1.jsonBroadcast) }),
            ("binary", zip(nodes, binary).map { ($0.name, $1.binaryBroadcast) }),
        ] {
            let (common, mismatches) = compareBroadcasts(frames)
            #expect(mismatches.isEmpty, "\(format): \(mismatches.count) frames differ: \(mismatches.prefix(5))")
            #expect(!common.isEmpty, "\(format): no seq reached every node's viewer")
        }
        // Seqs a viewer lacks, while the board moved, are ticks its node skipped (a late timer or a slow viewer).
        for (node, viewers) in zip(nodes, zip(json, binary)) {
            try Self.expectNoGapsBeyondSkipped(node, [viewers.0.jsonBroadcast, viewers.1.binaryBroadcast])
        }
    }

    /// The board has a long history first: 1,010 writes through both nodes, so Redis holds a snapshot (written by the
    /// node that accepted revision 1,000, or by the one that accepted the last when the board came to rest) and a
    /// stream trimmed to what follows it. The joining node starts from that snapshot with the changes after it
    /// replayed (issue 32).
    @Test func aNodeStartedMidAnimation_sendsFromItsFirstFrameTheSameBytesAsTheOthers() async throws {
        let cluster = try TestCluster(streamLength: 10)
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let ports = nodes.map(\.port)
        // Blocking: on a thread of its own, not one of the few the tests' async work shares.
        let refused = try await onOwnThread { () throws -> String? in
            let writers = try ports.map { try KeepAliveConnection(port: $0) }
            for index in 0..<1_010 {
                let value = Double(index % 100) / 100
                let answer = try writers[index % 2].send(
                    "PATCH", Self.board, body: #"{"rings":{"stand":\#(value)},"animation":"none"}"#)
                if answer.status != 200 { return "write \(index): \(answer.status) \(answer.text)" }
            }
            return nil
        }
        try #require(refused == nil, "\(refused ?? "")")
        let redis = try RedisConnection(endpoint: cluster.redis.endpoint)
        let covered = try await Self.poll({ try redis.readSnapshot(board: "main")?.covers ?? 0 }, until: { $0 >= 1_000 })
        try #require(covered >= 1_000, "no snapshot of revision 1,000 or later in Redis after 1,010 writes")
        let kept = try redis.command(["XLEN", "rc:{main}:stream"]).integer ?? 0
        // MINID ~ trims whole nodes of the stream (100 entries): what the snapshot covers goes, but for one node.
        #expect(kept < 200, "the stream kept \(kept) entries though a snapshot covers revision \(covered)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let (json, binary) = try await Self.viewers(on: nodes, client: client)

        let push = try nodes[0].http.send(
            "PATCH", Self.board,
            body: #"{"rings":{"move":0.9,"exercise":1.4,"stand":0.3},"animation":{"curve":"linear","duration":3}}"#)
        try #require(push.status == 200, "push on a: \(push.status) \(push.text)")
        // Half a second into the animation, a third node starts and a viewer joins it at once.
        try await json[0].waitUntil(timeout: 10, "half a second of frames") { $0.compactMap(\.frame).count >= 31 }
        let late = try await cluster.start("c")
        let (lateJSON, lateBinary) = try await Self.viewers(on: late, client: client)

        // Every viewer ends on the board's state (each node's last frame may be a tick apart: a late timer
        // publishes the current tick).
        var end: UInt64 = .max
        for (viewer, binaryViewer) in zip(json + [lateJSON], binary + [lateBinary]) {
            let rest = try await Self.waitForRest(viewer, ["move": 0.9, "exercise": 1.4, "stand": 0.3], cluster)
            try await binaryViewer.waitForSeq(atLeast: rest, binary: true)
            end = min(end, rest)
        }

        // Its first frame, the joining viewer's keyframe, shows what the others show at that tick.
        let greeting = try #require(lateJSON.jsonGreeting)
        #expect(greeting.seq < end, "node c joined after the animation ended: the test proves nothing")
        let lateRings = Dictionary(greeting.rings.map { ($0.id, $0) }) { first, _ in first }
        let earlyPictures = json.compactMap { $0.jsonPicture(at: greeting.seq) }
        #expect(!earlyPictures.isEmpty, "no viewer on a or b got seq \(greeting.seq)")
        for picture in earlyPictures {
            #expect(picture == lateRings, "seq \(greeting.seq): c's keyframe \(lateRings), a or b show \(picture)")
        }
        let binaryGreeting = try #require(lateBinary.binaryFrames.first?.frame)
        var lateValues: [Int: BinaryFrame.RingValues] = [:]
        BinaryFrame.apply(binaryGreeting, to: &lateValues)
        let earlyValues = binary.compactMap { $0.binaryPicture(at: binaryGreeting.seq) }
        #expect(!earlyValues.isEmpty, "no binary viewer on a or b got seq \(binaryGreeting.seq)")
        for values in earlyValues {
            #expect(values == lateValues, "binary seq \(binaryGreeting.seq): c's keyframe differs from a's or b's picture")
        }

        // Every frame after it: byte for byte the others' frame of the same seq.
        for (format, lateFrames, earlyFrames) in [
            ("JSON", lateJSON.jsonBroadcast, json.map(\.jsonBroadcast)),
            ("binary", lateBinary.binaryBroadcast, binary.map(\.binaryBroadcast)),
        ] {
            var compared = 0
            var mismatches: [String] = []
            for (key, bytes) in lateFrames.sorted(by: { $0.key < $1.key }) {
                let others = earlyFrames.compactMap { $0[key] }
                if !others.isEmpty { compared += 1 }
                if others.contains(where: { $0 != bytes }) {
                    mismatches.append("seq \(key): c sent \(String(decoding: bytes.prefix(200), as: UTF8.self))")
                }
            }
            #expect(mismatches.isEmpty, "\(format): \(mismatches.count) of c's frames differ: \(mismatches.prefix(3))")
            // c starts about 0.5 s into a 3 s animation: over a second of frames is left.
            #expect(compared >= 30, "\(format): only \(compared) of c's frames compared")
        }
    }

    @Test func idempotencyKeyIfMatchETagAndTheRateLimit_holdAcrossNodes() async throws {
        do {
            let cluster = try TestCluster()
            defer { cluster.stop() }
            let nodes = try await cluster.start(["a", "b", "c"])
            let (a, b, c) = (nodes[0].http, nodes[1].http, nodes[2].http)
            // The same revision has the same ETag on every node, before any write too.
            let initial = try await Self.readBoards(on: nodes) { Self.sameETag($0) }
            #expect(Self.sameETag(initial), "initial ETags: \(initial.map { $0.headers["etag"] ?? "none" })")

            let body = #"{"rings":{"move":0.4},"animation":"none"}"#
            let keyed = ["Content-Type": "application/json", "Idempotency-Key": "cluster-key-1"]
            let first = try a.send("PATCH", Self.board, headers: keyed, body: body)
            try #require(first.status == 200, "\(first.status) \(first.text)")
            let etag1 = try #require(first.headers["etag"])
            let settled = try await Self.readBoards(on: nodes) { $0.allSatisfy { $0.headers["etag"] == etag1 } }
            #expect(settled.allSatisfy { $0.headers["etag"] == etag1 }, "\(settled.map { $0.headers["etag"] ?? "none" })")
            let revision1 = try settled[0].decode(ClusterBoard.self).revision

            for (name, http) in [("b", b), ("c", c)] {
                let replay = try http.send("PATCH", Self.board, headers: keyed, body: body)
                #expect(
                    replay.status == first.status && replay.body == first.body,
                    "replay on \(name): \(replay.status) \(replay.text); first answer: \(first.text)")
                #expect(replay.headers["idempotent-replayed"] == "true", "replay on \(name): \(replay.headers)")
            }
            let reused = try c.send("PATCH", Self.board, headers: keyed, body: #"{"rings":{"move":0.5},"animation":"none"}"#)
            #expect(reused.status == 422 && reused.error?.code == "idempotency_key_reused", "\(reused.status) \(reused.text)")

            // Nothing changed: the first answer's ETag is still the board's in Redis, where If-Match is checked.
            let second = try a.send(
                "PATCH", Self.board, headers: ["Content-Type": "application/json", "If-Match": etag1],
                body: #"{"rings":{"exercise":0.6},"animation":"none"}"#)
            try #require(
                second.status == 200, "If-Match with the current ETag after the replays: \(second.status) \(second.text)")
            let etag2 = try #require(second.headers["etag"])
            #expect(etag2 != etag1)
            let afterSecond = try await Self.readBoards(on: nodes) { $0.allSatisfy { $0.headers["etag"] == etag2 } }
            for (node, answer) in zip(nodes, afterSecond) {
                let state = try answer.decode(ClusterBoard.self)
                #expect(answer.headers["etag"] == etag2, "node \(node.name): ETag \(answer.headers["etag"] ?? "none")")
                #expect(state.revision == revision1 + 1, "node \(node.name): revision \(state.revision), first \(revision1)")
                #expect(state[ring: "move"] == 0.4 && state[ring: "exercise"] == 0.6, "node \(node.name): \(state)")
            }

            // A stale ETag on another node: 412, and nothing changes.
            for (name, http) in [("b", b), ("c", c)] {
                let stale = try http.send(
                    "PATCH", Self.board, headers: ["Content-Type": "application/json", "If-Match": etag1],
                    body: #"{"rings":{"stand":0.9},"animation":"none"}"#)
                #expect(
                    stale.status == 412 && stale.error?.code == "precondition_failed",
                    "stale If-Match on \(name): \(stale.status) \(stale.text)")
            }
            let third = try c.send(
                "PATCH", Self.board, headers: ["Content-Type": "application/json", "If-Match": etag2],
                body: #"{"rings":{"stand":0.2},"animation":"none"}"#)
            #expect(third.status == 200, "If-Match with the current ETag after the 412s: \(third.status) \(third.text)")
            let etag3 = try #require(third.headers["etag"])
            let afterThird = try await Self.readBoards(on: nodes) { $0.allSatisfy { $0.headers["etag"] == etag3 } }
            for (node, answer) in zip(nodes, afterThird) {
                let state = try answer.decode(ClusterBoard.self)
                #expect(answer.headers["etag"] == etag3, "node \(node.name): ETag \(answer.headers["etag"] ?? "none")")
                #expect(state.revision == revision1 + 2 && state[ring: "stand"] == 0.2, "node \(node.name): \(state)")
            }

            // A write that changes nothing (no countdown runs to cancel) never reaches Redis: its If-Match is
            // still checked.
            let noChange = try b.send("DELETE", "\(Self.board)/countdown", headers: ["If-Match": etag2], body: nil)
            #expect(noChange.status == 412, "a no-op write with a stale ETag: \(noChange.status) \(noChange.text)")
            let current = try b.send("DELETE", "\(Self.board)/countdown", headers: ["If-Match": etag3], body: nil)
            #expect(current.status == 200, "a no-op write with the current ETag: \(current.status) \(current.text)")
            #expect(current.headers["etag"] == etag3, "and the board is where it was")
        }

        // The rate limit is one bucket per client and board for the whole cluster.
        do {
            let cluster = try TestCluster(writesPerMinute: 6)
            defer { cluster.stop() }
            let nodes = try await cluster.start(["a", "b", "c"])
            for index in 1...6 {
                let node = nodes[index % 3]
                let response = try node.http.send(
                    "PATCH", Self.board, body: #"{"rings":{"move":\#(Double(index) / 10)},"animation":"none"}"#)
                #expect(response.status == 200, "write \(index) on \(node.name): \(response.status) \(response.text)")
            }
            for index in 7...9 {
                let node = nodes[index % 3]
                let response = try node.http.send(
                    "PATCH", Self.board, body: #"{"rings":{"move":\#(Double(index) / 10)},"animation":"none"}"#)
                #expect(response.status == 429, "write \(index) on \(node.name): \(response.status) \(response.text)")
                let retryAfter = response.headers["retry-after"].flatMap { Int($0) }
                #expect(
                    retryAfter.map { $0 > 0 } == true, "write \(index): Retry-After \(response.headers["retry-after"] ?? "none")")
            }
            let answers = try await Self.readBoards(on: nodes) { answers in
                answers.allSatisfy { (try? $0.decode(ClusterBoard.self))?[ring: "move"] == 0.6 } && Self.sameETag(answers)
            }
            for (node, answer) in zip(nodes, answers) {
                #expect(try answer.decode(ClusterBoard.self)[ring: "move"] == 0.6, "node \(node.name): \(answer.text)")
            }
        }
    }

    @Test func redisKilledDuringEightPushers_andRestartedOnItsAOF_keepsEveryAcknowledgedValue_onEveryNode() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b", "c"])
        let pushers = Pushers(ports: nodes.map(\.port))
        defer { pushers.stopSoon() }

        pushers.start(from: [Int](repeating: 0, count: Pushers.count))
        try await pushers.waitUntil("every pusher had 50 writes acknowledged") { $0.allSatisfy { $0.acks >= 50 } }
        cluster.redis.kill()
        let failuresAtKill = pushers.logs.map(\.failures)
        try await pushers.waitUntil("every pusher was refused after the kill") { logs in
            zip(logs, failuresAtKill).allSatisfy { $0.failures > $1 }
        }
        try await pushers.stop()
        let atKill = pushers.logs

        // Redis back on its AOF: every acknowledged value is there, on every node.
        try cluster.redis.start()
        try await Self.expectConverged(nodes, to: atKill, "after the restart", cluster)

        // And writes go on through every node.
        pushers.start(from: atKill.map { $0.sent + 1 })
        do {
            try await pushers.waitUntil("every pusher had 5 more writes acknowledged") { logs in
                zip(logs, atKill).allSatisfy { $0.acks >= $1.acks + 5 }
            }
        } catch {
            Issue.record("\(error)\nnodes: \(cluster.logs)")
            throw error
        }
        try await pushers.stop()
        try await Self.expectConverged(nodes, to: pushers.logs, "after the second burst", cluster)
    }

    @Test func redisStopped_writesAndReadyzAre503OnEveryNode_animationsGoOn_andWhenItIsBack_everyNodeCatchesUp() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b", "c"])
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = nodes.map { TestViewer(client: client, port: $0.port) }
        for viewer in viewers { try await viewer.waitForGreeting() }
        for node in nodes {
            let ready = try node.http.get("/readyz")
            #expect(ready.status == 200, "node \(node.name) before: \(ready.text)")
        }
        let push = try nodes[0].http.send(
            "PATCH", Self.board, body: #"{"rings":{"move":0.9},"animation":{"curve":"linear","duration":10}}"#)
        try #require(push.status == 200, "\(push.status) \(push.text)")
        for viewer in viewers {
            try await viewer.waitUntil(timeout: 10, "the animation") { $0.compactMap(\.frame).count >= 5 }
        }

        cluster.redis.terminate()
        let write = #"{"rings":{"stand":0.5},"animation":"none"}"#
        for node in nodes {
            let refused = try await Self.poll(
                { try node.http.send("PATCH", Self.board, body: write) }, until: { $0.status == 503 })
            #expect(
                refused.status == 503 && refused.error?.code == "storage_unavailable",
                "node \(node.name) without Redis: \(refused.status) \(refused.text)")
            let ready = try await Self.poll({ try node.http.get("/readyz") }, until: { $0.status == 503 })
            #expect(
                ready.status == 503 && ready.text.contains("Redis"), "node \(node.name) /readyz: \(ready.status) \(ready.text)")
            let read = try node.http.get(Self.board)
            #expect(read.status == 200, "node \(node.name) read without Redis: \(read.status)")
            #expect((try? read.decode(ClusterBoard.self))?[ring: "stand"] != 0.5, "node \(node.name): \(read.text)")
        }
        // The animation goes on from each node's own state.
        for (node, viewer) in zip(nodes, viewers) {
            let last = try #require(viewer.lastSeq, "node \(node.name)'s viewer has no frame")
            try await viewer.waitForSeq(atLeast: last + 20, timeout: 5)
        }

        try cluster.redis.start()
        for node in nodes {
            let ready = try await Self.poll(timeout: 20, { try node.http.get("/readyz") }, until: { $0.status == 200 })
            #expect(ready.status == 200, "node \(node.name) after Redis came back: \(ready.status) \(ready.text)")
        }
        let accepted = try nodes[1].http.send("PATCH", Self.board, body: write)
        try #require(accepted.status == 200, "write after Redis came back: \(accepted.status) \(accepted.text)")
        let etag = accepted.headers["etag"]
        let answers = try await Self.readBoards(on: nodes) { $0.allSatisfy { $0.headers["etag"] == etag } }
        for (node, answer) in zip(nodes, answers) {
            let state = try answer.decode(ClusterBoard.self)
            #expect(
                answer.headers["etag"] == etag, "node \(node.name): ETag \(answer.headers["etag"] ?? "none"), want \(etag ?? "")")
            #expect(state[ring: "stand"] == 0.5 && state[ring: "move"] == 0.9, "node \(node.name): \(state)")
        }
    }

    @Test func redisRestartedWithoutItsData_everyNodeFollowsIt_andNoOldETagMatches() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        var tags: [String] = []
        for value in [0.1, 0.2, 0.3] {
            let answer = try nodes[0].http.send("PATCH", Self.board, body: #"{"rings":{"move":\#(value)},"animation":"none"}"#)
            try #require(answer.status == 200, "\(answer.status) \(answer.text)")
            tags.append(try #require(answer.headers["etag"]))
        }
        _ = try await Self.readBoards(on: nodes) { Self.sameETag($0) && $0.first?.headers["etag"] == tags.last }

        try cluster.redis.restartEmpty()
        // Every node notices (it subscribes again), follows Redis, and tags with the cluster's new id.
        let fresh = try await Self.readBoards(on: nodes, timeout: 20) { answers in
            Self.sameETag(answers) && answers.allSatisfy { (try? $0.decode(ClusterBoard.self))?.revision == 0 }
        }
        #expect(fresh.allSatisfy { (try? $0.decode(ClusterBoard.self))?[ring: "move"] == nil }, "the lost value is gone")
        for node in nodes { _ = try await Self.poll({ try node.http.get("/readyz") }, until: { $0.status == 200 }) }
        let written = try nodes[1].http.send("PATCH", Self.board, body: #"{"rings":{"move":0.7},"animation":"none"}"#)
        try #require(written.status == 200, "\(written.status) \(written.text)")
        // Revision 1 again, but not the state the first ETag named: that tag must not match.
        for node in nodes {
            let stale = try node.http.send(
                "PATCH", Self.board, headers: ["Content-Type": "application/json", "If-Match": tags[0]],
                body: #"{"rings":{"move":0.9}}"#)
            #expect(stale.status == 412, "node \(node.name): If-Match \(tags[0]) after the loss: \(stale.status) \(stale.text)")
        }
        let after = try await Self.readBoards(on: nodes) { answers in
            Self.sameETag(answers) && answers.allSatisfy { (try? $0.decode(ClusterBoard.self))?[ring: "move"] == 0.7 }
        }
        #expect(!after.contains { $0.headers["etag"] == tags[0] }, "\(after.map { $0.headers["etag"] ?? "none" })")
    }

    @Test func aNodeKilledMidAnimation_theOtherNodesViewersSeeNoGap() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b", "c"])
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = nodes.prefix(2).map { TestViewer(client: client, port: $0.port) }
        for viewer in viewers { try await viewer.waitForGreeting() }

        // The node that took the push dies half a second into its animation.
        let push = try nodes[2].http.send(
            "PATCH", Self.board, body: #"{"rings":{"move":1,"stand":0.25},"animation":{"curve":"linear","duration":2.5}}"#)
        try #require(push.status == 200, "\(push.status) \(push.text)")
        try await viewers[0].waitUntil(timeout: 10, "half a second of frames") { $0.compactMap(\.frame).count >= 31 }
        let killedAt = try #require(viewers[0].lastSeq)
        try await nodes[2].kill()

        for viewer in viewers { _ = try await Self.waitForRest(viewer, ["move": 1, "stand": 0.25], cluster) }
        for (node, viewer) in zip(nodes, viewers) {
            let seqs = Set(viewer.jsonBroadcast.keys.map(\.seq))
            let first = try #require(seqs.min())
            let last = try #require(seqs.max())
            #expect(last >= killedAt + 60, "node \(node.name): frames stopped at \(last), the kill was at \(killedAt)")
            let window = max(first, killedAt - 30)...min(last, killedAt + 90)
            let missing = window.filter { !seqs.contains($0) }
            // Only ticks its own node skipped (a late timer, a slow viewer), never more.
            let skipped = try Self.skippedTicks(on: node)
            #expect(
                missing.count <= skipped,
                "node \(node.name)'s viewer missed seqs \(missing) around the kill at \(killedAt); the node skipped \(skipped)")
        }
        let (_, mismatches) = compareBroadcasts(zip(nodes, viewers).map { ($0.name, $1.jsonBroadcast) })
        #expect(mismatches.isEmpty, "\(mismatches.count) frames differ between a and b: \(mismatches.prefix(3))")
    }

    /// Two writes to different rings 20 ms apart through one node, with the 50 ms lead: the second is accepted
    /// while the first is still ahead of its start tick. Before the Animator applied nothing before its tick,
    /// viewers on other nodes ended on the wrong state in 7 rounds of 10.
    @Test func twoWritesTwentyMillisecondsApart_tenRounds_everyViewerOnEveryNodeEndsOnTheBoardsState() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b", "c"])
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = nodes.map { TestViewer(client: client, port: $0.port) }
        for viewer in viewers { try await viewer.waitForGreeting() }

        for round in 1...10 {
            let move = Double(round) / 20
            let exercise = 1 - Double(round) / 20
            let first = try nodes[0].http.send(
                "PATCH", Self.board, body: #"{"rings":{"move":\#(move)},"animation":{"curve":"easeOut","duration":0.2}}"#)
            try #require(first.status == 200, "round \(round), first write: \(first.status) \(first.text)")
            try await Task.sleep(for: .milliseconds(20))
            let second = try nodes[0].http.send(
                "PUT", "\(Self.board)/rings/exercise", body: #"{"progress":\#(exercise),"animation":{"spring":{"duration":0.3}}}"#
            )
            try #require(second.status == 200, "round \(round), second write: \(second.status) \(second.text)")
            let state = try await Self.readBoards(on: nodes) { answers in
                Self.sameETag(answers) && answers.allSatisfy { $0.headers["etag"] == second.headers["etag"] }
            }
            for (node, answer) in zip(nodes, state) {
                let board = try answer.decode(ClusterBoard.self)
                #expect(
                    board[ring: "move"] == move && board[ring: "exercise"] == exercise,
                    "round \(round), node \(node.name): \(board)")
            }
            for viewer in viewers {
                _ = try await Self.waitForRest(viewer, ["move": move, "exercise": exercise], cluster)
            }
        }
        // The same bytes for every seq, unless a starved node got an update after its start tick: then, as
        // documented, its frames from that tick to its reload differ, and it counts the late update.
        let (_, mismatches) = compareBroadcasts(zip(nodes, viewers).map { ($0.name, $1.jsonBroadcast) })
        let late = try nodes.map { try Self.metric("ringcast_cluster_late_updates_total", on: $0) }
        if late.allSatisfy({ $0 == 0 }) {
            #expect(mismatches.isEmpty, "\(mismatches.count) frames differ: \(mismatches.prefix(3))")
        }
    }

    /// Eight pushers for eight seconds through three nodes: every seq that viewers on two nodes both received
    /// is the same bytes, JSON and binary, and every viewer ends on the board's state.
    /// The lead is 250 ms here: the sameness of the bytes rests on every node having each update before its start
    /// tick, and eight pushers, three nodes and Redis starve a 2-core machine past 50 ms now and then (a late update
    /// is counted and reloaded, and its node's frames differ until then: docs/CLUSTER.md).
    @Test func eightPushersForEightSeconds_everySeqSeenOnTwoNodesIsByteIdentical() async throws {
        let cluster = try TestCluster(leadMilliseconds: 250)
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b", "c"])
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let (json, binary) = try await Self.viewers(on: nodes, client: client)
        let pushers = Pushers(ports: nodes.map(\.port))
        defer { pushers.stopSoon() }
        pushers.start(from: [Int](repeating: 0, count: Pushers.count))
        try await Task.sleep(for: .seconds(8))
        try await pushers.stop()
        try await Self.expectConverged(nodes, to: pushers.logs, "after eight seconds of pushers", cluster)
        #expect(pushers.logs.allSatisfy { $0.acks > 0 }, "\(pushers.logs)")

        // Every viewer ends on the board's state.
        let board = try nodes[0].http.get(Self.board).decode(ClusterBoard.self)
        let targets = Dictionary(
            uniqueKeysWithValues: Pushers.rings.compactMap { ring in board[ring: ring].map { (ring, $0) } })
        for (viewer, binaryViewer) in zip(json, binary) {
            let rest = try await Self.waitForRest(viewer, targets, cluster)
            try await binaryViewer.waitForSeq(atLeast: rest, binary: true)
        }
        let counters = try Self.clusterMetrics(nodes)
        // A late update (an update that reached a node after its start tick: counted, and the node reloads) makes
        // that node's frames differ until its reload, as documented; 250 ms of lead makes it rare even here.
        let late = try nodes.map { try Self.metric("ringcast_cluster_late_updates_total", on: $0) }.reduce(0, +)
        // Three nodes took writes to one board at once for eight seconds: some met another node's first and were
        // computed again, and /metrics says how many (docs/CLUSTER.md, "Writes in a row").
        let again = try nodes.map { try Self.metric("ringcast_cluster_writes_again_total", on: $0) }.reduce(0, +)
        #expect(again > 0, "\(counters)")
        for (format, frames) in [
            ("JSON", zip(nodes, json).map { ($0.name, $1.jsonBroadcast) }),
            ("binary", zip(nodes, binary).map { ($0.name, $1.binaryBroadcast) }),
        ] {
            let (common, mismatches) = compareBroadcasts(frames)
            #expect(
                mismatches.isEmpty || late > 0,
                "\(format): \(mismatches.count) frames differ: \(mismatches.prefix(3).map { $0.prefix(300) })\n\(counters)\n\(cluster.logs)"
            )
            #expect(common.count >= 20, "\(format): only \(common.count) seqs reached every node's viewer")
        }
    }

    /// Defect 4: writes acknowledged, AOF switched off, two more acknowledged, Redis killed and restarted, so it
    /// holds revision N − 2 under the same cluster id. Every node follows Redis under a new id: writes through
    /// the old node and a new one are taken, the nodes converge on one state and one ETag, and no ETag handed
    /// out before names a state of Redis's history.
    @Test func redisBackWithOlderData_everyNodeFollowsItUnderANewID_andWritesGoOn() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        var tags: [String] = []
        for value in [0.1, 0.2, 0.3] {
            let answer = try nodes[0].http.send("PATCH", Self.board, body: #"{"rings":{"move":\#(value)},"animation":"none"}"#)
            try #require(answer.status == 200, "\(answer.status) \(answer.text)")
            tags.append(try #require(answer.headers["etag"]))
        }
        let connection = try RedisConnection(endpoint: cluster.redis.endpoint)
        _ = try connection.command(["CONFIG", "SET", "appendonly", "no"])
        for value in [0.4, 0.5] {
            let answer = try nodes[0].http.send("PATCH", Self.board, body: #"{"rings":{"move":\#(value)},"animation":"none"}"#)
            try #require(answer.status == 200, "\(answer.status) \(answer.text)")
            tags.append(try #require(answer.headers["etag"]))
        }
        _ = try await Self.readBoards(on: nodes) { $0.allSatisfy { $0.headers["etag"] == tags.last } }
        try cluster.redis.restart()

        // Both nodes follow Redis (move 0.3, the last value in its AOF), under a new id.
        let followed = try await Self.readBoards(on: nodes, timeout: 20) { answers in
            Self.sameETag(answers) && !tags.contains(answers[0].headers["etag"] ?? "")
                && answers.allSatisfy { (try? $0.decode(ClusterBoard.self))?[ring: "move"] == 0.3 }
        }
        #expect(Self.sameETag(followed), "\(followed.map { $0.headers["etag"] ?? "none" })\n\(cluster.logs)")
        #expect(nodes.contains { $0.process.stderr.contains("went back in time") }, "no node noticed:\n\(cluster.logs)")
        for answer in followed {
            #expect((try? answer.decode(ClusterBoard.self))?[ring: "move"] == 0.3, "\(answer.text)")
            #expect(
                !tags.contains(answer.headers["etag"] ?? ""), "an old ETag names Redis's state: \(answer.headers["etag"] ?? "")")
        }
        for node in nodes {
            let ready = try await Self.poll(timeout: 20, { try node.http.get("/readyz") }, until: { $0.status == 200 })
            #expect(ready.status == 200, "node \(node.name): \(ready.status) \(ready.text)")
        }
        // Writes go on through the node that held the lost revisions, and through a new node.
        let c = try await cluster.start("c")
        let throughA = try nodes[0].http.send("PATCH", Self.board, body: #"{"rings":{"exercise":0.6},"animation":"none"}"#)
        #expect(throughA.status == 200, "write through a: \(throughA.status) \(throughA.text)\n\(cluster.logs)")
        let throughC = try c.http.send("PATCH", Self.board, body: #"{"rings":{"stand":0.7},"animation":"none"}"#)
        #expect(throughC.status == 200, "write through c: \(throughC.status) \(throughC.text)")
        let all = nodes + [c]
        let converged = try await Self.readBoards(on: all) { answers in
            Self.sameETag(answers) && answers.allSatisfy { (try? $0.decode(ClusterBoard.self))?[ring: "stand"] == 0.7 }
        }
        #expect(Self.sameETag(converged), "\(converged.map { $0.headers["etag"] ?? "none" })")
        for answer in converged {
            let board = try answer.decode(ClusterBoard.self)
            #expect(board[ring: "move"] == 0.3 && board[ring: "exercise"] == 0.6 && board[ring: "stand"] == 0.7, "\(board)")
        }
        // An ETag of the lost history matches nothing.
        for tag in tags.suffix(2) {
            let stale = try nodes[1].http.send(
                "PATCH", Self.board, headers: ["Content-Type": "application/json", "If-Match": tag],
                body: #"{"rings":{"move":0.9}}"#)
            #expect(stale.status == 412, "If-Match \(tag): \(stale.status) \(stale.text)")
        }
    }

    /// Redis refusing writes — out of memory, or made a read-only replica: writes get 503, `/readyz` names the
    /// refusal and stays 503 through the health checks that follow (a PING would work; the node tries a write
    /// instead), until Redis takes writes again.
    @Test(arguments: [
        (
            [["CONFIG", "SET", "maxmemory-policy", "noeviction"], ["CONFIG", "SET", "maxmemory", "1"]],
            ["CONFIG", "SET", "maxmemory", "0"], "OOM", "out of memory"
        ),
        (
            // A master nobody listens on: Redis keeps its data and refuses writes.
            [["REPLICAOF", "127.0.0.1", "1"]], ["REPLICAOF", "NO", "ONE"], "READONLY", "read-only replica"
        ),
    ])
    func redisRefusingWrites_readyzNamesItAndStays503ThroughHealthChecks_untilAWriteWorks(
        _ refuse: [[String]], _ undo: [String], _ reply: String, _ words: String
    ) async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let node = try await cluster.start("a")
        let connection = try RedisConnection(endpoint: cluster.redis.endpoint)
        for command in refuse { _ = try connection.command(command) }
        defer { _ = try? connection.command(undo) }

        let refused = try node.http.send("PATCH", Self.board, body: #"{"rings":{"move":0.5},"animation":"none"}"#)
        #expect(refused.status == 503 && refused.text.contains(reply), "\(refused.status) \(refused.text)")
        let ready = try node.http.get("/readyz")
        #expect(ready.status == 503 && ready.text.contains(words), "\(ready.status) \(ready.text)")
        // Two health checks later (Redis counts the probe writes it refused), still 503.
        let rejected = try Self.rejectedSets(connection)
        _ = try await Self.poll(timeout: 10, { try Self.rejectedSets(connection) }, until: { $0 >= rejected + 2 })
        #expect(try Self.rejectedSets(connection) >= rejected + 2, "no write probe reached Redis")
        let still = try node.http.get("/readyz")
        #expect(still.status == 503 && still.text.contains(words), "after health checks: \(still.status) \(still.text)")

        _ = try connection.command(undo)
        let back = try await Self.poll(timeout: 10, { try node.http.get("/readyz") }, until: { $0.status == 200 })
        #expect(back.status == 200, "\(back.status) \(back.text)")
        let accepted = try node.http.send("PATCH", Self.board, body: #"{"rings":{"move":0.5},"animation":"none"}"#)
        #expect(accepted.status == 200, "\(accepted.status) \(accepted.text)")
    }
}

// MARK: - Helpers

extension ClusterTests {
    /// How many SET commands Redis refused (`INFO commandstats`, `rejected_calls`): the write probes.
    static func rejectedSets(_ connection: RedisConnection) throws -> Int {
        let info = try connection.command(["INFO", "commandstats"]).string ?? ""
        guard let line = info.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("cmdstat_set:") }),
            let field = line.split(separator: ",").first(where: { $0.hasPrefix("rejected_calls=") })
        else { return 0 }
        return Int(field.dropFirst("rejected_calls=".count)) ?? 0
    }

    /// The value of the unlabelled sample `name` in the node's `/metrics` (0 when absent).
    static func metric(_ name: String, on node: TestNode) throws -> Int {
        let text = try node.http.get("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) } ?? 0
    }

    /// The cluster's counters of every node, for a failure's message.
    static func clusterMetrics(_ nodes: [TestNode]) throws -> String {
        try nodes.map { node in
            "\(node.name): "
                + (try ["late_updates", "digest_mismatches", "catchups", "updates_received", "writes_again"].map {
                    "\($0) \(try metric("ringcast_cluster_\($0)_total", on: node))"
                }.joined(separator: ", "))
        }.joined(separator: "; ")
    }

    /// Ticks whose frame the node never sent to some viewer: its timer woke late (`ringcast_ticks_skipped_total`)
    /// or a viewer was too slow and got the latest frame instead (`ringcast_frames_skipped_total`).
    static func skippedTicks(on node: TestNode) throws -> Int {
        try metric("ringcast_ticks_skipped_total", on: node) + metric("ringcast_frames_skipped_total", on: node)
    }

    /// Between a viewer's first and last frame the board moved on every tick: the seqs it lacks are no more than
    /// the ticks its node reports skipped.
    static func expectNoGapsBeyondSkipped(_ node: TestNode, _ broadcasts: [[FrameKey: [UInt8]]]) throws {
        let skipped = try skippedTicks(on: node)
        for frames in broadcasts {
            let seqs = Set(frames.keys.map(\.seq))
            guard let first = seqs.min(), let last = seqs.max() else { continue }
            let missing = (first...last).filter { !seqs.contains($0) }
            #expect(
                missing.count <= skipped,
                "node \(node.name): a viewer lacks seqs \(missing.prefix(20)) (\(missing.count)); the node skipped \(skipped)")
        }
    }

    /// Repeats `attempt` every 20 ms until `done` holds for its answer or `timeout` seconds pass;
    /// returns the last answer either way, for the caller to check.
    static func poll<T>(timeout: Double = 10, _ attempt: () throws -> T, until done: (T) -> Bool) async throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let answer = try attempt()
            if done(answer) || Date() > deadline { return answer }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// GET the board on every node until `done` holds for the answers, in the nodes' order.
    /// A JSON and a binary viewer of the board on `node`, both greeted.
    static func viewers(on node: TestNode, client: WebSocketClient) async throws -> (json: TestViewer, binary: TestViewer) {
        let json = TestViewer(client: client, port: node.port)
        let binary = TestViewer(client: client, port: node.port, path: "/ws?board=main&format=binary")
        try await json.waitForGreeting()
        try await binary.waitForGreeting(binary: true)
        return (json, binary)
    }

    /// A JSON and a binary viewer on each of `nodes`, greeted, in the nodes' order.
    static func viewers(on nodes: [TestNode], client: WebSocketClient) async throws -> (json: [TestViewer], binary: [TestViewer])
    {
        var json: [TestViewer] = []
        var binary: [TestViewer] = []
        for node in nodes {
            let viewers = try await viewers(on: node, client: client)
            json.append(viewers.json)
            binary.append(viewers.binary)
        }
        return (json, binary)
    }

    static func readBoards(on nodes: [TestNode], timeout: Double = 10, until done: ([TestResponse]) -> Bool) async throws
        -> [TestResponse]
    {
        try await poll(timeout: timeout, { try nodes.map { try $0.http.get(board) } }, until: done)
    }

    static func sameETag(_ answers: [TestResponse]) -> Bool {
        let tags = answers.map { $0.headers["etag"] }
        return tags.allSatisfy { $0 != nil && $0 == tags.first! }
    }

    /// Waits until the viewer shows every ring of `targets` at rest there (JSON `p`), and returns
    /// the tick of the frame that showed it.
    static func waitForRest(_ viewer: TestViewer, _ targets: [String: Double], _ cluster: TestCluster) async throws -> UInt64 {
        do {
            let messages = try await viewer.waitUntil(timeout: 15, "the end state \(targets)") { messages in
                let picture = TestViewer.picture(of: messages.compactMap(\.frame))
                return targets.allSatisfy { picture[$0.key]?.p == $0.value }
            }
            return try #require(messages.compactMap(\.frame).last?.seq)
        } catch {
            throw ViewerError.failed("\(error)\nnode logs:\n\(cluster.logs)")
        }
    }

    /// Waits until every node answers the same ETag and the same board, whose values are, per
    /// pusher, its last acknowledged one or one it sent later (unanswered, it may have landed).
    static func expectConverged(_ nodes: [TestNode], to logs: [Pushers.Log], _ when: String, _ cluster: TestCluster) async throws
    {
        let answers = try await readBoards(on: nodes, timeout: 20) { answers in
            let states = answers.map { try? $0.decode(ClusterBoard.self) }
            return sameETag(answers) && Set(states).count == 1
                && states.allSatisfy { $0.map { Pushers.violations(in: $0, logs).isEmpty } == true }
        }
        let states = try answers.map { try $0.decode(ClusterBoard.self) }
        #expect(sameETag(answers), "\(when): ETags \(answers.map { $0.headers["etag"] ?? "none" })\n\(cluster.logs)")
        #expect(Set(states).count == 1, "\(when): the nodes differ: \(states)")
        for (node, state) in zip(nodes, states) {
            let violations = Pushers.violations(in: state, logs)
            #expect(violations.isEmpty, "\(when), node \(node.name): \(violations)")
        }
    }
}

/// What the tests read of `GET /api/v1/boards/NAME`.
struct ClusterBoard: Decodable, Hashable, CustomStringConvertible {
    struct Ring: Decodable, Hashable {
        var id: String
        var target: Double?
    }

    var revision: Int
    var rings: [Ring]
    var background: String?

    subscript(ring id: String) -> Double? { rings.first { $0.id == id }?.target }

    var description: String {
        "revision \(revision), " + rings.map { "\($0.id) \($0.target.map { "\($0)" } ?? "-")" }.joined(separator: ", ")
            + ", background \(background ?? "-")"
    }
}

/// Eight pushers, each on a thread of its own and through one of the nodes (in turn), each writing
/// rising values to its own ring — the background for the eighth — with `"animation":"none"`.
/// Per pusher: the last value acknowledged (2xx) and the last one sent. A 503 or a connection
/// error is not an acknowledgement; the pusher tries the next value 10 ms later.
final class Pushers: Sendable {
    struct Log: Sendable {
        var acknowledged = -1
        var sent = -1
        var acks = 0
        var failures = 0
    }

    static let count = 8
    static let rings = ["move", "exercise", "stand", "task1", "task2", "task3", "task4"]

    private let ports: [Int]
    private let state = Mutex((logs: [Log](repeating: Log(), count: Pushers.count), stopping: false, running: 0))

    init(ports: [Int]) {
        self.ports = ports
    }

    var logs: [Log] { state.withLock { $0.logs } }

    /// Starts the eight threads; pusher `p` sends `first[p]`, then one more each time. They stop
    /// at `stop()`, or after 60 s whatever happens.
    func start(from first: [Int]) {
        state.withLock {
            $0.stopping = false
            $0.running = Self.count
            for pusher in 0..<Self.count { $0.logs[pusher].sent = first[pusher] - 1 }
        }
        for pusher in 0..<Self.count {
            let port = ports[pusher % ports.count]
            Thread { [self] in
                let http = TestHTTPClient(port: port, timeoutSeconds: 2)
                let deadline = Date().addingTimeInterval(60)
                while Date() < deadline {
                    let next: Int? = state.withLock {
                        if $0.stopping { return nil }
                        $0.logs[pusher].sent += 1
                        return $0.logs[pusher].sent
                    }
                    guard let index = next else { break }
                    let (path, body) = Self.request(pusher, index)
                    if let response = try? http.send("PUT", path, body: body), (200..<300).contains(response.status) {
                        state.withLock {
                            $0.logs[pusher].acknowledged = index
                            $0.logs[pusher].acks += 1
                        }
                    } else {
                        state.withLock { $0.logs[pusher].failures += 1 }
                        usleep(10_000)
                    }
                }
                state.withLock { $0.running -= 1 }
            }.start()
        }
    }

    /// Asks the threads to stop after the request each has under way.
    func stopSoon() {
        state.withLock { $0.stopping = true }
    }

    /// Stops the threads and waits (at most 10 s) until every one has.
    func stop() async throws {
        stopSoon()
        try await waitUntil("the pushers stopped") { _ in state.withLock { $0.running == 0 } }
    }

    func waitUntil(timeout: Double = 20, _ what: String, _ condition: ([Log]) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(logs) {
            guard Date() < deadline else { throw ViewerError.timeout("timed out waiting until \(what): \(logs)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private static func request(_ pusher: Int, _ index: Int) -> (path: String, body: String) {
        pusher < rings.count
            ? ("/api/v1/boards/main/rings/\(rings[pusher])", #"{"progress":\#(progress(index)),"animation":"none"}"#)
            : ("/api/v1/boards/main/background", ##"{"color":"\##(color(index))","animation":"none"}"##)
    }

    private static func progress(_ index: Int) -> Double { Double(index) / 10_000 }

    private static func color(_ index: Int) -> String {
        "#" + String(format: "%02x%02x%02xff", (index >> 8) & 0xff, index & 0xff, 0x80)
    }

    /// What in `board` contradicts `logs`: a pusher's value older than its last acknowledged one,
    /// or newer than any it sent.
    static func violations(in board: ClusterBoard, _ logs: [Log]) -> [String] {
        var violations: [String] = []
        for (pusher, log) in logs.enumerated() where log.acknowledged >= 0 {
            let allowed = log.acknowledged...max(log.acknowledged, log.sent)
            if pusher < rings.count {
                let stored = board[ring: rings[pusher]].map { Int(($0 * 10_000).rounded()) }
                if !(stored.map { allowed.contains($0) } ?? false) {
                    violations.append(
                        "\(rings[pusher]): stored \(stored ?? -1), acknowledged \(log.acknowledged), sent \(log.sent)")
                }
            } else if !allowed.map(color).contains(board.background ?? "") {
                violations.append("background: stored \(board.background ?? "none"), acknowledged \(color(log.acknowledged))")
            }
        }
        return violations
    }
}
