/// Where a ring sits in the board's first (landscape) arrangement and what of its look is fixed: centre,
/// radius, stroke, track colour, the boxes of its title and label and their colours. The server places the
/// rings of the boards it lays out (`Arranger`); a hand-placed configuration board gives them (`cx`, `cy`, `r`,
/// `thickness` and optionally the rest), and the store keeps them with the ring.
public struct RingPlace: Sendable, Hashable {
    /// Centre of the ring.
    public var cx: Double
    public var cy: Double
    /// Radius of the ring's centre line; holds in every arrangement.
    public var r: Double
    /// Stroke width of the ring, also the diameter of its caps; holds in every arrangement.
    public var thickness: Double
    public var track: RGBAColor
    public var titleText: TextSpec
    public var labelText: TextSpec
    /// Explicit text colours; nil: automatic, the server picks one that contrasts with the current background
    /// (`RGBAColor.text(on:)`).
    public var titleColor: RGBAColor?
    public var labelColor: RGBAColor?

    public init(
        cx: Double, cy: Double, r: Double, thickness: Double, track: RGBAColor = RingSpec.defaultTrack,
        titleText: TextSpec, labelText: TextSpec, titleColor: RGBAColor? = nil, labelColor: RGBAColor? = nil
    ) {
        self.cx = cx
        self.cy = cy
        self.r = r
        self.thickness = thickness
        self.track = track
        self.titleText = titleText
        self.labelText = labelText
        self.titleColor = titleColor
        self.labelColor = labelColor
    }

    /// A ring not placed yet: the arranger places it.
    public static let unplaced = RingPlace(
        cx: 0, cy: 0, r: 1, thickness: 1, titleText: TextSpec(x: 0, y: 0, size: 1, align: "center"),
        labelText: TextSpec(x: 0, y: 0, size: 1, align: "center"))

    /// The keys that place a ring: all four or none.
    static let geometryKeys = ["cx", "cy", "r", "thickness"]
    /// Every key of a place.
    static let keys = geometryKeys + ["track", "titleText", "labelText", "titleColor", "labelColor"]

    /// The first problem with the place, as an `APIError` naming the key under `field`: finite numbers, a
    /// positive radius, a stroke no wider than the ring, texts that can be drawn.
    func validate(field: String?) throws(APIError) {
        for (name, value) in [("cx", cx), ("cy", cy)] where !value.isFinite {
            throw .invalidValue("\(name) must be a finite number", field: RequestField.path(field, name))
        }
        guard r > 0, r.isFinite else {
            throw .invalidValue("r must be positive, got \(r)", field: RequestField.path(field, "r"))
        }
        guard thickness > 0, thickness <= 2 * r else {
            throw .invalidValue(
                "thickness must be positive and at most the diameter, got \(thickness)",
                field: RequestField.path(field, "thickness"))
        }
        for (name, text) in [("titleText", titleText), ("labelText", labelText)] {
            if let problem = Self.textProblem(text) {
                throw .invalidValue(problem.message, field: RequestField.path(field, name + problem.key))
            }
        }
    }

    /// What is wrong with a text box, as the key under it (`.align`, or empty) and why; nil when nothing is.
    public static func textProblem(_ text: TextSpec) -> (key: String, message: String)? {
        guard ["left", "center", "right"].contains(text.align) else {
            return (".align", "expected \"left\", \"center\" or \"right\", got \"\(text.align)\"")
        }
        guard text.size > 0, text.size.isFinite, text.x.isFinite, text.y.isFinite else {
            return ("", "x, y must be finite and size positive")
        }
        if let width = text.width, !(width > 0 && width.isFinite) {
            return (".width", "must be a positive number")
        }
        return nil
    }
}
