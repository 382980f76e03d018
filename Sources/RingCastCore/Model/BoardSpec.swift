/// The static description of one board: its title, its rings and how they are placed, as configured
/// or as shaped through the API (DESIGN §11).
///
/// The rings' own `cx`, `cy` and texts, with `width` × `height`, are the first arrangement
/// (`landscape`); `alternates` holds the others (a server-made layout's `portrait`).
public struct BoardSpec: Sendable, Hashable, Codable {
    public var name: String
    /// Shown in the board index and the page's title; the name unless one was given.
    public var title: String
    /// Logical canvas size of the first arrangement; the page scales it to the window.
    public var width: Double
    public var height: Double
    public var background: RGBAColor
    /// In drawing order.
    public var rings: [RingSpec]
    /// Rings drawn concentric, outermost first, by id; every other ring stands alone.
    public var groups: [[String]]
    /// Arrangements beyond the first; empty for a hand-placed board.
    public var alternates: [Arrangement]
    /// Seconds without a write after which the board's rings and widgets show stale (DESIGN §13), those with no
    /// `staleAfter` of their own; nil: never.
    public var staleAfter: Int?
    /// How much of its rings' history the board keeps, where it differs from the server's `history` (issue 33); nil:
    /// the server's.
    public var history: HistorySetting?

    public init(
        name: String,
        title: String? = nil,
        width: Double,
        height: Double,
        background: RGBAColor,
        rings: [RingSpec],
        groups: [[String]] = [],
        alternates: [Arrangement] = []
    ) {
        self.name = name
        self.title = title ?? name
        self.width = width
        self.height = height
        self.background = background
        self.rings = rings
        self.groups = groups
        self.alternates = alternates
    }

    /// Every arrangement, the first (`landscape`, from the rings' own placement) first.
    public var arrangements: [Arrangement] {
        let first = Arrangement(
            name: "landscape",
            width: width,
            height: height,
            placements: rings.map {
                RingPlacement(id: $0.id, cx: $0.cx, cy: $0.cy, titleText: $0.titleText, labelText: $0.labelText)
            }
        )
        return [first] + alternates
    }

    /// The ring with this id, if the board has one.
    public func ring(withID id: String) -> RingSpec? {
        rings.first { $0.id == id }
    }
}

extension BoardSpec {
    private enum CodingKeys: String, CodingKey {
        case name, title, width, height, background, rings, groups, alternates, staleAfter, history
    }

    /// The stored spec, its rings read by their one codec; a ring stored without colours takes the palette's for
    /// its position, as one defined without any does (`RingSpec.placed(at:)`).
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: CodingKeys.self)
        name = try object.decode(String.self, forKey: .name)
        title = try object.decode(String.self, forKey: .title)
        width = try object.decode(Double.self, forKey: .width)
        height = try object.decode(Double.self, forKey: .height)
        background = try object.decode(RGBAColor.self, forKey: .background)
        rings = try object.decode([RingSpec].self, forKey: .rings).enumerated().map { $1.placed(at: $0) }
        groups = try object.decode([[String]].self, forKey: .groups)
        alternates = try object.decode([Arrangement].self, forKey: .alternates)
        staleAfter = try object.decodeIfPresent(Int.self, forKey: .staleAfter)
        history = try object.decodeIfPresent(HistorySetting.self, forKey: .history)
    }
}
