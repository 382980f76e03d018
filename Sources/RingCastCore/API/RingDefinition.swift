/// One ring or widget as the API defines it (`PUT /api/v1/boards/{board}`'s `rings`, `POST …/rings`):
/// `{"id":ID,"title":T,"kind":"plain"|"derived"|"countdown","sources":[ID…],"colors":["#…","#…"],"label":L,"max":M}`
/// with only `id` required, a countdown ring also taking `"style":"ring"|"seed"`, `"tenths":BOOL`,
/// `"then":"rest"|"cancel"|"restart"` and `"webhook":URL` (its `CountdownOptions`), and for `POST …/rings` also
/// `"group":ID` (join that ring's concentric group, inside it). Widgets (DESIGN §12): `{"kind":"counter",
/// "value":V,"digits":N,"decimals":D,"sign":B,"grouping":",","unit":U}`, `{"kind":"text","text":T,
/// "waveWidth":W}`, `{"kind":"indicator"}`, `{"kind":"gradient","colors":[2 to 8]}`. Rings and the indicator
/// may take `"status":S` or `"thresholds":[[V,"#…"],…]` instead of `colors` (DESIGN §13). The server places it
/// (`BoardSpec.laidOut`).
public struct RingDefinition: Sendable, Equatable, Decodable {
    public var id: String
    public var title: String?
    public var kind: RingKind
    public var colors: [RGBAColor]?
    public var label: LabelFormat?
    public var maximum: Double?
    /// A counter's first number.
    public var value: Double?
    /// The ring whose concentric group this one joins (`POST …/rings` only).
    public var group: String?
    /// A countdown ring's options; nil when the definition gives none.
    public var countdown: CountdownOptions?
    /// Seconds without a write before the ring shows stale (DESIGN §13); nil (absent or `null`): the board's.
    public var staleAfter: Int?
    /// The status or thresholds the ring is coloured by; nil: its `colors`.
    public var coloring: Coloring?

    public init(
        id: String,
        title: String? = nil,
        kind: RingKind = .plain,
        colors: [RGBAColor]? = nil,
        label: LabelFormat? = nil,
        maximum: Double? = nil,
        value: Double? = nil,
        group: String? = nil,
        countdown: CountdownOptions? = nil,
        staleAfter: Int? = nil,
        coloring: Coloring? = nil
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.colors = colors
        self.label = label
        self.maximum = maximum
        self.value = value
        self.group = group
        self.countdown = countdown
        self.staleAfter = staleAfter
        self.coloring = coloring
    }

    static let keys =
        [
            "id", "title", "kind", "sources", "colors", "label", "max", "value", "digits", "decimals", "sign",
            "grouping", "unit", "text", "waveWidth", "staleAfter", "status", "thresholds",
        ] + RequestField.countdownKeys

    /// The keys only some kinds take, and which (a countdown's options are checked with them,
    /// `RequestField.countdownOptions`).
    static let keysOfKinds: [(key: String, kinds: [String])] = [
        ("sources", ["derived"]), ("value", ["counter"]), ("digits", ["counter"]), ("decimals", ["counter"]),
        ("sign", ["counter"]), ("grouping", ["counter"]), ("unit", ["counter"]), ("text", ["text"]),
        ("waveWidth", ["text"]), ("label", ["plain", "derived", "countdown"]),
        ("max", ["plain", "derived", "countdown", "indicator"]),
        ("colors", ["plain", "derived", "countdown", "indicator", "gradient"]),
        // The kinds `Board.keysTaken(by:)` lets a push colour by status or thresholds.
        ("status", ["plain", "derived", "countdown", "indicator"]),
        ("thresholds", ["plain", "derived", "countdown", "indicator"]),
    ]

    public init(from decoder: any Decoder) throws {
        // A board's ring list names its groups separately; `group` is for adding one ring.
        let allowsGroup = decoder.codingPath.isEmpty
        let object = try RequestField.object(
            decoder,
            allowing: Self.keys + (allowsGroup ? ["group"] : []),
            expected: "a ring such as {\"id\":\"tests\",\"title\":\"Tests\"}"
        )
        let field = RequestField.path(decoder.codingPath)
        guard let id = try RequestField.string("id", in: object) else {
            throw APIError.malformed("missing key \"id\": every ring needs an id", field: RequestField.path(field, "id"))
        }
        try Name.check(id, as: .ring, field: RequestField.path(field, "id"))
        let kindName = try RequestField.string("kind", in: object) ?? "plain"
        let sourcesKey = AnyCodingKey("sources")
        let sourcesField = RequestField.path(field, "sources")
        var sources: [String]?
        if object.contains(sourcesKey) {
            guard let list = try? object.decode([String].self, forKey: sourcesKey) else {
                throw APIError.malformed("sources must be an array of ring ids", field: sourcesField)
            }
            sources = list
        }
        kind = try Self.kind(named: kindName, sources: sources, in: object, field: field)
        self.id = id
        title = try RequestField.title(in: object)
        colors = try RequestField.colors(in: object)
        if let colors, kind != .gradient {
            try Limits.check(colors: colors, field: RequestField.path(field, "colors"))
        }
        label = try RequestField.label(in: object, countdown: kind == .countdown)
        if case .text = kind {
            label = .text(try RequestField.text(in: object) ?? id)
        }
        maximum = try RequestField.maximum(in: object)
        value = try RequestField.value(in: object)
        group = allowsGroup ? try RequestField.string("group", in: object) : nil
        countdown = try RequestField.countdownOptions(in: object, kind: kind)
        staleAfter = try RequestField.staleAfter(in: object).value
        coloring = try RequestField.coloring(in: object, allowsNull: false)
    }

    /// The kind named `kindName` with its settings from `object`, after refusing the keys another kind takes
    /// (`keysOfKinds`); `sourcesField` names a derived ring's sources.
    static func kind(
        named kindName: String, sources: [String]?, in object: KeyedDecodingContainer<AnyCodingKey>, field: String?
    ) throws -> RingKind {
        let sourcesField = RequestField.path(field, "sources")
        for (key, kinds) in Self.keysOfKinds where object.contains(AnyCodingKey(key)) && !kinds.contains(kindName) {
            guard RingKind.names.contains(kindName) else { break }
            let owners = kinds.map { "\"\($0)\"" }.joined(separator: ", ")
            throw APIError.invalidValue(
                "\(key) goes with kind \(owners), not \(RequestField.quoted(kindName))",
                field: RequestField.path(field, key))
        }
        switch kindName {
        case "plain": return .plain
        case "countdown": return .countdown
        case "derived":
            guard let sources, !sources.isEmpty else {
                throw APIError.invalidValue(
                    "a derived ring needs \"sources\": the ids of the rings it averages", field: sourcesField)
            }
            guard Set(sources).count == sources.count else {
                throw APIError.invalidValue("sources names a ring twice", field: sourcesField)
            }
            return .derived(sources: sources)
        case "counter": return .counter(try Self.counterFormat(in: object, field: field))
        case "text":
            var width = 6.0
            if object.contains(AnyCodingKey("waveWidth")) {
                let widthField = RequestField.path(field, "waveWidth")
                width = try RequestField.number(field: widthField, named: "waveWidth") {
                    try object.decode(Double.self, forKey: AnyCodingKey("waveWidth"))
                }
                try Limits.check(waveWidth: width, field: widthField)
            }
            return .text(waveWidth: width)
        case "indicator": return .indicator
        case "gradient": return .gradient
        default:
            let names = RingKind.names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw APIError.invalidValue(
                "kind must be one of \(names), got \(RequestField.quoted(kindName))",
                field: RequestField.path(field, "kind"))
        }
    }

    /// For the configuration file, which places rings itself but defines them as the API does: the widget of
    /// kind `kindName` from the object `decoder` reads, with the API's keys, ranges and messages (an
    /// `APIError` whose field is relative to the object); nil for the ring kinds.
    public static func widget(named kindName: String, from decoder: any Decoder) throws -> (
        kind: RingKind, value: Double?, text: String?
    )? {
        guard ["counter", "text", "indicator", "gradient"].contains(kindName) else { return nil }
        let object = try decoder.container(keyedBy: AnyCodingKey.self)
        let kind = try kind(named: kindName, sources: nil, in: object, field: nil)
        let text = try RequestField.text(in: object)
        return (kind, try RequestField.value(in: object), text)
    }

    /// For the configuration file, which defines rings as the API does: the `status` or `thresholds` of the ring of
    /// kind `kindName` that `decoder` reads, with the API's keys, ranges and messages (an `APIError` whose field is
    /// relative to the object); nil without either.
    public static func coloring(ofKind kindName: String, from decoder: any Decoder) throws -> (
        status: RingStatus?, thresholds: Thresholds?
    ) {
        let object = try decoder.container(keyedBy: AnyCodingKey.self)
        for (key, kinds) in keysOfKinds where ["status", "thresholds"].contains(key) {
            if object.contains(AnyCodingKey(key)), !kinds.contains(kindName) {
                let owners = kinds.map { "\"\($0)\"" }.joined(separator: ", ")
                throw APIError.invalidValue("\(key) goes with kind \(owners), not \(RequestField.quoted(kindName))", field: key)
            }
        }
        do {
            switch try RequestField.coloring(in: object, allowsNull: false) {
            case .status(let status): return (status, nil)
            case .thresholds(let thresholds): return (nil, thresholds)
            case .definition, nil: return (nil, nil)
            }
        } catch var error as APIError {
            // The reader names fields from the document's root; the configuration names them under the ring.
            if let prefix = RequestField.path(decoder.codingPath), let field = error.field, field.hasPrefix(prefix + ".") {
                error.field = String(field.dropFirst(prefix.count + 1))
            }
            throw error
        }
    }

    /// A counter's format from its definition's keys, checked against `Limits`.
    static func counterFormat(in object: KeyedDecodingContainer<AnyCodingKey>, field: String?) throws -> CounterFormat {
        func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
            guard object.contains(AnyCodingKey(key)) else { return nil }
            let keyField = RequestField.path(field, key)
            let number = try RequestField.number(field: keyField, named: key) {
                try object.decode(Double.self, forKey: AnyCodingKey(key))
            }
            guard number.rounded() == number, range.contains(Int(exactly: number) ?? .min) else {
                throw APIError.unprocessable(
                    "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(RequestField.describe(number))",
                    field: keyField)
            }
            return Int(number)
        }
        func text(_ key: String, maximumLength: Int) throws -> String? {
            guard object.contains(AnyCodingKey(key)) else { return nil }
            let keyField = RequestField.path(field, key)
            guard let text = try? object.decode(String.self, forKey: AnyCodingKey(key)) else {
                throw APIError.malformed("\(key) must be a string", field: keyField)
            }
            // A grouping separator may be a space (`1 234`); everything else is checked as any shown text is.
            let isSpace =
                key == "grouping" && text.count == 1 && text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
                && Limits.hiddenCharacter(in: text) == nil
            if !isSpace {
                try Limits.check(text: text, named: key, maximumLength: maximumLength, field: keyField)
            }
            return text
        }
        var sign = false
        if object.contains(AnyCodingKey("sign")) {
            guard let flag = try? object.decode(Bool.self, forKey: AnyCodingKey("sign")) else {
                throw APIError.malformed("sign must be true or false", field: RequestField.path(field, "sign"))
            }
            sign = flag
        }
        let format = CounterFormat(
            digits: try integer("digits", in: Limits.counterDigits),
            decimals: try integer("decimals", in: Limits.counterDecimals) ?? 0,
            sign: sign,
            grouping: try text("grouping", maximumLength: Limits.counterSeparatorLength),
            unit: try text("unit", maximumLength: Limits.counterUnitLength)
        )
        // Every label the counter can show must fit a frame whole, checked once here against the longest.
        if let problem = Limits.labelProblem(of: format) {
            throw APIError.invalidValue(problem.message, field: RequestField.path(field, problem.key))
        }
        return format
    }

    /// Gradient colours of rings defined without any, by position on the board.
    static let defaultColors: [[RGBAColor]] = [
        [Palette.lightRed, Palette.darkRed], [Palette.lightGreen, Palette.darkGreen],
        [Palette.lightBlue, Palette.darkBlue], [Palette.lightPurple, Palette.darkPurple],
        [Palette.lightYellow, Palette.darkYellow], [Palette.lightOrange, Palette.darkOrange],
    ]

    /// The default gradient of the `position`-th ring of a board.
    public static func defaultColors(at position: Int) -> [RGBAColor] {
        defaultColors[position % defaultColors.count]
    }

    /// The ring as the `position`-th of its board, not yet placed (the arranger places it).
    func spec(at position: Int) -> RingSpec {
        let text = TextSpec(x: 0, y: 0, size: 1, align: "center")
        var spec = RingSpec(
            id: id,
            title: title ?? id,
            cx: 0,
            cy: 0,
            r: 1,
            thickness: 1,
            track: RingSpec.defaultTrack,
            colors: status?.colors ?? colors ?? Self.defaultColors(at: position),
            kind: kind,
            titleText: text,
            labelText: text,
            titleColor: nil,
            labelColor: nil,
            label: label ?? .percent,
            maximum: maximum ?? RingSpec.defaultMaximum,
            value: value,
            countdown: countdown,
            status: status,
            thresholds: thresholds
        )
        spec.staleAfter = staleAfter
        return spec
    }

    /// The status the ring is defined with.
    var status: RingStatus? {
        if case .status(let status) = coloring { return status }
        return nil
    }

    /// The thresholds the ring is defined with.
    var thresholds: Thresholds? {
        if case .thresholds(let thresholds) = coloring { return thresholds }
        return nil
    }
}
