/// One ring in one frame: everything the page needs to draw it, in logical units relative to the ring's
/// centre (angles in radians, 0 = 3 o'clock, clockwise positive). The page draws the ring translated to
/// where the arrangement it shows places it, so one frame serves every arrangement (docs/PROTOCOL.md).
public struct RingFrame: Sendable, Equatable, Encodable {
    /// The start-cap disc, its centre relative to the ring's.
    public struct Cap: Sendable, Equatable, Encodable {
        public var x: Double
        public var y: Double
        public var color: RGBAColor
        /// 0 < p ≤ 1: beyond one turn later turns cover the start.
        public var visible: Bool

        public init(x: Double, y: Double, color: RGBAColor, visible: Bool) {
            self.x = x
            self.y = y
            self.color = color
            self.visible = visible
        }
    }

    /// The tip's shadow (SwiftUI `.shadow(color: .black.opacity(alpha), radius: blur, x: dx, y: dy)`).
    public struct Shadow: Sendable, Equatable, Encodable {
        public var dx: Double
        public var dy: Double
        public var blur: Double
        public var alpha: Double

        public init(dx: Double, dy: Double, blur: Double, alpha: Double) {
            self.dx = dx
            self.dy = dy
            self.blur = blur
            self.alpha = alpha
        }
    }

    /// The end-cap disc (the seeds' `RingTip`), its centre relative to the ring's.
    public struct Tip: Sendable, Equatable, Encodable {
        public var x: Double
        public var y: Double
        public var color: RGBAColor
        /// p > 0.96: the disc is drawn again with its shadow on top of everything.
        public var visible: Bool
        public var shadow: Shadow

        public init(x: Double, y: Double, color: RGBAColor, visible: Bool, shadow: Shadow) {
            self.x = x
            self.y = y
            self.color = color
            self.visible = visible
            self.shadow = shadow
        }
    }

    public var id: String
    /// Displayed progress; encodes as `null` when the ring never received data.
    public var p: Double?
    /// Arc start and end angles; a1 − a0 may exceed 2π.
    public var a0: Double
    public var a1: Double
    public var gradient: ConicGradient
    public var cap: Cap
    public var tip: Tip
    public var label: String
    public var labelColor: RGBAColor
    /// A widget's own values; nil for a ring, whose entry keeps exactly the keys it had before widgets.
    public var widget: WidgetFrame?
    /// While the ring or widget is stale (DESIGN §13), how long ago its last write arrived (`StaleLabel`); nil
    /// (no key) while fresh, so boards that never go stale keep their bytes.
    public var stale: String?
    /// The ring's sparkline (issue 33), `[x0, y0, x1, y1, …]`: its history over its span, oldest first, x from 0 (the
    /// span's first point) to 1 (its newest), y from 0 (nothing) to 1 (the top of its scale, 100 % or the highest
    /// value shown), the newest point at the progress shown now; drawn in the band under the label
    /// (PROTOCOL.md, "Sparklines"). Nil (no key) without one, or with fewer than two points.
    public var spark: [Double]?

    public init(
        id: String,
        p: Double?,
        a0: Double,
        a1: Double,
        gradient: ConicGradient,
        cap: Cap,
        tip: Tip,
        label: String,
        labelColor: RGBAColor,
        widget: WidgetFrame? = nil
    ) {
        self.id = id
        self.p = p
        self.a0 = a0
        self.a1 = a1
        self.gradient = gradient
        self.cap = cap
        self.tip = tip
        self.label = label
        self.labelColor = labelColor
        self.widget = widget
    }

    private enum CodingKeys: String, CodingKey {
        case id, p, a0, a1, gradient, cap, tip, label, labelColor
        case kind, value, sign, digits, text, scales, color, stops
        case stale, spark
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(stale, forKey: .stale)
        try container.encodeIfPresent(spark, forKey: .spark)
        if let widget {
            try encode(widget, to: &container)
            return
        }
        // `encode` rather than the synthesised `encodeIfPresent`: the page must see `null`, not a missing key.
        try container.encode(p, forKey: .p)
        try container.encode(a0, forKey: .a0)
        try container.encode(a1, forKey: .a1)
        try container.encode(gradient, forKey: .gradient)
        try container.encode(cap, forKey: .cap)
        try container.encode(tip, forKey: .tip)
        try container.encode(label, forKey: .label)
        try container.encode(labelColor, forKey: .labelColor)
    }

    /// A widget's entry: its id, kind, label and label colour, and the keys of its kind (DESIGN §12's table).
    private func encode(_ widget: WidgetFrame, to container: inout KeyedEncodingContainer<CodingKeys>) throws {
        try container.encode(widget.kind, forKey: .kind)
        try container.encode(label, forKey: .label)
        try container.encode(labelColor, forKey: .labelColor)
        switch widget {
        case .counter(let value, let sign, let digits):
            try container.encode(value, forKey: .value)
            try container.encode(sign, forKey: .sign)
            try container.encode(digits, forKey: .digits)
        case .text(let text, let scales):
            try container.encode(text, forKey: .text)
            try container.encode(scales, forKey: .scales)
        case .indicator(let color):
            try container.encode(p, forKey: .p)
            try container.encode(a0, forKey: .a0)
            try container.encode(a1, forKey: .a1)
            try container.encode(color, forKey: .color)
        case .gradient(let stops):
            try container.encode(stops, forKey: .stops)
        }
    }
}
