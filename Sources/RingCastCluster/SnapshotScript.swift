/// Writes a board's whole state as its snapshot in Redis, with the revision it covers, and trims the stream to what
/// the snapshot does not cover (and the newest entries the write script keeps anyway): one Lua script, atomic.
///
/// A write stores only its change (`WriteScript`); one node now and then stores the state the changes have made
/// (docs/CLUSTER.md, "Snapshots"). The snapshot is taken only if it is newer than the one Redis holds, the revision
/// it covers is still in the stream, and that entry's digest is the one the writing node holds for it: a node that
/// fell behind, or that followed a history Redis has since left (a rollback), changes nothing.
///
/// A node that composed frames past the revision's start tick has dropped the animations that ended by then, which
/// decides how a change starting before that tick applies (it finds the board at rest, or not): such a snapshot is
/// good only for changes starting after those frames, so it is taken only while its revision is the newest (`newest`):
/// a later write starts `cluster.leadMilliseconds` after its node's now, after any frame composed before it.
///
/// KEYS[1] `rc:{B}:state`, KEYS[2] `rc:{B}:stream`; ARGV[1] the revision covered, ARGV[2] its digest as hex, ARGV[3]
/// the state's bytes, ARGV[4] the stream entries kept at least, ARGV[5] "1" when the revision must be the newest.
/// Returns `{"written"}`, `{"stale", covers}` (Redis holds as new a snapshot, the revision is not in the stream, or not
/// the newest when it must be) or `{"other_history"}`.
public enum SnapshotScript {
    public static let source = """
        local revision = tonumber(ARGV[1])
        local head = tonumber(redis.call('HGET', KEYS[1], 'revision') or '0')
        local covers = tonumber(redis.call('HGET', KEYS[1], 'snapshotRevision') or '0')
        if revision <= covers or revision > head then return {'stale', covers} end
        if ARGV[5] == '1' and revision ~= head then return {'stale', covers} end
        local entry = redis.call('XRANGE', KEYS[2], revision .. '-0', revision .. '-0')
        if #entry == 0 then return {'stale', covers} end
        local fields = entry[1][2]
        local digest = nil
        for index = 1, #fields, 2 do
          if fields[index] == 'digest' then digest = fields[index + 1] end
        end
        if digest ~= ARGV[2] then return {'other_history'} end
        redis.call('HSET', KEYS[1], 'snapshot', ARGV[3], 'snapshotRevision', revision)
        local keep = math.max(0, math.min(revision + 1, head - tonumber(ARGV[4]) + 1))
        redis.call('XTRIM', KEYS[2], 'MINID', '~', keep)
        return {'written'}
        """

    /// What the script did.
    public enum Outcome: Sendable, Equatable {
        case written
        /// Redis holds a snapshot of revision `covers` or newer, or the revision is no longer in the stream.
        case stale(covers: Int64)
        /// Redis's entry of that revision has another digest: another history.
        case otherHistory
    }
}

extension RedisConnection {
    /// Stores `state` as `board`'s snapshot at `revision` (whose digest this node holds as `digest`), unless Redis holds
    /// a newer one or another history, or (`newest`) a later revision (`SnapshotScript`); the stream then keeps at least
    /// `streamLength` entries.
    public func writeSnapshot(
        board: String, revision: Int64, digest: [UInt8], state: [UInt8], newest: Bool = false, streamLength: Int
    ) throws(RedisError) -> SnapshotScript.Outcome {
        let keys = BoardKeys(board: board)
        let text = ["EVAL", SnapshotScript.source, "2", keys.state, keys.stream, String(revision), Hex.encode(digest)]
        let reply = try command(
            text.map { Array($0.utf8) } + [state, Array(String(streamLength).utf8), Array((newest ? "1" : "").utf8)])
        guard let parts = reply.array, let kind = parts.first?.string else {
            throw RedisError.unexpectedReply("the snapshot script answered \(reply)")
        }
        switch kind {
        case "written": return .written
        case "stale": return .stale(covers: parts.count > 1 ? parts[1].integer ?? 0 : 0)
        case "other_history": return .otherHistory
        default: throw RedisError.unexpectedReply("the snapshot script answered \(reply)")
        }
    }
}
