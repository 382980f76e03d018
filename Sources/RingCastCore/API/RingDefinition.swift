/// One ring as the API defines it (`PUT /api/v1/boards/{board}`'s `rings`, `POST …/rings`):
/// `{"id":ID,"title":T,"kind":"plain"|"derived"|"countdown","sources":[ID…],"colors":["#…","#…"],"label":L,"max":M}`
/// with only `id` required, a countdown ring also taking `"style":"ring"|"seed"`, `"tenths":BOOL`,
/// `"then":"rest"|"cancel"|"restart"` and `"webhook":URL` (its `CountdownOptions`), and for `POST …/rings` also `"group":ID` (join that ring's concentric group, inside
/// it). The server places it (`BoardSpec.laidOut`).
public struct RingDefinition: Sendable, Equatable, Decodable {
    public var id: String
    public var title: String?
    public var kind: RingKind
    public var colors: [RGBAColor]?
    public var label: LabelFormat?
    public var maximum: Double?
    /// The ring whose concentric group this one joins (`POST …/rings` only).
    public var group: String?
    /// A countdown ring's options; nil when the definition gives none.
    public var countdown: CountdownOptions?

    public init(
        id: String,
        title: String? = nil,
        kind: RingKind = .plain,
        colors: [RGBAColor]? = nil,
        label: LabelFormat? = nil,
        maximum: Double? = nil,
        group: String? = nil,
        countdown: CountdownOptions? = nil
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.colors = colors
        self.label = label
        self.maximum = maximum
        self.group = group
        self.countdown = countdown
    }

    static let keys = ["id", "title", "kind", "sources", "colors", "label", "max"] + RequestField.countdownKeys

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
        guard Limits.isValidName(id) else {
            throw APIError.invalidValue(
                "\(RequestField.quoted(id)) is not a ring id: use 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter or digit",
                field: RequestField.path(field, "id"))
        }
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
        switch kindName {
        case "plain", "countdown":
            guard sources == nil else {
                throw APIError.invalidValue("only a derived ring has sources", field: sourcesField)
            }
            kind = kindName == "plain" ? .plain : .countdown
        case "derived":
            guard let sources, !sources.isEmpty else {
                throw APIError.invalidValue(
                    "a derived ring needs \"sources\": the ids of the rings it averages", field: sourcesField)
            }
            guard Set(sources).count == sources.count else {
                throw APIError.invalidValue("sources names a ring twice", field: sourcesField)
            }
            kind = .derived(sources: sources)
        default:
            throw APIError.invalidValue(
                "kind must be \"plain\", \"derived\" or \"countdown\", got \(RequestField.quoted(kindName))",
                field: RequestField.path(field, "kind"))
        }
        self.id = id
        title = try RequestField.title(in: object)
        colors = try RequestField.colors(in: object)
        label = try RequestField.label(in: object)
        maximum = try RequestField.maximum(in: object)
        group = allowsGroup ? try RequestField.string("group", in: object) : nil
        countdown = try RequestField.countdownOptions(in: object, kind: kind)
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
        return RingSpec(
            id: id,
            title: title ?? id,
            cx: 0,
            cy: 0,
            r: 1,
            thickness: 1,
            track: RingSpec.defaultTrack,
            colors: colors ?? Self.defaultColors(at: position),
            kind: kind,
            titleText: text,
            labelText: text,
            titleColor: nil,
            labelColor: nil,
            label: label ?? .percent,
            maximum: maximum ?? RingSpec.defaultMaximum,
            countdown: countdown
        )
    }
}
