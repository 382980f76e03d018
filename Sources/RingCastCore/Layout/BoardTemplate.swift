/// The boards the API can create by name (issue 13): their rings and concentric groups, without
/// geometry. `Arranger` places them; `BoardSpec.laidOut` does both.
///
/// Colours, track and text colours are config/ringcast.json's: `main` is that board's rings.
public enum BoardTemplate: String, CaseIterable, Sendable {
    /// Move, Exercise, Stand as one concentric group, outermost first.
    case activity
    /// N task rings and an Overall ring derived from all of them.
    case tasks
    /// One countdown ring.
    case countdown
    /// One plain ring.
    case single
    /// The default board: the activity group, four tasks, Overall and a countdown.
    case main

    /// How many task rings `tasks` makes without a count.
    public static let defaultTaskCount = 4

    /// The template's rings in drawing order (geometry and texts zero: the arranger fills them) and
    /// its concentric groups by id, for a board of at most `maximumRings` rings. `count` is the number of task
    /// rings of `tasks` (default 4, and with their Overall at most `maximumRings`); the other templates take
    /// none. The one place a template and its count are checked, for the API, the config and the CLI: 422
    /// `limit_exceeded` for a count below 1 or beyond the board's limit (field `count`) and for a template with
    /// more rings than `maximumRings` (field `template`); 422 `invalid_value` for a count on another template.
    public func rings(count: Int?, maximumRings: Int) throws(APIError) -> (rings: [RingSpec], groups: [[String]]) {
        switch self {
        case .activity:
            return try Self.fitting((Self.activityRings, [Self.activityRings.map(\.id)]), self, count, maximumRings)
        case .tasks:
            let count = count ?? Self.defaultTaskCount
            guard maximumRings >= 2 else {
                throw .limitExceeded(
                    "the tasks template needs at least 2 rings; this server allows \(maximumRings) (limits.maxRingsPerBoard)",
                    field: "template")
            }
            guard count >= 1, count < maximumRings else {
                throw .limitExceeded(
                    "count must be a whole number of task rings from 1 to \(maximumRings - 1) (with their Overall at "
                        + "most \(maximumRings) rings, limits.maxRingsPerBoard), got \(count)",
                    field: "count")
            }
            return (Self.taskRings(count) + [Self.overall(of: count)], [])
        case .countdown:
            return try Self.fitting(
                ([Self.ring("countdown", "Countdown", Self.countdownColors, kind: .countdownRing)], []), self, count, maximumRings
            )
        case .single:
            return try Self.fitting(
                ([Self.ring("progress", "Progress", [Palette.lightBlue, Palette.darkBlue])], []), self, count, maximumRings)
        case .main:
            let rings =
                Self.activityRings + Self.taskRings(Self.defaultTaskCount) + [
                    Self.overall(of: Self.defaultTaskCount),
                    Self.ring("countdown", "Countdown", Self.countdownColors, kind: .countdownRing),
                ]
            return try Self.fitting((rings, [Self.activityRings.map(\.id)]), self, count, maximumRings)
        }
    }

    /// `made`, the rings of a template that takes no count, unless a count was given or they are too many.
    private static func fitting(
        _ made: (rings: [RingSpec], groups: [[String]]), _ template: BoardTemplate, _ count: Int?, _ maximumRings: Int
    ) throws(APIError) -> (rings: [RingSpec], groups: [[String]]) {
        guard count == nil else {
            throw .invalidValue("only the \"tasks\" template takes a count", field: "count")
        }
        guard made.rings.count <= maximumRings else {
            throw .limitExceeded(
                "the \(template.rawValue) template has \(made.rings.count) rings; this server allows \(maximumRings) "
                    + "(limits.maxRingsPerBoard)",
                field: "template")
        }
        return made
    }

    /// config/ringcast.json's track, the server's default.
    static let track = RGBAColor(hex: "#2c2c2e")!

    /// The task gradients of config/ringcast.json's main board, in order; task 5 takes the first again.
    static let taskColors: [[RGBAColor]] = [
        [Palette.lightPurple, Palette.darkPurple],
        [Palette.lightYellow, Palette.darkYellow],
        [Palette.lightOrange, Palette.darkOrange],
        [Palette.darkPurple, Palette.lightYellow],
    ]

    static let countdownColors = [Palette.purpleBg, Palette.lightBlue]

    private static let activityRings = [
        ring("move", "Move", [Palette.lightRed, Palette.darkRed]),
        ring("exercise", "Exercise", [Palette.lightGreen, Palette.darkGreen]),
        ring("stand", "Stand", [Palette.lightBlue, Palette.darkBlue]),
    ]

    private static func taskRings(_ count: Int) -> [RingSpec] {
        (1...count).map { number in
            ring("task\(number)", "Task \(number)", taskColors[(number - 1) % taskColors.count])
        }
    }

    private static func overall(of count: Int) -> RingSpec {
        ring(
            "overall", "Overall", [Palette.lightBlue, Palette.lightGreen],
            kind: .derived(DerivedRing(sources: (1...count).map { "task\($0)" })))
    }

    /// A ring without geometry; text colours automatic, as config/ringcast.json leaves them.
    private static func ring(_ id: String, _ title: String, _ colors: [RGBAColor], kind: RingKind = .plainRing) -> RingSpec {
        var ring = RingSpec(id: id, title: title, kind: kind)
        ring.colors = colors
        ring.track = track
        return ring
    }
}
