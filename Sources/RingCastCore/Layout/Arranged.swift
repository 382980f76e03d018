/// What `Arranger` makes of a board: each ring's size, which holds in every arrangement, and where
/// the rings and their texts go in a landscape and a portrait canvas.
public struct Arranged: Sendable, Hashable {
    /// Radius and thickness by ring id.
    public var sizes: [String: RingSize]
    /// Near 16:9.
    public var landscape: Arrangement
    /// Near 9:19.5, a 390×844 phone.
    public var portrait: Arrangement

    public init(sizes: [String: RingSize], landscape: Arrangement, portrait: Arrangement) {
        self.sizes = sizes
        self.landscape = landscape
        self.portrait = portrait
    }
}

/// A ring's radius (of its centre line) and stroke width, the same in every arrangement.
public struct RingSize: Sendable, Hashable {
    public var r: Double
    public var thickness: Double

    public init(r: Double, thickness: Double) {
        self.r = r
        self.thickness = thickness
    }

    /// How far the stroke reaches from the centre: r + thickness / 2.
    var outer: Double { r + thickness / 2 }
    /// The radius of the hole inside the stroke: r − thickness / 2.
    var inner: Double { r - thickness / 2 }
}
