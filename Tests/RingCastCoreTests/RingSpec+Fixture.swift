import RingCastCore

/// The tests' shorthand for a placed ring with its look beside it, as tests wrote rings before each kind owned
/// its definition: the look goes into the kind's own struct (`RingKind`), the geometry into its place.
extension RingSpec {
    init(
        id: String, title: String, cx: Double, cy: Double, r: Double, thickness: Double, track: RGBAColor,
        colors: [RGBAColor], kind: RingKind, titleText: TextSpec, labelText: TextSpec, titleColor: RGBAColor?,
        labelColor: RGBAColor?, label: LabelFormat = .percent, maximum: Double = RingSpec.defaultMaximum,
        value: Double? = nil, countdown: CountdownOptions? = nil, status: RingStatus? = nil,
        thresholds: Thresholds? = nil
    ) {
        var kind = kind
        if var look = kind.look {
            look.colors = status == nil && thresholds == nil ? colors : nil
            if label != .percent { look.label = label }
            if maximum != RingSpec.defaultMaximum { look.maximum = maximum }
            look.status = status
            look.thresholds = thresholds
            kind.look = look
        }
        switch kind {
        case .counter(var widget):
            widget.value = value
            kind = .counter(widget)
        case .countdown(var ring):
            ring.options = countdown
            kind = .countdown(ring)
        case .gradient(var widget):
            widget.colors = colors
            kind = .gradient(widget)
        case .text(var widget):
            if case .text(let text) = label { widget.text = text }
            kind = .text(widget)
        default:
            break
        }
        self.init(
            id: id, title: title, kind: kind,
            place: RingPlace(
                cx: cx, cy: cy, r: r, thickness: thickness, track: track, titleText: titleText, labelText: labelText,
                titleColor: titleColor, labelColor: labelColor))
    }
}

extension RingKind {
    static let plain = RingKind.plainRing
    static let countdown = RingKind.countdownRing
    static let indicator = RingKind.indicator(IndicatorWidget())
    static let gradient = RingKind.gradient(GradientWidget())

    static func derived(sources: [String]) -> RingKind { .derived(DerivedRing(sources: sources)) }
    static func text(waveWidth: Double) -> RingKind { .text(TextWidget(waveWidth: waveWidth)) }
    static func counter(format: CounterFormat) -> RingKind { .counter(CounterWidget(format: format)) }
}
