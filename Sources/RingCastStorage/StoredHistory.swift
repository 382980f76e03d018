#if canImport(Glibc)
    import Glibc
#endif

/// What one write adds to and removes from its board's history (issue 33), stored in the write's own transaction
/// (with a logged change, or a new board's first snapshot): a point for each ring it gave a target, and the rings
/// whose history goes (rings the write removed).
public struct StoredHistory: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var ring: String
        /// The write's start tick in milliseconds since the Unix epoch (`StoredHistory.milliseconds(tick:fps:)`).
        public var milliseconds: Int64
        /// The revision the write made.
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
    }

    public var points: [Point]
    public var removedRings: [String]
    /// What the board keeps (its own `history`, or the server's); nil: the store's.
    public var bound: HistoryBound?

    public init(points: [Point] = [], removedRings: [String] = [], bound: HistoryBound? = nil) {
        self.points = points
        self.removedRings = removedRings
        self.bound = bound
    }

    public var isEmpty: Bool { points.isEmpty && removedRings.isEmpty }

    /// The milliseconds since the Unix epoch of tick `tick` on a grid of `fps`, rounded: a point's time, whatever the
    /// fps.
    public static func milliseconds(tick: Int64, fps: Int) -> Int64 {
        let fps = Int64(max(1, fps))
        let scaled = tick.multipliedReportingOverflow(by: 1_000)
        guard !scaled.overflow else { return tick / fps * 1_000 }
        return (scaled.partialValue + (scaled.partialValue >= 0 ? fps / 2 : -fps / 2)) / fps
    }
}

/// One stored point of a ring's history as a query reads it: when (milliseconds since the Unix epoch, the change's
/// start tick rounded), the revision of the change that set it, its value and status.
public struct HistoryRow: Sendable, Equatable {
    public var milliseconds: Int64
    public var revision: Int64
    public var value: Double
    public var status: String?

    public init(milliseconds: Int64, revision: Int64, value: Double, status: String?) {
        self.milliseconds = milliseconds
        self.revision = revision
        self.value = value
        self.status = status
    }
}

/// How much of each ring's history a store keeps (config `history`): a query reads exactly the points no older than
/// `seconds` and, of those, the newest `points`; what is beyond goes from disk lazily, once a ring holds `slack`
/// more points than it keeps (and with each snapshot of its board, for what is too old), so that a ring's points on
/// disk stay below `points + slack` and two blocks (`HistoryBlock`) without a delete on every write.
public struct HistoryBound: Sendable, Equatable {
    public var seconds: Int64
    public var points: Int64

    public init(seconds: Int64, points: Int64) {
        self.seconds = seconds
        self.points = points
    }

    /// History off: nothing is stored.
    public var isOff: Bool { seconds <= 0 || points <= 0 }

    /// How many points beyond `points` a ring may hold on disk before they are deleted: a tenth, between 16 and
    /// 1,000.
    public var slack: Int64 { min(1_000, max(16, points / 10)) }

    /// Seven days, 10,000 points a ring.
    public static let standard = HistoryBound(seconds: 7 * 86_400, points: 10_000)

    /// The first millisecond since the Unix epoch a point it keeps may have, now.
    var oldestKeptMillisecond: Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int64(now.tv_sec) - max(0, seconds)) * 1_000
    }
}

/// A query of one ring's history: the points kept now (`HistoryBound`) from `since` through `until` (milliseconds
/// since the Unix epoch, both included).
public struct HistoryQuery: Sendable, Equatable {
    public var board: String
    public var ring: String
    public var since: Int64
    public var until: Int64
    /// What the board keeps (its own `history`, or the server's); nil: the store's.
    public var bound: HistoryBound?

    public init(board: String, ring: String, since: Int64 = .min, until: Int64 = .max, bound: HistoryBound? = nil) {
        self.board = board
        self.ring = ring
        self.since = since
        self.until = until
        self.bound = bound
    }
}
