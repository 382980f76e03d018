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
/// (config `history`; 0 in either turns history off).
public struct HistoryRetention: Sendable, Hashable {
    public var seconds: Int
    public var points: Int

    /// Seven days and 10,000 points a ring.
    public static let standard = HistoryRetention(seconds: 7 * 24 * 3600, points: 10_000)

    public init(seconds: Int, points: Int) {
        self.seconds = seconds
        self.points = points
    }

    public var isOff: Bool { seconds <= 0 || points <= 0 }

    /// What `spec` keeps: this, or what the board's own `history` gives instead.
    public func of(_ spec: BoardSpec) -> HistoryRetention {
        spec.history?.applied(to: self) ?? self
    }

    /// The first tick a point may have and be kept at `now`, on a grid of `fps`.
    public func oldestTick(now: Int64, fps: Int) -> Int64 {
        now - Int64(seconds) * Int64(fps)
    }

    /// `history` (in tick order) as kept at `now`: exactly the points older than the window go, then the oldest of
    /// those left beyond `points`.
    public func kept(_ history: [HistoryPoint], now: Int64, fps: Int) -> ArraySlice<HistoryPoint> {
        guard !isOff else { return [] }
        let oldest = oldestTick(now: now, fps: fps)
        let first = history.partitioningIndex { $0.tick >= oldest }
        return history[max(first, history.count - points)...]
    }
}

extension RandomAccessCollection {
    /// The index of the first element for which `isAfter` holds, the collection being partitioned (false, then true).
    func partitioningIndex(where isAfter: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if isAfter(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
