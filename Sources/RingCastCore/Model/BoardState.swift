/// A board's whole state at a tick, as stored: the targets and every running animation, so a restart (or
/// another process) continues the same frames on the tick grid instead of jumping to the targets.
///
/// Times inside are seconds since the board's `epoch` tick (`Board` time), so every number that enters a
/// frame comes back bit for bit: Swift prints a `Double` with the fewest digits that read back to the same
/// value. docs/STORAGE.md documents the format; `format` changes whenever its meaning does.
public struct BoardState: Codable, Sendable, Equatable {
    /// The format this build writes; it reads this one and the ones in `readableFormats`.
    /// 2: `spec`, a board's structure set through the API, and `deleted`.
    /// 3: `spec`'s rings in the one shape of a ring definition (`RingSpec+Codable`), its kind a name beside the
    /// kind's own keys; formats 1 and 2 read their rings in the older shape (`LegacyRingSpec`).
    public static let currentFormat = 3
    public static let readableFormats: ClosedRange<Int> = 1...3

    public var format: Int
    public var board: String
    /// Ticks per second of the grid `epoch` is on.
    public var fps: Int
    /// The tick at which board time is 0.
    public var epoch: Int64
    public var revision: Int64
    /// Plain rings that hold pushed values, by id.
    public var rings: [String: Ring]
    public var background: Backdrop
    public var countdown: CountdownState?
    /// The board's rings and placement when they were set through the API (a board created or reshaped at
    /// runtime); nil: the configuration's.
    public var spec: BoardSpec?
    /// The board was deleted through the API (and stays deleted, even if the configuration names it, until a
    /// PUT creates it again). Only `revision` is kept alongside, so ETags stay unique.
    public var deleted: Bool?
    /// When the board and each ring last received a write (stale data, DESIGN §13); absent in states stored
    /// before it existed, which load as written at `epoch` (`Freshness`).
    public var written: Written?
    /// The newest points of each ring whose label reads its history (`rate`, `eta`: `RecentHistory`), ticks on the
    /// state's `fps` grid; absent when there are none (and in states stored before them).
    public var recent: [String: [HistoryPoint]]?

    /// A plain ring's or a widget's pushed values.
    public struct Ring: Codable, Sendable, Equatable {
        /// Progress; a counter's number.
        public var progress: Value?
        /// Gradient start and end (a gradient widget's 2 to 8 colours), when a push set them.
        public var colors: [Color]?
        public var labelColor: Color?
        /// A text widget's wave, 0 → 1 (absent in states written before widgets).
        public var wave: Value?
        /// The status (`RingStatus`'s name) whose colours a push set `colors` to; absent otherwise, and in states
        /// written before statuses.
        public var status: String?
        /// Thresholds a push set, which colour the ring instead of `colors`.
        public var thresholds: Thresholds?
        /// Where a thresholds-coloured ring's colours continue from (`ThresholdTrail`).
        public var trail: Trail?

        public init(
            progress: Value? = nil, colors: [Color]? = nil, labelColor: Color? = nil, wave: Value? = nil,
            status: String? = nil, thresholds: Thresholds? = nil, trail: Trail? = nil
        ) {
            self.progress = progress
            self.colors = colors
            self.labelColor = labelColor
            self.wave = wave
            self.status = status
            self.thresholds = thresholds
            self.trail = trail
        }
    }

    /// A thresholds-coloured ring's trail: the board time of the change it starts at, and the gradient's start
    /// and end as they moved then.
    public struct Trail: Codable, Sendable, Equatable {
        public var since: Double
        public var colors: [Color]
    }

    /// One animatable number: the target, what runs under the segments, and the blended timing curves.
    public struct Value: Codable, Sendable, Equatable {
        public var target: Double
        /// A value at rest (`rest`) or a running spring (`spring`), exactly one of them.
        public var rest: Double?
        public var spring: SpringState?
        public var segments: [Segment]
    }

    public struct SpringState: Codable, Sendable, Equatable {
        public var response: Double
        public var dampingFraction: Double
        public var start: Double
        /// The value and velocity it started from, and where it goes.
        public var from: Double
        public var velocity: Double
        public var target: Double
        /// Passes after the first (docs/ANIMATION.md); absent: one pass, as every earlier build stored.
        public var repetition: RepetitionState?
    }

    public struct Segment: Codable, Sendable, Equatable {
        public var start: Double
        public var duration: Double
        /// Cubic Bézier control points x1, y1, x2, y2.
        public var curve: [Double]
        public var target: Double
        /// Passes of `duration` each (docs/ANIMATION.md); absent: one pass, as every earlier build stored.
        public var repetition: RepetitionState?
    }

    /// A repeating animation's passes: `{"count":3,"autoreverse":true}` or `{"forever":true,"autoreverse":false}`.
    public struct RepetitionState: Codable, Sendable, Equatable {
        /// How many passes, in `Limits.repeatCounts`; absent when `forever`.
        public var count: Int?
        /// true: passes without end; absent with a `count`.
        public var forever: Bool?
        /// Odd passes (0-based) run backwards.
        public var autoreverse: Bool
    }

    /// Red, green, blue and alpha, gamma-encoded sRGB in 0...1, each animating.
    public typealias Color = [Value]

    public struct Backdrop: Codable, Sendable, Equatable {
        /// Red, green, blue, alpha of the colour under the layers.
        public var base: [Double]
        public var layers: [Layer]
    }

    public struct Layer: Codable, Sendable, Equatable {
        public var color: [Double]
        /// `leftToRight`, `rightToLeft`, `topToBottom`, `bottomToTop`, `circle`, or `angle` with `angle` set.
        public var style: String
        public var angle: Double?
        public var progress: Value
    }

    public struct CountdownState: Codable, Sendable, Equatable {
        public var seconds: Double
        public var start: Double
        /// false: the stroke jumps once per whole second (`Countdown.animated`); absent (nil) means true, so
        /// states stored before the option existed, and every animated countdown, read and write as before.
        public var animated: Bool?

        public init(seconds: Double, start: Double, animated: Bool? = nil) {
            self.seconds = seconds
            self.start = start
            self.animated = animated
        }
    }
}

/// A stored state that cannot be used: which key, and what is wrong with it.
public struct BoardStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key path inside the state (`rings.move.progress.segments.0.duration`).
    public var key: String
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "\(key): \(message)" }
}

// MARK: - Bounds

extension BoardState {
    /// The largest tick or epoch accepted: JavaScript's safe integers.
    public static let maximumInteger: Int64 = 1 << 53
    /// The largest revision accepted: whatever adds to it later stays far from overflow.
    public static let maximumRevision: Int64 = 1 << 62
    /// Running timing curves a stored value may hold (pushes of the last minute, at most).
    static let maximumSegments = 100_000

    static func check(_ value: Double, _ key: String, _ range: ClosedRange<Double>) throws(BoardStateError) {
        guard value.isFinite, range.contains(value) else {
            throw BoardStateError(
                key: key, message: "must be a number from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
    }

    static func checkPositive(_ value: Double, _ key: String, maximum: Double) throws(BoardStateError) {
        guard value.isFinite, value > 0, value <= maximum else {
            throw BoardStateError(key: key, message: "must be more than 0 and at most \(maximum), got \(value)")
        }
    }

    /// Board times: any finite number of seconds within the range the integers allow.
    static func checkTime(_ value: Double, _ key: String) throws(BoardStateError) {
        try check(value, key, -Double(maximumInteger)...Double(maximumInteger))
    }
}

extension BoardState {
    /// What the store keeps of a board deleted through the API: that it was deleted, and its last
    /// revision.
    public static func tombstone(of board: String, revision: Int64, fps: Int) -> BoardState {
        BoardState(
            format: currentFormat, board: board, fps: fps, epoch: 0, revision: revision, rings: [:],
            background: Backdrop(base: [0, 0, 0, 1], layers: []), countdown: nil, spec: nil, deleted: true)
    }
}
