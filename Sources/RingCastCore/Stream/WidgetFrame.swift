/// What a widget's entry in a frame carries instead of a ring's arc, cap and tip (DESIGN §12): everything the
/// page places, computed by the server.
public enum WidgetFrame: Sendable, Equatable {
    /// The counter's displayed number (nil: no data), its sign and its digit columns, most significant first
    /// (`Odometer`).
    case counter(value: Double?, sign: String, digits: [Odometer.Column])
    /// The text and each character's scale (`WaveText`).
    case text(text: String, scales: [Double])
    /// The dashed arc from 3 o'clock (a0 = 0, a1 = 2π·p, in the entry's `a0`/`a1`) in this colour.
    case indicator(color: RGBAColor)
    /// The linear gradient's stops, evenly spaced, from the card's top-left corner to its bottom-right.
    case gradient(stops: [ConicGradient.Stop])

    var kind: String {
        switch self {
        case .counter: "counter"
        case .text: "text"
        case .indicator: "indicator"
        case .gradient: "gradient"
        }
    }
}

/// One digit column on the wire: `[digit, fraction]`.
extension Odometer.Column: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var pair = encoder.unkeyedContainer()
        try pair.encode(digit)
        try pair.encode(fraction)
    }
}

/// What a widget's entry in the layout adds to a ring's: how the page sizes what it draws (DESIGN §12).
public enum WidgetLayout: Sendable, Equatable {
    /// The counter's format: fixed integer columns (nil: as needed), decimals, `+` shown, separator, unit.
    case counter(CounterFormat)
    /// The wave's width in characters (the server computes the scales; the page shows the number).
    case text(waveWidth: Double)
    /// The dashed arc's stroke in the seed's proportions: seed 003 strokes a radius of 80 (a 150-point view:
    /// 75 + 5) with line width 10, dash [6, 3] and phase 10, so at the widget's radius r everything scales by
    /// r / 80.
    case indicator(lineWidth: Double, dash: [Double], dashPhase: Double)
    /// The rounded rectangle, centred on the cell: seed 003's 200 × 200 card with corner 15, scaled to the
    /// ring's footprint (2r + thickness).
    case gradient(width: Double, height: Double, corner: Double)

    /// The seed's stroke radius, from which an indicator's proportions scale.
    static let indicatorRadius = 80.0

    /// The layout of a widget of `spec`; nil for a ring.
    static func of(_ spec: RingSpec) -> WidgetLayout? {
        switch spec.kind {
        case .plain, .derived, .countdown: return nil
        case .counter(let counter): return .counter(counter.format)
        case .text(let text): return .text(waveWidth: text.waveWidth)
        case .indicator:
            let scale = spec.r / indicatorRadius
            return .indicator(lineWidth: 10 * scale, dash: [6 * scale, 3 * scale], dashPhase: 10 * scale)
        case .gradient:
            let side = 2 * spec.r + spec.thickness
            return .gradient(width: side, height: side, corner: side * 15 / 200)
        }
    }
}
