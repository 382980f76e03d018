/// One ring or widget of a board: its definition (id, title, kind with the kind's own settings, when it shows
/// stale) and its place. The one model every boundary reads and writes through `RingSpec+Codable`: an API body
/// and the CLI's request (no place: the server lays the board out), a configuration entry (a place for a
/// hand-placed board) and the stored spec (always placed).
public struct RingSpec: Sendable, Hashable {
    public var id: String
    /// Shown under the ring; its id unless one was given.
    public var title: String
    public var kind: RingKind
    /// Seconds without a write to this ring after which it shows stale (DESIGN §13), instead of the board's
    /// `staleAfter`; nil: the board's.
    public var staleAfter: Int?
    /// Where it sits in the board's first arrangement; `RingPlace.unplaced` until the arranger places it.
    public var place: RingPlace

    /// Track grey of the seeds' `Color(.systemGray6)` in dark mode.
    public static let defaultTrack = RGBAColor(red: 44 / 255, green: 44 / 255, blue: 46 / 255)

    /// What a ring's maximum is until a push sets one.
    public static let defaultMaximum = 100.0

    public init(
        id: String, title: String? = nil, kind: RingKind = .plainRing, staleAfter: Int? = nil,
        place: RingPlace = .unplaced
    ) {
        self.id = id
        self.title = title ?? id
        self.kind = kind
        self.staleAfter = staleAfter
        self.place = place
    }

    /// Gradient colours of rings defined without any, by position on the board.
    static let defaultColors: [[RGBAColor]] = [
        [Palette.lightRed, Palette.darkRed], [Palette.lightGreen, Palette.darkGreen],
        [Palette.lightBlue, Palette.darkBlue], [Palette.lightPurple, Palette.darkPurple],
        [Palette.lightYellow, Palette.darkYellow], [Palette.lightOrange, Palette.darkOrange],
    ]

    /// The default gradient of the `position`-th ring of a board.
    public static func defaultColors(at position: Int) -> [RGBAColor] {
        defaultColors[position % defaultColors.count]
    }

    /// The ring as the `position`-th of its board: colours left out are the palette's for that position (a
    /// ring coloured by a status or thresholds takes its colours from them instead).
    public func placed(at position: Int) -> RingSpec {
        var ring = self
        switch ring.kind {
        case .gradient(var widget) where widget.colors == nil:
            widget.colors = Self.defaultColors(at: position)
            ring.kind = .gradient(widget)
        case .plain, .derived, .countdown, .indicator:
            guard var look = ring.kind.look, look.colors == nil, look.status == nil, look.thresholds == nil else { break }
            look.colors = Self.defaultColors(at: position)
            ring.kind.look = look
        case .gradient, .counter, .text:
            break
        }
        return ring
    }

    /// The first problem of the definition and place, as an `APIError` naming the key under `field`: the kind's
    /// rules (`KindDefinition.validate`), the title, `staleAfter` and the place. The rules every reader applies
    /// as it reads, for definitions made otherwise (templates, older stored specs, code).
    public func validate(field: String?, from boundary: Boundary) throws(APIError) {
        if let problem = Name.problem(of: id, as: .ring) {
            throw .invalidValue(problem, field: RequestField.path(field, "id"))
        }
        // Not for a stored spec: a ring stored by an older build (BoardState format 1 or 2, read as it was,
        // `LegacyRingSpec`) with a title today's text rules refuse still loads and shows it; a title in today's
        // shape was checked as it was read.
        if boundary != .store {
            try Limits.check(title: title, field: RequestField.path(field, "title"))
        }
        if let seconds = staleAfter {
            try Limits.check(staleAfter: seconds, field: RequestField.path(field, "staleAfter"))
        }
        try kind.definition.validate(field: field, from: boundary)
        try place.validate(field: field)
    }
}
