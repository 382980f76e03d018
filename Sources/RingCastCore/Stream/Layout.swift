/// The `layout` message: a board's rings — what each one is and how big — and the arrangements that
/// place them, sent on connect and again whenever the board's structure changes (docs/PROTOCOL.md).
///
/// Geometry that depends on where a ring sits lives only in `arrangements`; the page draws the one
/// whose aspect ratio fits its window. A ring's radius and thickness are the same in every
/// arrangement and frames are relative to each ring's centre, so one frame serves all of them.
public struct Layout: Sendable, Equatable, Encodable {
    /// What a ring is, whichever arrangement places it.
    public struct Ring: Sendable, Equatable, Encodable {
        public var id: String
        public var title: String
        /// "plain", "derived" or "countdown".
        public var kind: String
        public var r: Double
        public var thickness: Double
        public var track: RGBAColor
        /// The title's colour; nil: automatic, drawn in the frame's `background.text` (encoded as `null`).
        public var titleColor: RGBAColor?
        /// A widget's sizes and format; nil for a ring, whose entry keeps exactly the keys it had.
        public var widget: WidgetLayout?
        /// How a countdown ring is drawn when not as a ring: "seed" (seed 004's look); nil (no key): as a ring.
        public var style: String?

        public init(
            id: String,
            title: String,
            kind: String,
            r: Double,
            thickness: Double,
            track: RGBAColor,
            titleColor: RGBAColor?,
            widget: WidgetLayout? = nil,
            style: String? = nil
        ) {
            self.id = id
            self.title = title
            self.kind = kind
            self.r = r
            self.thickness = thickness
            self.track = track
            self.titleColor = titleColor
            self.widget = widget
            self.style = style
        }

        private enum CodingKeys: String, CodingKey {
            case id, title, kind, r, thickness, track, titleColor, style
            case digits, decimals, sign, grouping, unit, waveWidth, lineWidth, dash, dashPhase, width, height, corner
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(kind, forKey: .kind)
            try container.encode(r, forKey: .r)
            try container.encode(thickness, forKey: .thickness)
            try container.encode(track, forKey: .track)
            // `encode` rather than `encodeIfPresent`: an automatic title colour is `null`, not a missing key.
            try container.encode(titleColor, forKey: .titleColor)
            // Only when set: the layouts of boards without a styled countdown stay as they were, byte for byte.
            try container.encodeIfPresent(style, forKey: .style)
            switch widget {
            case nil: break
            case .counter(let format):
                try container.encode(format.digits, forKey: .digits)
                try container.encode(format.decimals, forKey: .decimals)
                try container.encode(format.sign, forKey: .sign)
                try container.encode(format.grouping, forKey: .grouping)
                try container.encode(format.unit, forKey: .unit)
            case .text(let waveWidth):
                try container.encode(waveWidth, forKey: .waveWidth)
            case .indicator(let lineWidth, let dash, let dashPhase):
                try container.encode(lineWidth, forKey: .lineWidth)
                try container.encode(dash, forKey: .dash)
                try container.encode(dashPhase, forKey: .dashPhase)
            case .gradient(let width, let height, let corner):
                try container.encode(width, forKey: .width)
                try container.encode(height, forKey: .height)
                try container.encode(corner, forKey: .corner)
            }
        }
    }

    /// Where one ring and its texts go in one arrangement. `r` and `thickness` repeat the ring's, so
    /// that a reader of one arrangement has a ring's whole footprint in one place.
    public struct Placement: Sendable, Equatable, Encodable {
        public var id: String
        public var cx: Double
        public var cy: Double
        public var r: Double
        public var thickness: Double
        public var titleText: TextSpec
        public var labelText: TextSpec

        public init(
            id: String, cx: Double, cy: Double, r: Double, thickness: Double, titleText: TextSpec, labelText: TextSpec
        ) {
            self.id = id
            self.cx = cx
            self.cy = cy
            self.r = r
            self.thickness = thickness
            self.titleText = titleText
            self.labelText = labelText
        }
    }

    /// One way of placing every ring on a canvas of `width` × `height` logical units.
    public struct Arrangement: Sendable, Equatable, Encodable {
        /// `landscape` or `portrait`.
        public var name: String
        public var width: Double
        public var height: Double
        /// One per ring, in the layout's ring order.
        public var rings: [Placement]

        public init(name: String, width: Double, height: Double, rings: [Placement]) {
            self.name = name
            self.width = width
            self.height = height
            self.rings = rings
        }
    }

    public var board: String
    /// Shown in the page's header and the board index.
    public var title: String
    public var background: RGBAColor
    /// In drawing order; frames and arrangements list rings in this order.
    public var rings: [Ring]
    /// At least one; the first is the board's own (`landscape`). A splash layer carries one shape per
    /// arrangement, in this order.
    public var arrangements: [Arrangement]

    public init(board: String, title: String, background: RGBAColor, rings: [Ring], arrangements: [Arrangement]) {
        self.board = board
        self.title = title
        self.background = background
        self.rings = rings
        self.arrangements = arrangements
    }

    private enum CodingKeys: String, CodingKey {
        case type, board, title, background, rings, arrangements
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("layout", forKey: .type)
        try container.encode(board, forKey: .board)
        try container.encode(title, forKey: .title)
        try container.encode(background, forKey: .background)
        try container.encode(rings, forKey: .rings)
        try container.encode(arrangements, forKey: .arrangements)
    }
}
