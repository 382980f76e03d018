extension RedisConnection {
    /// Every playlist Redis holds, by name: the stored definitions as written (HGETALL of `rc:playlists`).
    public func readPlaylists() throws(RedisError) -> [String: [UInt8]] {
        let reply = try command(["HGETALL", PlaylistKeys.hash])
        guard let parts = reply.array, parts.count % 2 == 0 else {
            throw RedisError.unexpectedReply("HGETALL \(PlaylistKeys.hash) answered \(reply)")
        }
        var playlists: [String: [UInt8]] = [:]
        for index in stride(from: 0, to: parts.count, by: 2) {
            guard let name = parts[index].string, let definition = parts[index + 1].bytes else {
                throw RedisError.unexpectedReply("HGETALL \(PlaylistKeys.hash) answered \(reply)")
            }
            playlists[name] = definition
        }
        return playlists
    }

    /// Stores `definition` as the playlist `name` (nil: deletes it), if `expected` holds and, for a new one, fewer
    /// than `maximum` are stored; announces the name on `PlaylistKeys.channel`. Atomic (one script), so two nodes
    /// writing at once never both pass `If-Match` or the limit. Before all that, as for a board (`WriteScript`):
    /// `admission`'s rate limit (a passing write takes its token even if a later step refuses it) and its
    /// Idempotency-Key (the first answer again, or `keyReused`); a write that is stored keeps `admission.answer`
    /// under the key, within the byte budget all answers share. With `appendfsync always` the answer comes once the
    /// change is on disk.
    public func writePlaylist(
        _ name: String, definition: [UInt8]?, expected: PlaylistExpectation, maximum: Int,
        admission: PlaylistWriteAdmission = PlaylistWriteAdmission()
    ) throws(RedisError) -> PlaylistWriteOutcome {
        // KEYS: the hash, the key's answer, the client's bucket, the answers' budget. ARGV: name, definition ("" to
        // delete), If-Match mode and bytes, limit, channel, writes per minute, request digest ("" = no key), answer,
        // expiry seconds, budget bytes.
        let script =
            WriteScript.admission(limit: "ARGV[7]", bucket: "KEYS[3]", digest: "ARGV[8]", answers: "KEYS[2]") + """
            local current = redis.call('HGET', KEYS[1], ARGV[1])
            if ARGV[3] == '*' and not current then return {'precondition_failed'} end
            if ARGV[3] == '!' and current then return {'precondition_failed'} end
            if ARGV[3] == '=' and current ~= ARGV[4] then return {'precondition_failed'} end
            if ARGV[2] == '' then
              if not current then return {'not_found'} end
              redis.call('HDEL', KEYS[1], ARGV[1])
            else
              if not current and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then return {'limit_exceeded'} end
              redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            end
            redis.call('PUBLISH', ARGV[6], ARGV[1])
            \(WriteScript.remember(digest: "ARGV[8]", answer: "ARGV[9]", answers: "KEYS[2]", expiry: "ARGV[10]", budget: "ARGV[11]", index: "KEYS[4]"))
            return {'written'}
            """
        let mode: String
        var bytes: [UInt8] = []
        switch expected {
        case .none: mode = ""
        case .exists: mode = "*"
        case .absent: mode = "!"
        case .definition(let held):
            mode = "="
            bytes = held
        }
        let key = admission.idempotency
        let keys: [String] = [
            PlaylistKeys.hash, PlaylistKeys.idempotency(key?.key ?? ""), PlaylistKeys.rate(admission.client),
            BoardKeys.idempotencyBudget,
        ]
        let limits: [String] = [
            String(maximum), PlaylistKeys.channel, String(admission.rateLimitPerMinute),
            key.map { Hex.encode($0.requestDigest) } ?? "",
        ]
        let expiry: [String] = [String(admission.idempotencySeconds), String(admission.idempotencyBytes)]
        // A deletion is an empty definition: a stored one never is (it is a JSON object).
        var arguments: [[UInt8]] = (["EVAL", script, "4"] + keys + [name]).map { Array($0.utf8) }
        arguments += [definition ?? [], Array(mode.utf8), bytes]
        arguments += limits.map { Array($0.utf8) }
        arguments.append(admission.answer)
        arguments += expiry.map { Array($0.utf8) }
        let reply = try command(arguments)
        func unexpected() -> RedisError { .unexpectedReply("the playlist write answered \(reply)") }
        guard let parts = reply.array, let kind = parts.first?.string else { throw unexpected() }
        switch kind {
        case "written": return .written
        case "precondition_failed": return .preconditionFailed
        case "not_found": return .notFound
        case "limit_exceeded": return .limitExceeded
        case "key_reused": return .keyReused
        case "rate_limited":
            guard parts.count == 2, let wait = parts[1].integer else { throw unexpected() }
            return .rateLimited(retryAfter: Int(wait))
        case "replay":
            guard parts.count == 2, let answer = parts[1].bytes else { throw unexpected() }
            return .replay(answer: answer)
        default: throw unexpected()
        }
    }
}
