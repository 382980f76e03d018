/// Seed 003's animatable gradient: a rounded rectangle filled with 2 to 8 colours, which pushes change (keeping
/// how many there are).
public struct GradientWidget: KindDefinition {
    /// nil: the palette's two for the widget's position (`RingSpec.placed(at:)`).
    public var colors: [RGBAColor]?

    public init(colors: [RGBAColor]? = nil) {
        self.colors = colors
    }

    static let keys = ["colors"]
    static let pushKeys = ["colors", "title"]

    init(reading object: KeyedDecodingContainer<AnyCodingKey>, id: String, from boundary: RingSpec.Boundary) throws {
        colors = try RequestField.colors(in: object)
    }

    func validate(field: String?, from boundary: RingSpec.Boundary) throws(APIError) {
        if let colors {
            try Limits.check(gradientColors: colors, field: RequestField.path(field, "colors"))
        }
    }

    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        try object.encode(colors: colors, forKey: "colors")
    }
}
