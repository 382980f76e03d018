/// One ring's entry in a PATCH body: a bare number (the progress) or
/// `{"progress":P,"colors":["#…","#…"],"labelColor":"#…","animation":A}` with any of the keys.
///
/// Decoding checks types and ranges (progress in 0...10, exactly two valid colours, a known animation) and
/// throws `APIError`; whether the ring exists and accepts pushes is the board's business.
public struct RingPatch: Sendable, Equatable, Decodable {
    public var progress: Double?
    /// The new gradient start and end colours.
    public var colors: [RGBAColor]?
    /// The new colour of the ring's label text; it animates like the gradient (seed 003).
    public var labelColor: RGBAColor?
    /// Overrides the patch's own animation for this ring.
    public var animation: Animation?

    public init(progress: Double? = nil, colors: [RGBAColor]? = nil, labelColor: RGBAColor? = nil, animation: Animation? = nil) {
        self.progress = progress
        self.colors = colors
        self.labelColor = labelColor
        self.animation = animation
    }

    public init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        if (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil {
            let object = try RequestField.object(
                decoder,
                allowing: ["progress", "colors", "labelColor", "animation"],
                expected: "a progress number or an object with \"progress\", \"colors\", \"labelColor\" and \"animation\""
            )
            self.init(
                progress: try RequestField.progress(in: object),
                colors: try RequestField.colors(in: object),
                labelColor: try RequestField.color(named: "labelColor", in: object),
                animation: try RequestField.animation(in: object)
            )
            return
        }
        let value = try decoder.singleValueContainer()
        let progress: Double
        do {
            progress = try value.decode(Double.self)
        } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
            throw APIError.malformed(
                "expected a progress number or an object with \"progress\", \"colors\" and \"animation\"",
                field: field
            )
        } catch {
            throw APIError.malformed("progress is a number too large for a 64-bit float", field: field)
        }
        try Limits.check(progress: progress, field: field)
        self.init(progress: progress)
    }
}
