/// One accepted target of a ring, as its history keeps it (issue 33): the tick the change started at, the target
/// (progress, or the value of a ring with a `max`) and the status it set, if any.
public struct HistoryPoint: Sendable, Hashable, Codable {
    public var tick: Int64
    public var value: Double
    public var status: String?

    public init(tick: Int64, value: Double, status: String? = nil) {
        self.tick = tick
        self.value = value
        self.status = status
    }
}

/// How much of a ring's history is kept: points no older than `seconds` before now, and at most the newest `points`
/// (config `history`, a board's own `history`; 0 in either turns history off). The store and the write script keep
/// it (`HistoryBound`, `RingHistory.Bound`: the same two numbers in the modules that cannot see this one).
public struct HistoryRetention: Sendable, Hashable {
    public var seconds: Int
    public var points: Int

    public init(seconds: Int, points: Int) {
        self.seconds = seconds
        self.points = points
    }

    /// What `spec` keeps: this, or what the board's own `history` gives instead.
    public func of(_ spec: BoardSpec) -> HistoryRetention {
        spec.history?.applied(to: self) ?? self
    }
}
