/// The one Lua script every board write runs in Redis, atomically, and its loader.
///
/// Loaded with SCRIPT LOAD (`load`, or on first use) and run with EVALSHA; when Redis answers
/// NOSCRIPT (it restarted, or SCRIPT FLUSH) the script is loaded again and run once more — safe,
/// since NOSCRIPT means nothing ran.
///
/// Contract (`BoardKeys` documents the keys):
///
/// - KEYS[1] `rc:{B}:state`, KEYS[2] `rc:{B}:stream`, KEYS[3] `rc:{B}:idem:KEY` (`rc:{B}:idem:`
///   without a key), KEYS[4] `rc:{B}:rate:CLIENT`, KEYS[5] `rc:cluster`, KEYS[6] `rc:idempotency` —
///   all declared (the last two are outside the board's slot: Redis Cluster would need them kept per
///   board). Evicting an old answer deletes another `rc:{B}:idem:KEY`, of any board, which cannot
///   be declared: fine on the single Redis RingCast supports.
/// - ARGV[1] writes per minute (0 = no limit), ARGV[2] request digest as hex ("" = no
///   Idempotency-Key), ARGV[3] If-Match revision ("" = none), ARGV[4] base revision, ARGV[5] start
///   tick, ARGV[6] state digest as hex, ARGV[7] update, ARGV[8] answer, ARGV[9] the stream entries
///   kept at least, ARGV[10] the channel `rc:{B}:updates`, ARGV[11] the idempotency expiry in seconds,
///   ARGV[12] the cluster id the node's ETags carry ("" = not checked), ARGV[13] the bytes all boards'
///   idempotency answers may take together (0 = keep none), ARGV[14] "1" for If-None-Match: * ("" = none), ARGV[15]
///   the id of the write the board's newest revision must be ("" = not checked: see `BoardWrite.after`), ARGV[16] this
///   write's id (kept in the state hash as `write`), ARGV[17] and ARGV[18] the history's bound (`RingHistory.Bound`:
///   seconds and points, "0" for none), ARGV[19] the write's start in milliseconds, ARGV[20] how many points P it adds,
///   ARGV[21…] their members; KEYS[7…6+P] their rings' history (`BoardKeys.history(ring:)`), KEYS[7+P…] the history of
///   rings the write removed (or gave another kind), deleted before the points are added.
/// - Returns, first match wins: `{"rate_limited", retrySeconds}`, `{"replay", answer}`,
///   `{"key_reused"}`, `{"cluster_changed", id}`, `{"precondition_failed", current}`, `{"conflict", current}`, else
///   `{"applied", revision, streamID}`.
///
/// Order inside: (1) token bucket on Redis's `TIME` — a passing write takes a token even if a
/// later step refuses it; (2) Idempotency-Key; (2b) the cluster's id; (3) If-Match; (3b) If-None-Match: the
/// board's revision must still be the base the writer saw it absent at (no state, or its deletion's) — a board
/// written since was created by another node, so this is `precondition_failed`, never a `conflict` to compute
/// again (conservative: one created and deleted again since is refused too); (4) compare-and-set (missing state =
/// revision 0), and (4b) when the write names the one it was computed after, that the board's newest write is that one
/// (else `conflict` too: the write it followed did not land); then the write: XADD to the stream with ID `REVISION-0`
/// (first, so that the only command that can fail on odd data fails before anything else changed; a board without state
/// drops any stale stream first — only when there is one: Redis lets a script that has written go on writing
/// past `maxmemory`, so nothing may be written before XADD), HSET of the revision, PUBLISH of `BoardUpdate.payload`,
/// and the idempotency answer with its expiry, within its byte budget (below).
///
/// A write stores its change, never the board's whole state (issue 32): the stream is the board's log. The whole
/// state is written now and then as a snapshot by `SnapshotScript`, with the revision it covers
/// (`snapshotRevision`); the stream keeps every entry after it, and at least the newest ARGV[9] (`XADD … MINID ~`:
/// trimmed below the smaller of the two, in whole nodes of the stream, so a little more is kept). A hash from a
/// RingCast that stored a snapshot with every write has no `snapshotRevision`: its snapshot covers its revision,
/// which the first write here records.
///
/// The budget, like the single server's `IdempotencyCache`: `rc:idempotency` is a sorted set of the
/// answers' key names, scored by where each starts in a running count of the bytes stored (member
/// `total`, the count's end). An answer costs about what it takes in Redis: its key name twice (key
/// and member), digest, answer and 320 bytes of overhead (Redis 7.0 took about 300: the hash, its
/// expiry, the set entry; `MEMORY USAGE`). Storing one moves `total` on by its cost
/// and deletes every answer that starts more than the budget before the new end, oldest first, so
/// the answers kept take at most the budget; an answer larger than the whole budget is not kept.
/// Answers that expired by themselves still count until the window passes them (the bound errs
/// high). The set expires with the last answer.
///
/// With `appendonly yes` and `appendfsync always` Redis replies only after the script's effects
/// are fsynced to its AOF, so an `.applied` outcome is durable.
public struct WriteScript: Sendable {
    /// The steps every write script (a board's, a playlist's) takes first, in this order: the client's rate limit, a
    /// token bucket of `limit` writes a minute kept in hash `bucket` (`rate_limited` with the seconds to wait), then
    /// the `Idempotency-Key`, whose request digest is `digest` ("" = none) and whose first answer hash is `answers`
    /// (`replay` with it, or `key_reused` for another request under the same key). Lua expressions are passed in.
    static func admission(limit: String, bucket: String, digest: String, answers: String) -> String {
        """
        local limit = tonumber(\(limit))
        if limit > 0 then
          local time = redis.call('TIME')
          local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
          local perSecond = limit / 60
          local bucket = redis.call('HMGET', \(bucket), 'tokens', 'at')
          local tokens = tonumber(bucket[1]) or limit
          local at = tonumber(bucket[2]) or now
          if now > at then tokens = math.min(limit, tokens + (now - at) * perSecond) end
          if tokens < 1 then
            return {'rate_limited', math.max(1, math.ceil((1 - tokens) / perSecond))}
          end
          redis.call('HSET', \(bucket), 'tokens', tostring(tokens - 1), 'at', tostring(now))
          redis.call('EXPIRE', \(bucket), 61)
        end
        if \(digest) ~= '' then
          local stored = redis.call('HMGET', \(answers), 'digest', 'answer')
          if stored[1] then
            if stored[1] == \(digest) then return {'replay', stored[2]} end
            return {'key_reused'}
          end
        end

        """
    }

    /// The step every write script takes last: the first answer to an `Idempotency-Key` (request digest `digest`,
    /// "" = none) is kept in hash `answers` for `expiry` seconds, within `budget` bytes of all keys' answers, which
    /// the sorted set `index` orders oldest first so the oldest go when the budget is spent.
    static func remember(
        digest: String, answer: String, answers: String, expiry: String, budget: String, index: String
    ) -> String {
        """
        local budget = tonumber(\(budget))
        if \(digest) ~= '' and budget > 0 then
          local start = tonumber(redis.call('ZSCORE', \(index), 'total') or '0')
          local finish = start + 320 + 2 * #\(answers) + #\(digest) + #\(answer)
          redis.call('HSET', \(answers), 'digest', \(digest), 'answer', \(answer))
          redis.call('EXPIRE', \(answers), \(expiry))
          redis.call('ZADD', \(index), start, \(answers), finish, 'total')
          redis.call('EXPIRE', \(index), \(expiry))
          local before = '(' .. string.format('%.17g', finish - budget)
          local evicted = redis.call('ZRANGEBYSCORE', \(index), '-inf', before)
          for _, name in ipairs(evicted) do redis.call('DEL', name) end
          if #evicted > 0 then redis.call('ZREMRANGEBYSCORE', \(index), '-inf', before) end
        end
        """
    }

    /// Lua defining `snapshotCovers(key, head)`: the revision the snapshot in state hash `key` covers, for a board at
    /// revision `head`. A hash without `snapshotRevision` but with a `snapshot` was written by a RingCast that stored
    /// the whole state with every write: it covers `head`. No snapshot: 0. The one statement of that rule, for the
    /// write script and the reading (`readBoard`).
    static let snapshotCovers = """
        local function snapshotCovers(key, head)
          local covers = tonumber(redis.call('HGET', key, 'snapshotRevision') or '-1')
          if covers >= 0 then return covers end
          if redis.call('HEXISTS', key, 'snapshot') == 1 then return head end
          return 0
        end

        """

    /// The Lua source (Redis 7, Lua 5.1).
    public static let source =
        snapshotCovers + admission(limit: "ARGV[1]", bucket: "KEYS[4]", digest: "ARGV[2]", answers: "KEYS[3]") + """
        if ARGV[12] ~= '' then
          local id = redis.call('GET', KEYS[5])
          if id ~= ARGV[12] then return {'cluster_changed', id or ''} end
        end
        local current = tonumber(redis.call('HGET', KEYS[1], 'revision') or '0')
        if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= current then
          return {'precondition_failed', current}
        end
        if ARGV[14] == '1' and tonumber(ARGV[4]) ~= current then
          return {'precondition_failed', current}
        end
        if tonumber(ARGV[4]) ~= current then
          return {'conflict', current}
        end
        if ARGV[15] ~= '' and redis.call('HGET', KEYS[1], 'write') ~= ARGV[15] then
          return {'conflict', current}
        end
        local revision = current + 1
        if current == 0 and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DEL', KEYS[2]) end
        local covers = snapshotCovers(KEYS[1], current)
        local keep = math.max(0, math.min(covers + 1, revision - tonumber(ARGV[9]) + 1))
        local id = redis.call('XADD', KEYS[2], 'MINID', '~', keep, revision .. '-0',
          'revision', revision, 'base', current, 'tick', ARGV[5], 'digest', ARGV[6], 'update', ARGV[7])
        redis.call('HSET', KEYS[1], 'revision', revision, 'snapshotRevision', covers, 'write', ARGV[16])
        redis.call('PUBLISH', ARGV[10],
          'RC1 ' .. revision .. ' ' .. current .. ' ' .. ARGV[5] .. ' ' .. ARGV[6] .. '\\n' .. ARGV[7])
        \(remember(digest: "ARGV[2]", answer: "ARGV[8]", answers: "KEYS[3]", expiry: "ARGV[11]", budget: "ARGV[13]", index: "KEYS[6]"))
        local points = tonumber(ARGV[20])
        local seconds, kept = tonumber(ARGV[17]), tonumber(ARGV[18])
        for index = 7 + points, #KEYS do redis.call('DEL', KEYS[index]) end
        for index = 1, points do
          local key = KEYS[6 + index]
          redis.call('ZADD', key, ARGV[19], ARGV[20 + index])
          redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. (tonumber(ARGV[19]) - seconds * 1000))
          redis.call('ZREMRANGEBYRANK', key, 0, -(kept + 1))
        end
        return {'applied', revision, id}
        """

    /// How many entries each board's stream keeps at least, besides every entry its snapshot does not cover.
    public var streamLength: Int
    /// How long an Idempotency-Key's first answer is kept.
    public var idempotencySeconds: Int
    /// How much of each ring's history is kept.
    public var history: RingHistory.Bound
    /// The script's SHA-1 once loaded.
    public private(set) var sha: String?

    public init(
        streamLength: Int = 1000, idempotencySeconds: Int = 300,
        history: RingHistory.Bound = RingHistory.Bound(seconds: 7 * 86_400, points: 10_000)
    ) {
        self.streamLength = streamLength
        self.idempotencySeconds = idempotencySeconds
        self.history = history
    }

    /// SCRIPT LOAD; done by `run` when needed, callable at start to fail early.
    public mutating func load(on connection: RedisConnection) throws(RedisError) {
        let reply = try connection.command(["SCRIPT", "LOAD", Self.source])
        guard let sha = reply.string else { throw RedisError.unexpectedReply("SCRIPT LOAD answered \(reply)") }
        self.sha = sha
    }

    /// Runs the script for `write` (see the type's documentation for what it does, in order): `run(_:on:)` with one.
    public mutating func run(_ write: BoardWrite, on connection: RedisConnection) throws(RedisError) -> WriteOutcome {
        try run([write], on: connection)[0].get()
    }

    /// Runs the script for each of `writes`, in order, sent together (`RedisConnection.pipeline`): what a write decided,
    /// or the error Redis answered it with. Throws `.io` when the connection broke: which of them ran is then unknown.
    public mutating func run(_ writes: [BoardWrite], on connection: RedisConnection) throws(RedisError) -> [Result<
        WriteOutcome, RedisError
    >] {
        if sha == nil { try load(on: connection) }
        var replies = try connection.pipeline(writes.map(arguments))
        if replies.contains(where: Self.isNoScript) {
            // Redis forgot the script (it restarted, or SCRIPT FLUSH): the writes that met that ran nothing, and run
            // again now, in order.
            try load(on: connection)
            let again = writes.indices.filter { Self.isNoScript(replies[$0]) }
            let answers = try connection.pipeline(again.map { arguments(writes[$0]) })
            for (index, answer) in zip(again, answers) { replies[index] = answer }
        }
        return replies.map { reply in
            if case .error(let message) = reply { return .failure(.server(message)) }
            return Result { () throws(RedisError) in try Self.outcome(reply) }
        }
    }

    private static func isNoScript(_ reply: RedisReply) -> Bool {
        if case .error(let message) = reply { return message.hasPrefix("NOSCRIPT") }
        return false
    }

    private func arguments(_ write: BoardWrite) -> [[UInt8]] {
        let keys = BoardKeys(board: write.board)
        let bound = write.historyBound ?? history
        let points = bound.isOff ? [] : write.history
        let historyKeys = points.map { keys.history(ring: $0.ring) } + write.removedHistory.map { keys.history(ring: $0) }
        let text: [String] =
            [
                "EVALSHA", sha ?? "", String(6 + historyKeys.count),
                keys.state, keys.stream, keys.idempotency(write.idempotency?.key ?? ""), keys.rate(write.client),
                BoardKeys.cluster, BoardKeys.idempotencyBudget,
            ] + historyKeys + [
            String(write.rateLimitPerMinute),
            write.idempotency.map { Hex.encode($0.requestDigest) } ?? "",
            write.ifMatch.map(String.init) ?? "",
            String(write.baseRevision),
            String(write.startTick),
            Hex.encode(write.stateDigest),
        ]
        let arguments =
            text.map { Array($0.utf8) } + [write.update, write.answer]
            + [
                String(streamLength), keys.updates, String(idempotencySeconds), write.clusterID ?? "",
                String(write.idempotencyBytes), write.ifNoneMatch ? "1" : "", write.after ?? "", write.id,
                String(bound.seconds), String(bound.points), String(points.first?.milliseconds ?? 0),
                String(points.count),
            ].map { Array($0.utf8) } + points.map { Array($0.member.utf8) }
        return arguments
    }

    private static func outcome(_ reply: RedisReply) throws(RedisError) -> WriteOutcome {
        func unexpected() -> RedisError { .unexpectedReply("the write script answered \(reply)") }
        guard let parts = reply.array, let kind = parts.first?.string else { throw unexpected() }
        func integer(_ index: Int) throws(RedisError) -> Int64 {
            guard index < parts.count, let value = parts[index].integer else { throw unexpected() }
            return value
        }
        switch kind {
        case "applied":
            guard parts.count == 3, let id = parts[2].string else { throw unexpected() }
            return .applied(revision: try integer(1), streamID: id)
        case "rate_limited": return .rateLimited(retryAfter: Int(try integer(1)))
        case "replay":
            guard parts.count == 2, let answer = parts[1].bytes else { throw unexpected() }
            return .replay(answer: answer)
        case "key_reused": return .keyReused
        case "precondition_failed": return .preconditionFailed(current: try integer(1))
        case "conflict": return .conflict(current: try integer(1))
        case "cluster_changed":
            guard parts.count == 2, let id = parts[1].string else { throw unexpected() }
            return .clusterChanged(id: id)
        default: throw unexpected()
        }
    }
}

extension RedisConnection {
    /// The board's revision and newest snapshot, or nil for a board without state (`BoardSnapshot`). Reads the entries
    /// after the snapshot too (`readBoard`): for tests and tools.
    public func readSnapshot(board: String) throws(RedisError) -> BoardSnapshot? {
        try readBoard(board, from: .max).snapshot
    }

    /// What a node catching up reads of a board, atomically (one script): its revision and newest snapshot (nil for a
    /// board without state), and the stream's entries from `revision` on while the stream still holds that one (the
    /// node continues from it), else from the first one the snapshot does not cover — so that the snapshot and the
    /// entries after it make the whole board. `revision` 0 asks for the snapshot's entries in any case (a reload).
    public func readBoard(_ board: String, from revision: Int64) throws(RedisError) -> (
        snapshot: BoardSnapshot?, updates: [BoardUpdate]
    ) {
        let keys = BoardKeys(board: board)
        let reply = try command(["EVAL", Self.readScript, "2", keys.state, keys.stream, String(max(0, revision))])
        guard let parts = reply.array, parts.count == 4, let entries = parts[3].array else {
            throw RedisError.unexpectedReply("the reading of board \(board) answered \(reply)")
        }
        // A board without state: its revision is "".
        guard let head = parts[0].integer else { return (nil, []) }
        guard let covers = parts[1].integer, (0...head).contains(covers) else {
            throw RedisError.unexpectedReply("a board state at revision \(head) whose snapshot covers \(parts[1])")
        }
        let snapshot = BoardSnapshot(revision: head, covers: covers, snapshot: covers == 0 ? [] : parts[2].bytes ?? [])
        return (snapshot, try Self.updates(entries))
    }

    /// `readBoard`'s script: KEYS[1] the state, KEYS[2] the stream, ARGV[1] the first revision asked for. Returns the
    /// board's revision ("" without state), the revision its snapshot covers, the snapshot ("" for none) and the
    /// entries (see `readBoard`).
    private static let readScript =
        WriteScript.snapshotCovers + """
            local head = tonumber(redis.call('HGET', KEYS[1], 'revision') or '-1')
            if head < 0 then return {'', '', '', {}} end
            local covers = snapshotCovers(KEYS[1], head)
            local snapshot = ''
            if covers > 0 then snapshot = redis.call('HGET', KEYS[1], 'snapshot') or '' end
            local from = math.min(tonumber(ARGV[1]), head + 1)
            if covers + 1 < from and #redis.call('XRANGE', KEYS[2], from .. '-0', from .. '-0') == 0 then
              from = covers + 1
            end
            return {head, covers, snapshot, redis.call('XRANGE', KEYS[2], from .. '-0', '+')}
            """

    /// The board's stream entries with a revision above `revision`, in order. The stream is capped:
    /// when the first entry returned is not `revision + 1` (or nothing is returned though the
    /// snapshot is newer) the caller has a gap and must reload the snapshot.
    public func readStream(board: String, after revision: Int64) throws(RedisError) -> [BoardUpdate] {
        try readStream(board: board, from: revision + 1)
    }

    /// The board's stream entries with a revision of `revision` or above, in order.
    public func readStream(board: String, from revision: Int64) throws(RedisError) -> [BoardUpdate] {
        let reply = try command(["XRANGE", BoardKeys(board: board).stream, "\(max(0, revision))-0", "+"])
        guard let entries = reply.array else { throw RedisError.unexpectedReply("XRANGE answered \(reply)") }
        return try Self.updates(entries)
    }

    /// Stream entries (XRANGE's answer) as updates, in order.
    private static func updates(_ entries: [RedisReply]) throws(RedisError) -> [BoardUpdate] {
        var updates: [BoardUpdate] = []
        updates.reserveCapacity(entries.count)
        for entry in entries {
            guard let pair = entry.array, pair.count == 2, let fields = pair[1].array else {
                throw RedisError.unexpectedReply("a stream entry \(entry)")
            }
            var values: [String: RedisReply] = [:]
            var index = 0
            while index + 1 < fields.count {
                if let name = fields[index].string { values[name] = fields[index + 1] }
                index += 2
            }
            guard let revision = values["revision"]?.integer, let base = values["base"]?.integer,
                let tick = values["tick"]?.integer, let digestText = values["digest"]?.string,
                let digest = Hex.decode(digestText), let update = values["update"]?.bytes
            else {
                throw RedisError.unexpectedReply("a stream entry without revision, base, tick, digest or update: \(entry)")
            }
            updates.append(BoardUpdate(revision: revision, base: base, tick: tick, digest: digest, update: update))
        }
        return updates
    }
}
