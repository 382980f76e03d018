/// The `layout` message: a board's logical size and each ring's static geometry, sent on connect
/// (contract: protocol-json.md).
public struct Layout: Sendable, Equatable, Encodable {
    /// One ring's static geometry and text placement.
    public struct Ring: Sendable, Equatable, Encodable {
        public var id: String
        public var title: String
        /// "plain", "derived" or "countdown".
        public var kind: String
        public var cx: Double
        public var cy: Double
        public var r: Double
        public var thickness: Double
        public var track: RGBAColor
        /// The title's colour; nil: automatic, drawn in the frame's `background.text` (encoded as `null`).
        public var titleColor: RGBAColor?
        public var titleText: TextSpec
        public var labelText: TextSpec

        public init(
            id: String,
            title: String,
            kind: String,
            cx: Double,
            cy: Double,
            r: Double,
            thickness: Double,
            track: RGBAColor,
            titleColor: RGBAColor?,
            titleText: TextSpec,
            labelText: TextSpec
        ) {
            self.id = id
            self.title = title
            self.kind = kind
            self.cx = cx
            self.cy = cy
            self.r = r
            self.thickness = thickness
            self.track = track
            self.titleColor = titleColor
            self.titleText = titleText
            self.labelText = labelText
        }

        private enum CodingKeys: String, CodingKey {
            case id, title, kind, cx, cy, r, thickness, track, titleColor, titleText, labelText
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(kind, forKey: .kind)
            try container.encode(cx, forKey: .cx)
            try container.encode(cy, forKey: .cy)
            try container.encode(r, forKey: .r)
            try container.encode(thickness, forKey: .thickness)
            try container.encode(track, forKey: .track)
            // `encode` rather than `encodeIfPresent`: an automatic title colour is `null`, not a missing key.
            try container.encode(titleColor, forKey: .titleColor)
            try container.encode(titleText, forKey: .titleText)
            try container.encode(labelText, forKey: .labelText)
        }
    }

    public var board: String
    public var width: Double
    public var height: Double
    public var background: RGBAColor
    public var rings: [Ring]

    public init(board: String, width: Double, height: Double, background: RGBAColor, rings: [Ring]) {
        self.board = board
        self.width = width
        self.height = height
        self.background = background
        self.rings = rings
    }

    private enum CodingKeys: String, CodingKey {
        case type, board, width, height, background, rings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("layout", forKey: .type)
        try container.encode(board, forKey: .board)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(background, forKey: .background)
        try container.encode(rings, forKey: .rings)
    }
}
