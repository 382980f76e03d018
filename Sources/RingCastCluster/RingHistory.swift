/// A cluster's history of one ring (issue 33), kept by the write script in the sorted set `rc:{BOARD}:history:RING`
/// (`BoardKeys.history(ring:)`): scored by the write's start in milliseconds since the Unix epoch, each member
/// `REVISION VALUE STATUS` (the revision zero-padded to 20 digits, so members of one millisecond sort by it; the value
/// as Swift's shortest round-trip decimal; the status empty for none). Every node reads the same set, so every node
/// answers with the same points.
public enum RingHistory {
    /// One point as the write script stores it and a read returns it.
    public struct Point: Sendable, Equatable {
        public var ring: String
        public var milliseconds: Int64
        public var revision: Int64
        public var value: Double
        public var status: String?

        public init(ring: String, milliseconds: Int64, revision: Int64, value: Double, status: String?) {
            self.ring = ring
            self.milliseconds = milliseconds
            self.revision = revision
            self.value = value
            self.status = status
        }

        /// The sorted set's member.
        var member: String {
            let digits = String(revision)
            return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + " \(value) " + (status ?? "")
        }

        /// The point of `member` scored `milliseconds`; nil for anything else.
        init?(ring: String, milliseconds: Int64, member: String) {
            let parts = member.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let revision = Int64(parts[0]), let value = Double(parts[1]), value.isFinite else {
                return nil
            }
            self.init(
                ring: ring, milliseconds: milliseconds, revision: revision, value: value,
                status: parts[2].isEmpty ? nil : String(parts[2]))
        }
    }

    /// How much of each ring's history the write script keeps: points no older than `seconds` before the newest
    /// write's start, at most the newest `points` (0 in either: none).
    public struct Bound: Sendable, Equatable {
        public var seconds: Int64
        public var points: Int64

        public init(seconds: Int64, points: Int64) {
            self.seconds = seconds
            self.points = points
        }

        public var isOff: Bool { seconds <= 0 || points <= 0 }
    }
}

extension RedisConnection {
    /// The newest `bound.points` points of `ring`'s history from millisecond `since` through `until` that are no older
    /// than `bound.seconds` before `now`, oldest first.
    public func history(
        board: String, ring: String, since: Int64, until: Int64, now: Int64, bound: RingHistory.Bound
    ) throws(RedisError) -> [RingHistory.Point] {
        guard !bound.isOff else { return [] }
        let oldest = max(since, now - bound.seconds * 1_000)
        guard oldest <= until else { return [] }
        let reply = try command([
            "ZREVRANGEBYSCORE", BoardKeys(board: board).history(ring: ring), String(until), String(oldest), "WITHSCORES",
            "LIMIT", "0", String(bound.points),
        ])
        guard let items = reply.array, items.count % 2 == 0 else {
            throw RedisError.unexpectedReply("ZREVRANGEBYSCORE answered \(reply)")
        }
        var points: [RingHistory.Point] = []
        points.reserveCapacity(items.count / 2)
        var index = items.count - 2
        while index >= 0 {
            guard let member = items[index].string, let score = items[index + 1].string, let milliseconds = Int64(score),
                let point = RingHistory.Point(ring: ring, milliseconds: milliseconds, member: member)
            else {
                throw RedisError.unexpectedReply("a history point \(items[index]) scored \(items[index + 1])")
            }
            points.append(point)
            index -= 2
        }
        return points
    }
}
