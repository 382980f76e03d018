/// The body of `PUT /api/v1/boards/{board}/rings/{ring}`: `{"progress":P,"animation":A}`, optionally with
/// `"colors"` and `"labelColor"`. A bare number is accepted too, as in a PATCH entry. Decoding validates as
/// `RingPatch` does.
public struct RingUpdate: Sendable, Equatable, Decodable {
    public var progress: Double?
    public var colors: [RGBAColor]?
    public var labelColor: RGBAColor?
    public var animation: Animation?

    public init(progress: Double? = nil, colors: [RGBAColor]? = nil, labelColor: RGBAColor? = nil, animation: Animation? = nil) {
        self.progress = progress
        self.colors = colors
        self.labelColor = labelColor
        self.animation = animation
    }

    public init(from decoder: any Decoder) throws {
        let entry = try RingPatch(from: decoder)
        self.init(progress: entry.progress, colors: entry.colors, labelColor: entry.labelColor, animation: entry.animation)
    }
}
