extension RedisConnection {
    /// The names of every board with state in Redis (`rc:{BOARD}:state`), by SCAN, so that Redis
    /// never blocks on a long KEYS.
    public func boardNames() throws(RedisError) -> [String] {
        var names: Set<String> = []
        var cursor = "0"
        repeat {
            let reply = try command(["SCAN", cursor, "MATCH", "rc:{*}:state", "COUNT", "1000"])
            guard let parts = reply.array, parts.count == 2, let next = parts[0].string, let keys = parts[1].array else {
                throw RedisError.unexpectedReply("SCAN answered \(reply)")
            }
            for key in keys {
                guard let name = key.string.flatMap(BoardKeys.board(ofStateKey:)) else { continue }
                names.insert(name)
            }
            cursor = next
        } while cursor != "0"
        return names.sorted()
    }

    /// The cluster's id, `rc:cluster`: made by the first node that asks (SET NX of `candidate`) and
    /// the same for every node afterwards, until the data is lost. Part of every ETag, so that a
    /// tag of a dataset Redis lost never names a state of the next one.
    public func clusterID(candidate: String) throws(RedisError) -> String {
        _ = try command(["SET", BoardKeys.cluster, candidate, "NX"])
        guard let id = try command(["GET", BoardKeys.cluster]).string else {
            throw RedisError.unexpectedReply("GET \(BoardKeys.cluster) answered nothing right after SET NX")
        }
        return id
    }

    /// Replaces the cluster's id with `candidate` if it is still `replacing` (or gone), and announces the new id
    /// on `BoardKeys.clusterChannel`; returns the id Redis holds afterwards. Atomic (one script), so that nodes
    /// that find Redis behind them at the same time all end on one new id.
    public func renewClusterID(replacing: String, candidate: String) throws(RedisError) -> String {
        let script = """
            local id = redis.call('GET', KEYS[1])
            if id == false or id == ARGV[1] then
              redis.call('SET', KEYS[1], ARGV[2])
              redis.call('PUBLISH', ARGV[3], ARGV[2])
              return ARGV[2]
            end
            return id
            """
        let reply = try command(["EVAL", script, "1", BoardKeys.cluster, replacing, candidate, BoardKeys.clusterChannel])
        guard let id = reply.string else { throw RedisError.unexpectedReply("the renewal of the cluster's id answered \(reply)") }
        return id
    }

    /// A harmless write (SET of a short-lived key of this node): unlike PING it fails while Redis refuses writes
    /// (out of memory, a read-only replica), so it tells when writes work again.
    public func probeWrite(node: String) throws(RedisError) {
        let reply = try command(["SET", "rc:probe:write:" + node, "1", "PX", "10000"])
        guard reply.string == "OK" else { throw RedisError.unexpectedReply("SET of the write probe answered \(reply)") }
    }

    /// PING's round trip.
    public func ping() throws(RedisError) -> Duration {
        let clock = ContinuousClock()
        let started = clock.now
        let reply = try command(["PING"])
        guard reply.string == "PONG" else { throw RedisError.unexpectedReply("PING answered \(reply)") }
        return clock.now - started
    }
}

extension BoardKeys {
    /// The key holding the cluster's id (`RedisConnection.clusterID`).
    public static let cluster = "rc:cluster"

    /// The channel on which a replaced cluster id is announced (`RedisConnection.renewClusterID`).
    public static let clusterChannel = "rc:cluster:id"

    /// The board whose `state` key is `key`, or nil for any other key.
    public static func board(ofStateKey key: String) -> String? {
        board(of: key, suffix: "}:state")
    }

    /// The board whose `updates` channel is `channel`, or nil for any other channel.
    public static func board(ofUpdatesChannel channel: String) -> String? {
        board(of: channel, suffix: "}:updates")
    }

    private static func board(of name: String, suffix: String) -> String? {
        guard name.hasPrefix("rc:{"), name.hasSuffix(suffix), name.utf8.count > 4 + suffix.utf8.count else { return nil }
        return String(name.dropFirst(4).dropLast(suffix.count))
    }

    /// PSUBSCRIBE's pattern for every board's `updates` channel, boards created later included.
    public static let allUpdates = "rc:{*}:updates"
}
