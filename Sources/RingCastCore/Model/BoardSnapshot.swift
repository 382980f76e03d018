/// The body of `GET /api/v1/boards/{board}`: targets and presentation of every ring, at one instant.
///
/// `{"board":NAME,"title":T,"revision":N,"rings":[{"id","title","kind","target","progress","colors","animating","label",
/// "max","text","sources","countdown","status","thresholds"}],
/// "background":"#rrggbbaa","countdown":{"seconds":N,"remaining":R}}`, with `target` and `progress` `null` for
/// rings without data and `countdown` `null` when none is set; a ring's `countdown` (its options) only on a
/// countdown ring defined with some, the board's `countdown.animated` only when false; a ring's `status` and
/// `thresholds` only when it has them.
public struct BoardSnapshot: Sendable, Equatable, Encodable {
    public struct Ring: Sendable, Equatable, Encodable {
        public var id: String
        public var title: String
        /// "plain", "derived" or "countdown".
        public var kind: String
        /// Pushed progress (a derived ring: the mean of its sources' targets).
        public var target: Double?
        /// Displayed progress at the snapshot's instant.
        public var progress: Double?
        /// Target gradient colours, start and end: what a push set, else the configured ones.
        public var colors: [RGBAColor]
        /// Whether the ring's progress or colours are still moving.
        public var animating: Bool
        /// The label format, the ring's maximum, and the label as shown at the snapshot's instant.
        public var label: LabelFormat
        public var max: Double
        public var text: String
        /// A derived ring's sources; absent for the other kinds.
        public var sources: [String]?
        /// A countdown ring's options, when it was defined with any; absent otherwise.
        public var countdown: CountdownOptions?
        /// Stale data (DESIGN §13), each absent when unset: the ring's own `staleAfter`, when its newest write
        /// arrived (ISO 8601), and its stale text while it is stale (`Freshness`).
        public var staleAfter: Int?
        public var updatedAt: String?
        public var stale: String?
        /// The status whose colours the ring shows; absent without one.
        public var status: RingStatus?
        /// The thresholds that colour the ring (`colors` is then the band of `target`); absent without any.
        public var thresholds: Thresholds?

        public init(
            id: String,
            title: String,
            kind: String,
            target: Double?,
            progress: Double?,
            colors: [RGBAColor],
            animating: Bool,
            label: LabelFormat = .percent,
            max: Double = RingSpec.defaultMaximum,
            text: String = "",
            sources: [String]? = nil,
            countdown: CountdownOptions? = nil,
            status: RingStatus? = nil,
            thresholds: Thresholds? = nil
        ) {
            self.id = id
            self.title = title
            self.kind = kind
            self.target = target
            self.progress = progress
            self.colors = colors
            self.animating = animating
            self.label = label
            self.max = max
            self.text = text
            self.sources = sources
            self.countdown = countdown
            self.status = status
            self.thresholds = thresholds
        }

        private enum CodingKeys: String, CodingKey {
            case id, title, kind, target, progress, colors, animating, label, max, text, sources, countdown
            case staleAfter, updatedAt, stale
            case status, thresholds
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(kind, forKey: .kind)
            // `null` rather than a missing key: "no data" is part of the answer.
            try container.encode(target, forKey: .target)
            try container.encode(progress, forKey: .progress)
            try container.encode(colors, forKey: .colors)
            try container.encode(animating, forKey: .animating)
            // A countdown ring shows the seconds left whatever its format (tenths with its `tenths` option), and
            // says so: `"seconds"`, which its definition accepts back (`RequestField.label`).
            if kind == "countdown" {
                try container.encode(LabelFormat.countdownName, forKey: .label)
            } else {
                try container.encode(label, forKey: .label)
            }
            try container.encode(max, forKey: .max)
            try container.encode(text, forKey: .text)
            try container.encodeIfPresent(sources, forKey: .sources)
            try container.encodeIfPresent(countdown, forKey: .countdown)
            try container.encodeIfPresent(staleAfter, forKey: .staleAfter)
            try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
            try container.encodeIfPresent(stale, forKey: .stale)
            try container.encodeIfPresent(status, forKey: .status)
            try container.encodeIfPresent(thresholds, forKey: .thresholds)
        }
    }

    /// The countdown: its length and the seconds left (0 once it has ended).
    public struct Countdown: Sendable, Equatable, Encodable {
        public var seconds: Double
        public var remaining: Double
        /// false for a countdown started with `"animated":false`; nil (no key) otherwise.
        public var animated: Bool?

        public init(seconds: Double, remaining: Double, animated: Bool? = nil) {
            self.seconds = seconds
            self.remaining = remaining
            self.animated = animated
        }
    }

    public var board: String
    public var title: String
    public var revision: Int
    public var rings: [Ring]
    /// The background colour at rest: the newest pushed one, else the configured one.
    public var background: RGBAColor
    public var countdown: Countdown?
    /// Stale data (DESIGN §13), each absent when unset: the board's `staleAfter`, when its newest write arrived
    /// (ISO 8601), and the stale text of rings without their own `staleAfter` while the board is stale.
    public var staleAfter: Int?
    public var updatedAt: String?
    public var stale: String?

    public init(
        board: String, title: String? = nil, revision: Int, rings: [Ring], background: RGBAColor, countdown: Countdown? = nil
    ) {
        self.board = board
        self.title = title ?? board
        self.revision = revision
        self.rings = rings
        self.background = background
        self.countdown = countdown
    }

    private enum CodingKeys: String, CodingKey {
        case board, title, revision, rings, background, countdown
        case staleAfter, updatedAt, stale
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(board, forKey: .board)
        try container.encode(title, forKey: .title)
        try container.encode(revision, forKey: .revision)
        try container.encode(rings, forKey: .rings)
        try container.encode(background, forKey: .background)
        // `null` rather than a missing key, like a ring without data.
        try container.encode(countdown, forKey: .countdown)
        try container.encodeIfPresent(staleAfter, forKey: .staleAfter)
        try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(stale, forKey: .stale)
    }

    /// The response body, UTF-8 JSON with sorted keys; throws only if a value were not finite, which a board
    /// never holds.
    public func jsonBody() throws(EncodingFailure) -> [UInt8] {
        try JSONBytes.encode(self)
    }
}
