/// Stored specs of builds before one codec per kind (BoardState formats 1 and 2): every field beside a `kind`
/// encoded as Swift's enum (`{"derived":{"sources":["a"]}}`). Read once, written in today's shape at the next
/// write; the board's check (`BoardSpec.check`) then applies today's rules, as to any stored spec.
struct LegacyRingSpec: Decodable {
    private enum Kind: Decodable {
        case plain
        case derived(sources: [String])
        case countdown
        case counter(CounterFormat)
        case text(waveWidth: Double)
        case indicator
        case gradient
    }

    private var id: String
    private var title: String
    private var cx: Double
    private var cy: Double
    private var r: Double
    private var thickness: Double
    private var track: RGBAColor
    private var colors: [RGBAColor]
    private var kind: Kind
    private var titleText: TextSpec
    private var labelText: TextSpec
    private var titleColor: RGBAColor?
    private var labelColor: RGBAColor?
    private var label: LabelFormat
    private var maximum: Double
    private var value: Double?
    private var countdown: CountdownOptions?
    private var staleAfter: Int?
    private var status: RingStatus?
    private var thresholds: Thresholds?

    /// The ring `decoder` holds when it was stored in the older shape (its `kind` an object); nil otherwise.
    static func read(from decoder: any Decoder) throws -> RingSpec? {
        let object = try decoder.container(keyedBy: AnyCodingKey.self)
        guard (try? object.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("kind"))) != nil else { return nil }
        return try LegacyRingSpec(from: decoder).ring
    }

    private var ring: RingSpec {
        // A status or thresholds colour the ring; the palette colours stored beside them were only their fallback.
        let look = RingLook(
            colors: status == nil && thresholds == nil ? colors : nil, label: label == .percent ? nil : label,
            maximum: maximum == RingSpec.defaultMaximum ? nil : maximum, status: status, thresholds: thresholds)
        var indicatorLook = look
        indicatorLook.label = nil
        let kind: RingKind =
            switch self.kind {
            case .plain: .plain(look)
            case .derived(let sources): .derived(DerivedRing(sources: sources, look: look))
            case .countdown: .countdown(CountdownRing(look: look, options: countdown))
            case .counter(let format): .counter(CounterWidget(format: format, value: value))
            case .text(let width):
                .text(TextWidget(text: { if case .text(let text) = label { text } else { nil } }(), waveWidth: width))
            case .indicator: .indicator(IndicatorWidget(look: indicatorLook))
            case .gradient: .gradient(GradientWidget(colors: colors))
            }
        return RingSpec(
            id: id, title: title, kind: kind, staleAfter: staleAfter,
            place: RingPlace(
                cx: cx, cy: cy, r: r, thickness: thickness, track: track, titleText: titleText, labelText: labelText,
                titleColor: titleColor, labelColor: labelColor))
    }
}
