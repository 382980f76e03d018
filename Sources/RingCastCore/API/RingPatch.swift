/// One ring's entry in a PATCH body: a bare number (the progress), `null` (back to no data), or
/// `{"progress":P,"value":V,"max":M,"label":L,"title":T,"colors":["#…","#…"],"labelColor":"#…","animation":A}`
/// with any of the keys (`progress` and `value` not both; either may be `null`); a text widget's entry also
/// takes `"text":T` and `"wave":{"width":W}`, a ring's `"status":S` or `"thresholds":[[V,"#…"],…]` instead of
/// `colors` (`null`: back to its definition's colours). Which keys a ring or widget takes is its board's business.
///
/// Decoding checks types and ranges (progress in 0...10, value ≥ 0, max in (0, 1e9], exactly two valid colours,
/// a known label format and animation, a title of 1–64 characters) and throws `APIError`; whether the ring
/// exists and takes these is the board's business (`Board.apply`).
public struct RingPatch: Sendable, Equatable, Decodable {
    public var progress: Double?
    /// The progress as a value out of the ring's maximum (this entry's `max`, else the ring's).
    public var value: Double?
    /// The ring's new maximum, remembered: what `value`, the `fraction` and the `value` labels count to.
    public var maximum: Double?
    /// The ring's new label format.
    public var label: LabelFormat?
    /// The ring's new title.
    public var title: String?
    /// `"progress":null`, `"value":null` or a bare `null`: the ring goes back to no data (track only, `—`).
    public var clearsData: Bool
    /// The new gradient start and end colours.
    public var colors: [RGBAColor]?
    /// The new colour of the ring's label text; it animates like the gradient (seed 003).
    public var labelColor: RGBAColor?
    /// Overrides the patch's own animation for this ring.
    public var animation: Animation?
    /// A text widget's new text; it arrives with a wave (seed 003's wave text).
    public var text: String?
    /// Run a wave over a text widget (`"wave":{}`), even if its text stays.
    public var wave: Bool
    /// The wave's new width in characters, remembered.
    public var waveWidth: Double?
    /// The ring's new `staleAfter` in seconds (DESIGN §13), remembered.
    public var staleAfter: Int?
    /// `"staleAfter":null`: the ring goes back to the board's `staleAfter`.
    public var clearsStaleAfter: Bool
    /// A status or thresholds to colour the ring by, or back to its definition's colours (instead of `colors`).
    public var coloring: Coloring?

    public init(
        progress: Double? = nil,
        value: Double? = nil,
        maximum: Double? = nil,
        label: LabelFormat? = nil,
        title: String? = nil,
        clearsData: Bool = false,
        colors: [RGBAColor]? = nil,
        labelColor: RGBAColor? = nil,
        animation: Animation? = nil,
        text: String? = nil,
        wave: Bool = false,
        waveWidth: Double? = nil,
        staleAfter: Int? = nil,
        clearsStaleAfter: Bool = false,
        coloring: Coloring? = nil
    ) {
        self.progress = progress
        self.value = value
        self.maximum = maximum
        self.label = label
        self.title = title
        self.clearsData = clearsData
        self.colors = colors
        self.labelColor = labelColor
        self.animation = animation
        self.text = text
        self.wave = wave
        self.waveWidth = waveWidth
        self.staleAfter = staleAfter
        self.clearsStaleAfter = clearsStaleAfter
        self.coloring = coloring
    }

    /// Whether the entry changes the ring's progress (to a value or to no data).
    var setsProgress: Bool { progress != nil || value != nil || clearsData }

    /// Whether the entry changes what the board's layout or labels are made of (title, label, max, a text
    /// widget's text or wave width), or when the ring shows stale.
    var shapesRing: Bool {
        title != nil || label != nil || maximum != nil || text != nil || waveWidth != nil || setsStaleAfter
    }

    /// Whether the entry sets or clears the ring's `staleAfter`.
    var setsStaleAfter: Bool { staleAfter != nil || clearsStaleAfter }

    /// Whether the entry starts a wave over a text widget.
    var startsWave: Bool { text != nil || wave }

    /// The keys the entry sets, in `keys` order (`value` also for `"value":null` or a bare `null`).
    var givenKeys: [String] {
        let given: [(String, Bool)] = [
            ("progress", progress != nil), ("value", value != nil || clearsData), ("max", maximum != nil),
            ("label", label != nil), ("title", title != nil), ("colors", colors != nil),
            ("labelColor", labelColor != nil), ("text", text != nil), ("wave", wave || waveWidth != nil),
            ("staleAfter", setsStaleAfter),
            ("status", coloring?.key == "status"), ("thresholds", coloring?.key == "thresholds"),
        ]
        return given.filter(\.1).map(\.0)
    }

    static let keys = [
        "progress", "value", "max", "label", "title", "colors", "labelColor", "animation", "text", "wave",
        "staleAfter", "status", "thresholds",
    ]

    public init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        if (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil {
            let object = try RequestField.object(
                decoder,
                allowing: Self.keys,
                expected: "a progress number or an object with \(Self.keys.map { "\"\($0)\"" }.joined(separator: ", "))"
            )
            let progress = try RequestField.nullable("progress", in: object) { try RequestField.progress(in: object) }
            let value = try RequestField.nullable("value", in: object) { try RequestField.value(in: object) }
            let wave = try RequestField.wave(in: object)
            let staleAfter = try RequestField.staleAfter(in: object)
            if object.contains(AnyCodingKey("progress")), object.contains(AnyCodingKey("value")) {
                throw APIError.invalidValue(
                    "give \"progress\" or \"value\" (with \"max\"), not both", field: RequestField.path(field, "value"))
            }
            self.init(
                progress: progress.value,
                value: value.value,
                maximum: try RequestField.maximum(in: object),
                label: try RequestField.label(in: object),
                title: try RequestField.title(in: object),
                clearsData: progress.isNull || value.isNull,
                colors: try RequestField.colors(in: object),
                labelColor: try RequestField.color(named: "labelColor", in: object),
                animation: try RequestField.animation(in: object),
                text: try RequestField.text(in: object),
                wave: wave.runs,
                waveWidth: wave.width,
                staleAfter: staleAfter.value,
                clearsStaleAfter: staleAfter.isNull,
                coloring: try RequestField.coloring(in: object, allowsNull: true)
            )
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self.init(clearsData: true)
            return
        }
        let progress: Double
        do {
            progress = try single.decode(Double.self)
        } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
            throw APIError.malformed(
                "expected a progress number, null (no data) or an object with \"progress\", \"value\", \"colors\" …",
                field: field
            )
        } catch {
            throw APIError.malformed(
                "progress is a number a 64-bit float cannot hold (beyond ±1.8e308, or so close to zero it would read as 0)",
                field: field)
        }
        try Limits.check(progress: progress, field: field)
        self.init(progress: progress)
    }
}
