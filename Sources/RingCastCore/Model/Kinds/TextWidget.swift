/// Seed 003's wave text: a pushed text whose characters swell as a wave `waveWidth` characters wide passes
/// over them.
public struct TextWidget: KindDefinition {
    /// What it shows until a push sets a text; nil: its id.
    public var text: String?
    public var waveWidth: Double

    /// The wave's width when a definition gives none.
    public static let defaultWaveWidth = 6.0

    public init(text: String? = nil, waveWidth: Double = TextWidget.defaultWaveWidth) {
        self.text = text
        self.waveWidth = waveWidth
    }

    static let keys = ["text", "waveWidth"]
    static let pushKeys = ["text", "wave", "labelColor", "title"]

    init(reading object: KeyedDecodingContainer<AnyCodingKey>, id: String, from boundary: RingSpec.Boundary) throws {
        text = try RequestField.text(in: object)
        waveWidth = Self.defaultWaveWidth
        if object.contains(Self.key("waveWidth")) {
            let field = RequestField.path(RequestField.path(object.codingPath), "waveWidth")
            waveWidth = try RequestField.number(field: field, named: "waveWidth") {
                try object.decode(Double.self, forKey: Self.key("waveWidth"))
            }
            try Limits.check(waveWidth: waveWidth, field: field)
        }
    }

    func validate(field: String?, from boundary: RingSpec.Boundary) throws(APIError) {
        if let text {
            try Limits.check(labelText: text, field: RequestField.path(field, "text"))
        }
        try Limits.check(waveWidth: waveWidth, field: RequestField.path(field, "waveWidth"))
    }

    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        try object.encodeIfPresent(text, forKey: Self.key("text"))
        try object.encode(waveWidth, forKey: Self.key("waveWidth"))
    }
}
