/// One way of placing a board's rings on a canvas of its own size: the server lays every board out
/// in a `landscape` and a `portrait` arrangement, and the page draws the one whose aspect ratio fits
/// its window (DESIGN §11). A ring's radius and thickness are the same in every arrangement (they
/// are the ring's, `RingSpec.r` and `.thickness`), so one frame, in ring-relative coordinates,
/// serves all of them.
public struct Arrangement: Sendable, Hashable, Codable {
    /// `landscape` or `portrait`; a hand-placed board has only its `landscape`.
    public var name: String
    /// The logical canvas size; the page scales it to its window.
    public var width: Double
    public var height: Double
    /// One per ring of the board, in the board's ring order.
    public var placements: [RingPlacement]

    public init(name: String, width: Double, height: Double, placements: [RingPlacement]) {
        self.name = name
        self.width = width
        self.height = height
        self.placements = placements
    }

    /// The placement of the ring `id`, if this arrangement has one.
    public func placement(of id: String) -> RingPlacement? {
        placements.first { $0.id == id }
    }
}

/// Where one ring and its two texts go in one arrangement.
public struct RingPlacement: Sendable, Hashable, Codable {
    public var id: String
    /// The ring's centre.
    public var cx: Double
    public var cy: Double
    public var titleText: TextSpec
    public var labelText: TextSpec

    public init(id: String, cx: Double, cy: Double, titleText: TextSpec, labelText: TextSpec) {
        self.id = id
        self.cx = cx
        self.cy = cy
        self.titleText = titleText
        self.labelText = labelText
    }
}
