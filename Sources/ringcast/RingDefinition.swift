import RingCastCore

/// The body of `POST /api/v1/boards/{board}/rings` as `ringcast ring add` sends it: a ring
/// definition (docs/openapi.yaml, `NewRing`); what is nil is left out and takes the server's
/// default (the id as title, a plain ring, the palette's colours, a percentage, a maximum of 100).
/// `ringcast widget add` sends the same body with a widget's `kind` and keys (DESIGN §12).
struct RingDefinition: Encodable, Equatable {
    /// The kinds a ring can have, as the API names them.
    static let kinds = ["plain", "derived", "countdown"]
    /// The kinds of the other widgets, as the API names them.
    static let widgetKinds = ["counter", "text", "indicator", "gradient"]

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
    /// A counter's first number, its integer columns, decimals, `+` sign, grouping separator and unit.
    var value: Double?
    var digits: Int?
    var decimals: Int?
    var sign: Bool?
    var grouping: String?
    var unit: String?
    /// A text widget's text and its wave's width in characters.
    var text: String?
    var waveWidth: Double?
    /// The status the ring is coloured by (instead of `colors`).
    var status: String?

    /// The API's check of a title (`Limits.check(title:)`), for `--title`.
    static func check(title: String?) throws(CommandFailure) {
        guard let title else { return }
        do {
            try Limits.check(title: title, field: nil)
        } catch {
            throw CommandFailure("--title: \(error.message)")
        }
    }

    /// The API's check of a ring's `max` (`Limits.ringMaximums`), for `--max`.
    static func check(max: Double?) throws(CommandFailure) {
        try PushAnimation.check("--max", max, in: Limits.ringMaximums, unit: "")
    }
}
