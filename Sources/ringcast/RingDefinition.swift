import RingCastCore

/// The body of `POST /api/v1/boards/{board}/rings` as `ringcast ring add` sends it: a ring
/// definition (docs/openapi.yaml, `NewRing`); what is nil is left out and takes the server's
/// default (the id as title, a plain ring, the palette's colours, a percentage, a maximum of 100).
struct RingDefinition: Encodable, Equatable {
    /// The kinds a ring can have, as the API names them.
    static let kinds = ["plain", "derived", "countdown"]
    /// A title's length in characters, as the API allows it.
    static let titleLength = 1...64
    /// The largest maximum a ring may have (a value is progress × maximum).
    static let largestMax = 1e9

    var id: String
    var title: String?
    var kind: String?
    /// The rings a derived ring averages; only for `kind` derived, and required there.
    var sources: [String]?
    var colors: [String]?
    var label: LabelFormat?
    var max: Double?
    /// An existing ring whose concentric group the new ring joins, innermost.
    var group: String?

    /// Throws unless `title` is nil or 1 to 64 characters long.
    static func check(title: String?) throws(CommandFailure) {
        guard let title, !titleLength.contains(title.count) else { return }
        throw CommandFailure("--title must be 1 to 64 characters long, got \(title.count)")
    }

    /// Throws unless `max` is nil or a finite number in (0, 1e9].
    static func check(max: Double?) throws(CommandFailure) {
        guard let max, !(max.isFinite && max > 0 && max <= largestMax) else { return }
        throw CommandFailure("--max must be more than 0 and at most 1000000000, got \(PushAnimation.describe(max))")
    }
}
