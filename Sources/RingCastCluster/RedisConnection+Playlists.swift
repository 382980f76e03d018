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

    /// Stores `definition` as the playlist `name` (nil: deletes it), if `expected` holds (`If-Match`, `If-None-Match`) and, for a new one, fewer
    /// than `maximum` are stored; announces the name on `PlaylistKeys.channel`. Atomic (one script), so two nodes
    /// writing at once never both pass `If-Match` or the limit. With `appendfsync always` the answer comes once the
    /// change is on disk.
    public func writePlaylist(
        _ name: String, definition: [UInt8]?, expected: PlaylistExpectation, maximum: Int
    ) throws(RedisError) -> PlaylistWriteOutcome {
        let script = """
            local current = redis.call('HGET', KEYS[1], ARGV[1])
            if ARGV[3] == '*' and not current then return 'precondition_failed' end
            if ARGV[3] == '!' and current then return 'precondition_failed' end
            if ARGV[3] == '=' and current ~= ARGV[4] then return 'precondition_failed' end
            if ARGV[2] == '' then
              if not current then return 'not_found' end
              redis.call('HDEL', KEYS[1], ARGV[1])
            else
              if not current and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then return 'limit_exceeded' end
              redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            end
            redis.call('PUBLISH', ARGV[6], ARGV[1])
            return 'written'
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
        // A deletion is an empty definition: a stored one never is (it is a JSON object).
        let reply = try command([
            Array("EVAL".utf8), Array(script.utf8), Array("1".utf8), Array(PlaylistKeys.hash.utf8), Array(name.utf8),
            definition ?? [], Array(mode.utf8), bytes, Array(String(maximum).utf8), Array(PlaylistKeys.channel.utf8),
        ])
        switch reply.string {
        case "written": return .written
        case "precondition_failed": return .preconditionFailed
        case "not_found": return .notFound
        case "limit_exceeded": return .limitExceeded
        default: throw RedisError.unexpectedReply("the playlist write answered \(reply)")
        }
    }
}
