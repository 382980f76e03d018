/// The binary wire format (`&format=binary`), versions 3 to 6. All integers little-endian.
///
/// A message's version is the lowest that describes it: 6 when a frame carries a spark section, else 5 when it
/// carries a stale section, else 4
/// when it holds a widget (a layout with a widget among its rings, a frame with a widget entry), else 3 —
/// a board of rings only is sent byte for byte as before widgets existed, and a board that never goes
/// stale as before stale data existed, and one without sparklines as before them. A version 6 decoder reads all four.
///
/// ```
/// header   'R'(0x52) | version u8 (3, or 4 with widgets) | kind u8 | flags u8
///          kind: 1 layout, 2 keyframe, 3 delta, 4 event
///
/// layout   board str8 | title str8 | background RGBA8 | ringCount u8 | ring…
///          | arrangementCount u8 | arrangement…
///   ring   id str8 | title str8 | kind u8 (0 plain, 1 derived, 2 countdown;
///                                            v4: 3 counter, 4 text, 5 indicator, 6 gradient)
///          | ringFlags u8 (bit0: automatic title colour — draw the title in the frame's text colour;
///                          bit1: seed style — seed 004's disc and white stroke, no track, gradient or tip)
///          | r f32 | thickness f32 | track RGBA8 | titleColor RGBA8 (0 when automatic)
///          | v4, a widget's layout, by kind:
///            counter    digits u8 (0: as needed) | decimals u8
///                       | counterFlags u8 (bit0 sign, bit1 has grouping, bit2 has unit)
///                       | grouping str8 | unit str8 (empty when absent)
///            text       waveWidth f32
///            indicator  lineWidth f32 | dash f32 × 2 | dashPhase f32
///            gradient   width f32 | height f32 | corner f32
///   arrangement  name str8 | width f32 | height f32 | place × ringCount (in ring order)
///   place  cx f32 | cy f32 | capX f32 | capY f32 (the start cap, relative to the centre)
///          | titleText text | labelText text
///   text   x f32 | y f32 | size f32 | align u8 (0 left, 1 center, 2 right)
///          | width f32 (fillText's maxWidth; 0: none)
///
/// frame    (flags bit0: a background section follows the header;
///           v5, bit1: a stale section follows the rings; v6, bit2: a spark section follows them and it)
///          seq u32 (low 32 bits) | t f64 (ms since the Unix epoch)
///          [background: color RGBA8 | text RGBA8 | layerCount u8 | layer…]
///          ringCount u8 | ring…
///          [stale: count u8 | count × (index u8 | text str8)]
///          [spark: count u8 | count × (index u8 | n u8 | n × (x u16 | y u16))]
///                 (x, y in thousandths, 0…1000: the JSON `spark`'s values × 1000; n = 0: no line any more)
///   layer  style u8 (0 leftToRight, 1 rightToLeft, 2 topToBottom, 3 bottomToTop, 4 circle, 5 angle)
///          | angle f32 (degrees, style 5 only) | color RGBA8 | progress f32
///          | shapeCount u8 | shape… (one per arrangement, in the layout's order)
///   shape  u8 (0 polygon: n u8, n × (x f32, y f32); 1 circle: cx f32 | cy f32 | r f32)
///          (the arrangement's coordinates; the splash's reach makes them negative and past its canvas)
///   point  x i16 | y i16, both in 1/16 logical unit relative to the ring's centre (±2048): the tip
///   ring   index u8 (into the newest layout's rings) | fields u8 | the fields present, in bit order:
///          0x01 state u8: bit0 has data, bit1 arc drawn (p > 0), bit2 cap visible,
///                         bit3 tip visible (shadowed), bit4 beyond one turn
///          0x02 p f32 | a1 f32
///          0x04 tip point | shadow dx i16 | dy i16 (1/256 logical unit)
///          0x08 gradient offsets o1 u16 | o2 u16 (1/65535; below one turn)
///          0x10 start colour RGBA8 (first stop; the cap's colour)
///          0x20 end colour RGBA8 (last stop below one turn; the tip's colour)
///          0x40 label str8 (UTF-8)
///          0x80 label colour RGBA8
///   widget v4, an entry whose layout kind is a widget: index u8 | fields u8 | in bit order:
///          0x01 values, by the layout's kind:
///            counter    hasData u8 | value f64 | sign u8 (0 none, 1 '-', 2 '+') | columnCount u8
///                       | columnCount × (digit u8 | fraction u16 in 1/65536)
///            text       text str8 | count u8 | count × scale u16 (1/4096)
///            indicator  hasData u8 | p f32 | a1 f32 | color RGBA8 (a0 = 0)
///            gradient   count u8 | count × (offset u16 in 1/65535 | color RGBA8)
///          0x40 label str8 | 0x80 label colour RGBA8 (as for a ring); 0x02…0x20 never set
///   str8   length u8 | UTF-8 bytes
///
/// event    name u8 (1 countdownEnded) | seq u32 (low 32 bits: the tick) | t f64 | board str8 | ring str8
/// ```
///
/// A keyframe carries every field of every ring; a delta carries only the rings, and within
/// them only the fields, whose encoded values changed since the previous frame, and the
/// background (its text colour included) only when it changed. Constants of version 3: a0 = −π/2,
/// shadow blur 2 and alpha 0.15. Stops are rebuilt as `[0,start] [o1,end] [o2,end] [o2,start] [1,start]`
/// below one turn (conic start a0) and `[0,start] [1,end]` beyond it (conic start a1).
///
/// Version 3 (boards shaped at runtime, in several arrangements): every position a frame carries is
/// relative to its ring's centre, so one frame, encoded once per board and tick, serves every
/// arrangement — the page translates to the centre its arrangement gives. Only the splash, which
/// sweeps the whole canvas, depends on the arrangement: a layer carries one shape per arrangement.
///
/// Version 4 (widgets, DESIGN §12): layout kinds 3–6 with each widget's sizes and format, and widget
/// entries in frames whose values field (0x01) carries what the JSON entry's keys of that kind carry.
/// A widget entry is sent in a delta only when its encoded values, label or label colour changed.
///
/// Version 5 (stale data, DESIGN §13): a frame's stale section lists, by ring index, the stale text of each
/// stale ring (a keyframe) or of each ring whose stale text changed (a delta; an empty text: no longer
/// stale). A ring the section names need not have an entry of its own in the message.
///
/// Version 6 (sparklines, issue 33): a frame's spark section lists, by ring index, the line (`RingFrame.spark`) of
/// each ring with one (a keyframe) or of each ring whose line changed (a delta; 0 points: it no longer has one),
/// its coordinates in thousandths, so the values are the JSON's exactly. As for stale texts, a ring the section
/// names need not have an entry of its own.
public enum BinaryFrame {
    public static let magic: UInt8 = 0x52
    /// The newest version, written for messages that hold widgets; decoders read it and `ringsVersion`.
    /// 4: widgets (layout kinds 3–6 and their layouts, widget entries in frames).
    public static let version: UInt8 = 4
    /// The version of a frame with a stale section (`BinaryFrame+Stale.swift`), whatever else it holds.
    public static let staleVersion: UInt8 = 5
    /// The version of a frame with a spark section (`BinaryFrame+Spark.swift`), whatever else it holds.
    public static let sparkVersion: UInt8 = 6
    /// The version of every message without widgets, unchanged since widgets were added.
    /// 3: arrangements in the layout, ring-relative tip and cap, one splash shape per arrangement, text widths.
    /// (2 added the layout's ringFlags and the background's text colour.)
    public static let ringsVersion: UInt8 = 3

    /// The layout's kind codes, in code order (3 and up need version 4).
    static let kindNames = ["plain", "derived", "countdown", "counter", "text", "indicator", "gradient"]

    public enum Kind: UInt8, Sendable {
        case layout = 1
        case keyframe = 2
        case delta = 3
        case event = 4
    }

    public struct Fields: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let state = Fields(rawValue: 0x01)
        public static let progress = Fields(rawValue: 0x02)
        public static let tip = Fields(rawValue: 0x04)
        public static let offsets = Fields(rawValue: 0x08)
        public static let startColor = Fields(rawValue: 0x10)
        public static let endColor = Fields(rawValue: 0x20)
        public static let label = Fields(rawValue: 0x40)
        public static let labelColor = Fields(rawValue: 0x80)
        public static let all = Fields(rawValue: 0xff)
        /// A widget entry's values (its layout kind says which); the bit a ring's `state` has.
        public static let widgetValues = Fields(rawValue: 0x01)
        /// Every field a widget entry has.
        public static let allOfAWidget: Fields = [.widgetValues, .label, .labelColor]
    }

    /// Per ring in the layout.
    public struct RingFlags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The layout's titleColor is a placeholder: the title is drawn in the frame's background text colour.
        public static let automaticTitleColor = RingFlags(rawValue: 0x01)
        /// A countdown ring in seed 004's look (`CountdownOptions.Style.seed`).
        public static let seedStyle = RingFlags(rawValue: 0x02)
    }

    public struct State: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let hasData = State(rawValue: 0x01)
        public static let arc = State(rawValue: 0x02)
        public static let capVisible = State(rawValue: 0x04)
        public static let tipVisible = State(rawValue: 0x08)
        public static let beyondOneTurn = State(rawValue: 0x10)
    }

    /// One ring's values as they go on the wire (already quantised), so two frames compare
    /// field by field exactly as a viewer would see them.
    public struct RingValues: Sendable, Equatable {
        public var state: State
        public var p: Float
        public var a1: Float
        /// Relative to the ring's centre, in 1/16 logical unit.
        public var tipX: Int16
        public var tipY: Int16
        public var shadowDX: Int16
        public var shadowDY: Int16
        public var offsets: (UInt16, UInt16)
        public var startColor: [UInt8]
        public var endColor: [UInt8]
        public var label: [UInt8]
        public var labelColor: [UInt8]
        /// A widget's values field as encoded (`widgetPayload`); empty for a ring, whose other fields are
        /// then all that count. A widget's ring fields stay at zero.
        public var widget: [UInt8] = []

        public static func == (a: RingValues, b: RingValues) -> Bool {
            a.state == b.state && a.p == b.p && a.a1 == b.a1 && a.tipX == b.tipX && a.tipY == b.tipY
                && a.shadowDX == b.shadowDX && a.shadowDY == b.shadowDY && a.offsets == b.offsets
                && a.startColor == b.startColor && a.endColor == b.endColor && a.label == b.label
                && a.labelColor == b.labelColor && a.widget == b.widget
        }

        /// The fields whose wire values differ from `previous`.
        public func fields(changedSince previous: RingValues) -> Fields {
            var fields: Fields = []
            if state != previous.state { fields.insert(.state) }
            if p != previous.p || a1 != previous.a1 { fields.insert(.progress) }
            if tipX != previous.tipX || tipY != previous.tipY || shadowDX != previous.shadowDX
                || shadowDY != previous.shadowDY
            {
                fields.insert(.tip)
            }
            if offsets != previous.offsets { fields.insert(.offsets) }
            if startColor != previous.startColor { fields.insert(.startColor) }
            if endColor != previous.endColor { fields.insert(.endColor) }
            if label != previous.label { fields.insert(.label) }
            if labelColor != previous.labelColor { fields.insert(.labelColor) }
            if widget != previous.widget { fields.insert(.widgetValues) }
            return fields
        }
    }

    static let splashStyles = ["leftToRight", "rightToLeft", "topToBottom", "bottomToTop", "circle", "angle"]

    // MARK: Quantisation

    /// 1/16 logical unit, clamped to an i16 (±2048 units around a ring's centre).
    static func point(_ value: Double) -> Int16 {
        Int16(clamping: Int((value * 16).rounded()).clamped(-32_768, 32_767))
    }

    /// 1/256 logical unit, clamped to an i16.
    static func small(_ value: Double) -> Int16 {
        Int16(clamping: Int((value * 256).rounded()).clamped(-32_768, 32_767))
    }

    /// A fraction 0…1 in 1/65535.
    static func fraction(_ value: Double) -> UInt16 {
        UInt16(clamping: Int((value * 65_535).rounded()).clamped(0, 65_535))
    }

    /// A counter column's roll 0 ≤ f < 1 in 1/65536, so that it stays below 1 on the wire too.
    static func roll(_ value: Double) -> UInt16 {
        UInt16(clamping: Int((value * 65_536).rounded()).clamped(0, 65_535))
    }

    /// A wave text character's scale (1…2) in 1/4096.
    static func scale(_ value: Double) -> UInt16 {
        UInt16(clamping: Int((value * 4_096).rounded()).clamped(0, 65_535))
    }

    /// RGBA, 8 bits each, as the hex form rounds them.
    static func rgba(_ color: RGBAColor) -> [UInt8] {
        [color.red, color.green, color.blue, color.alpha].map {
            UInt8(clamping: Int(($0 * 255).rounded()).clamped(0, 255))
        }
    }

    /// The wire values of one composed ring, or of a widget's entry (its values field, label and label colour).
    public static func values(of ring: RingFrame) -> RingValues {
        if let widget = ring.widget {
            return RingValues(
                state: [], p: 0, a1: 0, tipX: 0, tipY: 0, shadowDX: 0, shadowDY: 0, offsets: (0, 0),
                startColor: [], endColor: [], label: Array(Limits.fitting(ring.label).utf8), labelColor: rgba(ring.labelColor),
                widget: widgetPayload(widget, of: ring))
        }
        let p = ring.p ?? 0
        var state: State = []
        if ring.p != nil { state.insert(.hasData) }
        if p > 0 { state.insert(.arc) }
        if ring.cap.visible { state.insert(.capVisible) }
        if ring.tip.visible { state.insert(.tipVisible) }
        let stops = ring.gradient.stops
        let beyond = p > 1
        if beyond { state.insert(.beyondOneTurn) }
        let offsets: (UInt16, UInt16) =
            beyond || stops.count < 5 ? (0, 0) : (fraction(stops[1].offset), fraction(stops[2].offset))
        return RingValues(
            state: state,
            p: Float(p),
            a1: Float(ring.a1),
            tipX: point(ring.tip.x),
            tipY: point(ring.tip.y),
            shadowDX: small(ring.tip.shadow.dx),
            shadowDY: small(ring.tip.shadow.dy),
            offsets: offsets,
            startColor: rgba(stops.first?.color ?? ring.cap.color),
            endColor: rgba(ring.tip.color),
            label: Array(Limits.fitting(ring.label).utf8),
            labelColor: rgba(ring.labelColor)
        )
    }
}

extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
