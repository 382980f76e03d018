import RedisTestSupport
import RingCastCluster
import Testing

@Suite(.serialized) struct WriteScriptTests {
    /// A write to `board` on top of `base`, whose update names the new revision.
    func write(
        _ board: String = "main", base: Int64, tick: Int64 = 1000, client: String = "client",
        limit: Int = 0, key: String? = nil, digest: String = "request", ifMatch: Int64? = nil, ifNoneMatch: Bool = false
    ) -> BoardWrite {
        BoardWrite(
            board: board, client: client, rateLimitPerMinute: limit,
            idempotency: key.map { .init(key: $0, requestDigest: Array(digest.utf8)) }, ifMatch: ifMatch,
            ifNoneMatch: ifNoneMatch, baseRevision: base, startTick: tick,
            stateDigest: [UInt8(truncatingIfNeeded: base + 1), 0xEE],
            update: Array("update \(base + 1)".utf8) + [0, 0x0A], answer: Array("answer \(base + 1)".utf8))
    }

    @Test func writesApplyInRevisionOrder_andStoreTheirChangeOnly() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        #expect(try connection.readSnapshot(board: "main") == nil)
        #expect(try script.run(write(base: 0), on: connection) == .applied(revision: 1, streamID: "1-0"))
        #expect(try script.run(write(base: 1), on: connection) == .applied(revision: 2, streamID: "2-0"))
        // No snapshot yet: the stream holds every change since the board began.
        #expect(try connection.readSnapshot(board: "main") == BoardSnapshot(revision: 2, covers: 0, snapshot: []))
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

    /// A node sends a board's writes in a row (`WriteLane`): each names the one it was computed after, and lands only
    /// on it. Sent together (one pipeline), they are answered in order.
    @Test func aWriteNamingTheOneBeforeIt_landsOnlyOnThatOne_andWritesSentTogetherAreAnsweredInOrder() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        func named(_ id: String, base: Int64, after: String?) -> BoardWrite {
            var made = write(base: base)
            made.id = id
            made.after = after
            return made
        }
        let answers = try script.run(
            [named("a1", base: 0, after: nil), named("a2", base: 1, after: "a1"), named("a3", base: 2, after: "a2")],
            on: connection)
        #expect(answers.map { try? $0.get() } == [1, 2, 3].map { .applied(revision: $0, streamID: "\($0)-0") })
        // Another node's write lands on 3; a write that followed a3 cannot land on it, though its base is right.
        #expect(try script.run(named("b4", base: 3, after: nil), on: connection) == .applied(revision: 4, streamID: "4-0"))
        let late = try script.run([named("a4", base: 3, after: "a3"), named("a5", base: 4, after: "a3")], on: connection)
        #expect(late.map { try? $0.get() } == [.conflict(current: 4), .conflict(current: 4)])
        #expect(try connection.readSnapshot(board: "main")?.revision == 4)
        #expect(try connection.command(["HGET", "rc:{main}:state", "write"]).string == "b4")
        // One that does not land breaks the row after it: the next names it, and is a conflict too.
        let broken = try script.run(
            [named("a6", base: 9, after: nil), named("a7", base: 10, after: "a6"), named("a8", base: 4, after: "b4")],
            on: connection)
        #expect(
            broken.map { try? $0.get() }
                == [.conflict(current: 4), .conflict(current: 4), .applied(revision: 5, streamID: "5-0")])
        #expect(try connection.readStream(board: "main", after: 0).map(\.revision) == [1, 2, 3, 4, 5])
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

    @Test func ifNoneMatch_createsOnlyWhatNothingWasWrittenToSinceTheWriterSawItAbsent() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        // Two nodes saw the board absent (revision 0) and both create it: the first wins, the second is refused as a
        // precondition, not a conflict to compute again.
        #expect(try script.run(write(base: 0, ifNoneMatch: true), on: connection) == .applied(revision: 1, streamID: "1-0"))
        #expect(try script.run(write(base: 0, ifNoneMatch: true), on: connection) == .preconditionFailed(current: 1))
        #expect(try connection.readSnapshot(board: "main")?.revision == 1)
        #expect(try connection.readStream(board: "main", after: 0).map(\.revision) == [1])
        // Without it, the same stale write is a conflict (the node computes it again).
        #expect(try script.run(write(base: 0), on: connection) == .conflict(current: 1))
        // Deleted at revision 2, as the writer saw it: created again.
        #expect(try script.run(write(base: 1), on: connection) == .applied(revision: 2, streamID: "2-0"))
        #expect(try script.run(write(base: 2, ifNoneMatch: true), on: connection) == .applied(revision: 3, streamID: "3-0"))
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

    /// Issue 21: 6,000 keys took 13.5 MiB for 300 s, without any bound of RingCast's.
    @Test func idempotencyAnswersOfAllBoardsStayWithinTheirByteBudget_andTheNewestStillReplay() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        let budget = 64 * 1024
        let boards = ["main", "other"]
        // A 2 KB answer, as a board's JSON is: each costs about 2.4 KB of the budget.
        func write(_ board: String, base: Int64, key: String) -> BoardWrite {
            var write = self.write(board, base: base, key: key)
            write.idempotencyBytes = budget
            write.answer = Array("answer \(key) ".utf8) + [UInt8](repeating: 0x41, count: 2000)
            return write
        }
        for round in Int64(0)..<300 {
            for board in boards {
                #expect(
                    try script.run(write(board, base: round, key: "\(board)-\(round)"), on: connection)
                        == .applied(revision: round + 1, streamID: "\(round + 1)-0"))
            }
        }
        var cursor = "0"
        var kept: [String] = []
        repeat {
            let reply = try connection.command(["SCAN", cursor, "MATCH", "rc:{*}:idem:*", "COUNT", "1000"])
            cursor = reply.array?.first?.string ?? "0"
            kept += reply.array?.last?.array?.compactMap(\.string) ?? []
        } while cursor != "0"
        var bytes = 0
        for key in kept + [BoardKeys.idempotencyBudget] {
            bytes += Int(try connection.command(["MEMORY", "USAGE", key]).integer ?? 0)
        }
        // 600 answers were stored; 27 fit (64 KiB / 2.4 KB), across both boards, and take less than the budget.
        #expect(kept.count == 27, "\(kept.count) answers kept")
        #expect(bytes <= budget, "the kept answers take \(bytes) bytes")
        #expect(kept.contains("rc:{main}:idem:main-299") && kept.contains("rc:{other}:idem:other-299"))
        #expect(try connection.command(["ZCARD", BoardKeys.idempotencyBudget]).integer == Int64(kept.count + 1))
        let ttl = try connection.command(["TTL", BoardKeys.idempotencyBudget]).integer ?? -1
        #expect((290...300).contains(ttl))

        // The newest replays; the oldest is forgotten, so its retry is a new write.
        guard case .replay = try script.run(write("main", base: 299, key: "main-299"), on: connection) else {
            Issue.record("the newest answer must replay")
            return
        }
        #expect(
            try script.run(write("main", base: 300, key: "main-0"), on: connection) == .applied(revision: 301, streamID: "301-0"))

        // A smaller budget (a reload) evicts down to it with the next answer stored; 0 keeps none.
        var small = write("main", base: 301, key: "small")
        small.idempotencyBytes = 5000
        _ = try script.run(small, on: connection)
        #expect(try connection.command(["ZCARD", BoardKeys.idempotencyBudget]).integer == 3)
        var none = write("main", base: 302, key: "none")
        none.idempotencyBytes = 0
        _ = try script.run(none, on: connection)
        #expect(try connection.command(["EXISTS", "rc:{main}:idem:none"]).integer == 0)
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

    @Test func theStreamKeepsWhatNoSnapshotCovers_andIsTrimmedOnceOneDoes() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript(streamLength: 10)
        for base in Int64(0)..<300 { _ = try script.run(write(base: base), on: connection) }
        // Without a snapshot nothing may go: the stream is the whole board.
        #expect(try connection.readStream(board: "main", after: 0).map(\.revision) == Array(1...300))
        let written = try connection.writeSnapshot(
            board: "main", revision: 250, digest: [250, 0xEE], state: Array("state 250".utf8), streamLength: 10)
        #expect(written == .written)
        // MINID ~ trims whole stream nodes (100 entries each by default): everything after 250 is kept, at most a
        // node more before it.
        let kept = try connection.readStream(board: "main", after: 0).map(\.revision)
        #expect(kept.first.map { $0 <= 251 && $0 > 150 } == true && kept == Array(kept.first!...300))
        for base in Int64(300)..<600 { _ = try script.run(write(base: base), on: connection) }
        let later = try connection.readStream(board: "main", after: 0).map(\.revision)
        #expect(later.first.map { $0 <= 251 } == true && later.last == 600)
        // The reading a node catches up with: the snapshot, and what follows the revision it holds while the stream
        // has it, else what follows the snapshot; from 0 (a reload), what the stream holds.
        let (snapshot, updates) = try connection.readBoard("main", from: 590)
        #expect(snapshot == BoardSnapshot(revision: 600, covers: 250, snapshot: Array("state 250".utf8)))
        #expect(updates.map(\.revision) == Array(590...600))
        #expect(try connection.readBoard("main", from: 601).updates.map(\.revision) == Array(251...600))
        // A start reads every board from the snapshot on (from the largest revision there is).
        #expect(try connection.readBoard("main", from: .max).updates.map(\.revision) == Array(251...600))
        #expect(try connection.readBoard("main", from: 0).updates.map(\.revision) == later)
        #expect(try connection.readBoard("other", from: 0) == (nil, []))
    }

    @Test func aSnapshotIsTakenOnlyWhenNewer_inTheStream_andOfTheHistoryRedisHolds() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        var script = WriteScript()
        for base in Int64(0)..<5 { _ = try script.run(write(base: base), on: connection) }
        func snapshot(_ revision: Int64, digest: UInt8? = nil) throws -> SnapshotScript.Outcome {
            try connection.writeSnapshot(
                board: "main", revision: revision, digest: [digest ?? UInt8(revision), 0xEE], state: Array("s\(revision)".utf8),
                streamLength: 1000)
        }
        #expect(try snapshot(3, digest: 9) == .otherHistory)
        #expect(try snapshot(6) == .stale(covers: 0))
        #expect(try snapshot(3) == .written)
        #expect(try snapshot(2) == .stale(covers: 3))
        #expect(try snapshot(3) == .stale(covers: 3))
        #expect(try connection.readSnapshot(board: "main") == BoardSnapshot(revision: 5, covers: 3, snapshot: Array("s3".utf8)))
        #expect(
            try connection.writeSnapshot(board: "none", revision: 1, digest: [1], state: [1], streamLength: 10)
                == .stale(covers: 0))
        #expect(try connection.command(["EXISTS", "rc:{none}:state"]).integer == 0)
    }

    /// A hash written by a RingCast that stored the whole state with every write has no `snapshotRevision`: its
    /// snapshot is the newest state, and the first write since records that it covers the revision before it.
    @Test func aSnapshotStoredWithEveryWriteByAnEarlierRelease_isReadAsCoveringItsRevision() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        try connection.command(["HSET", "rc:{main}:state", "revision", "7", "snapshot", "old 7"])
        try connection.command([
            "XADD", "rc:{main}:stream", "7-0", "revision", "7", "base", "6", "tick", "1", "digest", "07ee", "update", "u7",
        ])
        #expect(
            try connection.readSnapshot(board: "main") == BoardSnapshot(revision: 7, covers: 7, snapshot: Array("old 7".utf8)))
        #expect(try connection.readBoard("main", from: 3).updates.map(\.revision) == [7])
        var script = WriteScript()
        #expect(try script.run(write(base: 7), on: connection) == .applied(revision: 8, streamID: "8-0"))
        #expect(
            try connection.readSnapshot(board: "main") == BoardSnapshot(revision: 8, covers: 7, snapshot: Array("old 7".utf8)))
        #expect(try connection.readBoard("main", from: 8).updates.map(\.revision) == [8])
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
            #expect(try reader.readSnapshot(board: board) == BoardSnapshot(revision: 50, covers: 0, snapshot: []))
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
