/// Where the page draws a ring's title or label: canvas `fillText` at (x, y) with `textBaseline = "middle"`,
/// `textAlign = align` ("left", "center" or "right") and a font of `size` logical units.
public struct TextSpec: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var size: Double
    public var align: String

    public init(x: Double, y: Double, size: Double, align: String) {
        self.x = x
        self.y = y
        self.size = size
        self.align = align
    }
}
