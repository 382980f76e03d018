/// The static description of one board: its logical canvas and its rings, as configured.
public struct BoardSpec: Sendable, Hashable {
    public var name: String
    /// Logical canvas size; the page scales it to the window.
    public var width: Double
    public var height: Double
    public var background: RGBAColor
    /// In drawing order.
    public var rings: [RingSpec]

    public init(name: String, width: Double, height: Double, background: RGBAColor, rings: [RingSpec]) {
        self.name = name
        self.width = width
        self.height = height
        self.background = background
        self.rings = rings
    }

    /// The ring with this id, if the board has one.
    public func ring(withID id: String) -> RingSpec? {
        rings.first { $0.id == id }
    }
}
