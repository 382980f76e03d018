/// Where the page draws a ring's title or label: canvas `fillText` at (x, y) with `textBaseline = "middle"`,
/// `textAlign = align` ("left", "center" or "right") and a font of `size` logical units; with `width`, the
/// text is drawn at most that wide (`fillText`'s `maxWidth`: the canvas narrows a longer text to fit), so a
/// server-made layout's text boxes never overlap whatever the font.
public struct TextSpec: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var size: Double
    public var align: String
    /// The widest the text is drawn, in logical units; nil: as wide as the text (hand-placed boards).
    public var width: Double?

    public init(x: Double, y: Double, size: Double, align: String, width: Double? = nil) {
        self.x = x
        self.y = y
        self.size = size
        self.align = align
        self.width = width
    }
}
