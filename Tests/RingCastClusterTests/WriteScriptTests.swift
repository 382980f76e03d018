import RedisTestSupport
import RingCastCluster
import Testing

@Suite(.serialized) struct WriteScriptTests {
    /// A write to `board` on top of `base`, whose snapshot and update name the new revision.
    func write(
        _ board: String = "main", base: Int64, tick: Int64 = 1000, client: String = "client",
        limit: Int = 0, key: String? = nil, digest: String = "request", ifMatch: Int64? = nil
    ) -> BoardWrite {
        BoardWrite(
            board: board, client: client, rateLimitPerMinute: limit,
            idempotency: key.map { .init(key: $0, requestDigest: Array(digest.utf8)) }, ifMatch: ifMatch,
            baseRevision: base, startTick: tick, stateDigest: [UInt8(truncatingIfNeeded: base + 1), 0xEE],
            snapshot: Array("snapshot \(base + 1)".utf8) + [0, 0x0A],
            update: Array("update \(base + 1)".utf8) + [0, 0x0A], answer: Array("answer \(base + 1)".utf8))
    }

    @Test func writesApplyInRevisionOrderAndTheSnapshotFollows() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        #expect(try connection.readSnapshot(board: "main") == nil)
        #expect(try script.run(write(base: 0), on: connection) == .applied(revision: 1, streamID: "1-0"))
        #expect(try script.run(write(base: 1), on: connection) == .applied(revision: 2, streamID: "2-0"))
        #expect(
            try connection.readSnapshot(board: "main")
                == BoardSnapshot(revision: 2, snapshot: Array("snapshot 2".utf8) + [0, 0x0A]))
        #expect(try connection.readSnapshot(board: "other") == nil)
        #expect(try connection.command(["HGET", "rc:{main}:state", "revision"]) == .bulk(Array("2".utf8)))
    }

    @Test func aStaleBaseIsAConflictAndChangesNothing() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        _ = try script.run(write(base: 0), on: connection)
        #expect(try script.run(write(base: 0), on: connection) == .conflict(current: 1))
        #expect(try script.run(write(base: 5), on: connection) == .conflict(current: 1))
        #expect(try connection.readSnapshot(board: "main")?.revision == 1)
        #expect(try connection.readStream(board: "main", after: 0).map(\.revision) == [1])
    }

    @Test func ifMatchIsCheckedBeforeTheCompareAndSet() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        _ = try script.run(write(base: 0), on: connection)
        // Both stale: If-Match wins.
        #expect(try script.run(write(base: 0, ifMatch: 0), on: connection) == .preconditionFailed(current: 1))
        #expect(try script.run(write(base: 1, ifMatch: 7), on: connection) == .preconditionFailed(current: 1))
        // If-Match right, base stale: conflict.
        #expect(try script.run(write(base: 0, ifMatch: 1), on: connection) == .conflict(current: 1))
        #expect(try script.run(write(base: 1, ifMatch: 1), on: connection) == .applied(revision: 2, streamID: "2-0"))
    }

    @Test func anIdempotencyKeyReplaysTheFirstAnswerAndChangesNothing() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        #expect(try script.run(write(base: 0, key: "k1"), on: connection) == .applied(revision: 1, streamID: "1-0"))
        let before = try connection.readSnapshot(board: "main")
        // The same request again, from a node that still thinks the board is at 0, and with a
        // stale If-Match: the replay wins over both, and nothing is written.
        #expect(try script.run(write(base: 0, key: "k1", ifMatch: 0), on: connection) == .replay(answer: Array("answer 1".utf8)))
        #expect(try script.run(write(base: 1, key: "k1"), on: connection) == .replay(answer: Array("answer 1".utf8)))
        #expect(try connection.readSnapshot(board: "main") == before)
        #expect(try connection.readStream(board: "main", after: 0).count == 1)
        // The key with another request.
        #expect(try script.run(write(base: 1, key: "k1", digest: "other"), on: connection) == .keyReused)
        #expect(try connection.readSnapshot(board: "main") == before)
        // Kept 300 s; another key applies.
        let ttl = try connection.command(["TTL", "rc:{main}:idem:k1"]).integer ?? -1
        #expect((290...300).contains(ttl))
        #expect(try script.run(write(base: 1, key: "k2"), on: connection) == .applied(revision: 2, streamID: "2-0"))
        #expect(try connection.command(["HGET", "rc:{main}:idem:k1", "digest"]) == .bulk(Array("72657175657374".utf8)))
    }

    @Test func theRateLimitComesFirstAndCountsPerClientAndBoard() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        #expect(try script.run(write(base: 0, limit: 3, key: "k"), on: connection) == .applied(revision: 1, streamID: "1-0"))
        #expect(try script.run(write(base: 0, limit: 3), on: connection) == .conflict(current: 1))  // counts too
        #expect(try script.run(write(base: 1, limit: 3), on: connection) == .applied(revision: 2, streamID: "2-0"))
        // The bucket of 3 is empty; one token comes back every 20 s. Even a replay waits.
        for refused in [write(base: 2, limit: 3), write(base: 0, limit: 3, key: "k")] {
            guard case .rateLimited(let retryAfter) = try script.run(refused, on: connection) else {
                Issue.record("expected rate_limited")
                continue
            }
            #expect((19...20).contains(retryAfter))
        }
        #expect(try connection.readSnapshot(board: "main")?.revision == 2)
        // Another client, another board, or no limit: not affected.
        #expect(
            try script.run(write(base: 2, client: "someone else", limit: 3), on: connection)
                == .applied(revision: 3, streamID: "3-0"))
        #expect(try script.run(write("second", base: 0, limit: 3), on: connection) == .applied(revision: 1, streamID: "1-0"))
        #expect(try script.run(write(base: 3, limit: 0), on: connection) == .applied(revision: 4, streamID: "4-0"))
    }

    @Test func readStreamAfterNReturnsExactlyTheLaterUpdatesInOrder() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        for base in Int64(0)..<5 { _ = try script.run(write(base: base, tick: 100 + base), on: connection) }
        let later = try connection.readStream(board: "main", after: 2)
        #expect(
            later
                == (3...5).map { revision in
                    BoardUpdate(
                        revision: revision, base: revision - 1, tick: 100 + revision - 1,
                        digest: [UInt8(revision), 0xEE], update: Array("update \(revision)".utf8) + [0, 0x0A])
                })
        #expect(try connection.readStream(board: "main", after: 5) == [])
        #expect(try connection.readStream(board: "main", after: 0).map(\.revision) == [1, 2, 3, 4, 5])
    }

    @Test func theStreamIsCapped() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript(streamLength: 10)
        for base in Int64(0)..<300 { _ = try script.run(write(base: base), on: connection) }
        // MAXLEN ~ trims whole stream nodes (100 entries each by default): at least 10 are kept.
        let length = try connection.command(["XLEN", "rc:{main}:stream"]).integer ?? 0
        #expect(length >= 10 && length <= 110)
        let kept = try connection.readStream(board: "main", after: 0).map(\.revision)
        #expect(kept == Array(Int64(300 - kept.count + 1)...300))
    }

    @Test func eachAppliedWriteIsPublishedWithTheDocumentedPayload() throws {
        let redis = try RedisProcess()
        let recorder = Recorder()
        let subscriber = try recorder.subscriber(redis, channels: [BoardKeys(board: "main").updates])
        defer { subscriber.stop() }
        #expect(eventually { subscriber.state == .connected })
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        _ = try script.run(write(base: 0, tick: 424_242), on: connection)
        _ = try script.run(write(base: 0), on: connection)  // a conflict publishes nothing
        _ = try script.run(write(base: 1, tick: 424_250), on: connection)
        #expect(eventually { recorder.received.count >= 2 })
        #expect(recorder.received.map(\.channel) == ["rc:{main}:updates", "rc:{main}:updates"])
        let first = recorder.received[0].payload
        #expect(first == Array("RC1 1 0 424242 01ee\n".utf8) + Array("update 1".utf8) + [0, 0x0A])
        #expect(
            try BoardUpdate(payload: recorder.received[1].payload)
                == BoardUpdate(
                    revision: 2, base: 1, tick: 424_250, digest: [2, 0xEE], update: Array("update 2".utf8) + [0, 0x0A]))
    }

    @Test func aFlushedScriptIsLoadedAgain() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        try script.load(on: connection)
        let sha = script.sha
        try connection.command(["SCRIPT", "FLUSH"])
        #expect(try script.run(write(base: 0), on: connection) == .applied(revision: 1, streamID: "1-0"))
        #expect(script.sha == sha)
    }

    @Test func everyAcknowledgedWriteSurvivesSIGKILL() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        let boards = ["a", "b", "c", "d"]
        for round in Int64(0)..<50 {
            for board in boards {
                #expect(
                    try script.run(write(board, base: round, key: "\(board)-\(round)"), on: connection)
                        == .applied(revision: round + 1, streamID: "\(round + 1)-0"))
            }
        }
        try redis.restart()
        let reader = try RedisConnection(endpoint: redis.endpoint)
        for board in boards {
            #expect(
                try reader.readSnapshot(board: board)
                    == BoardSnapshot(revision: 50, snapshot: Array("snapshot 50".utf8) + [0, 0x0A]))
            let updates = try reader.readStream(board: board, after: 0)
            #expect(updates.map(\.revision) == Array(1...50))
            #expect(updates.map(\.update) == (1...50).map { Array("update \($0)".utf8) + [0, 0x0A] })
        }
        // The scripts are gone after a restart; the idempotency answers are not.
        var fresh = WriteScript()
        #expect(try fresh.run(write("a", base: 0, key: "a-0"), on: reader) == .replay(answer: Array("answer 1".utf8)))
        #expect(try script.run(write("a", base: 50), on: reader) == .applied(revision: 51, streamID: "51-0"))
    }
}
