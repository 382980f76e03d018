/// The one rule for what names a board, a ring (its id) or a playlist, and what a token's board pattern may
/// name: 1 to 64 of `a-z`, `0-9`, `-` and `_`, starting with a letter or digit (`[a-z0-9][a-z0-9_-]{0,63}`).
///
/// Names are path segments of URLs, keys in Redis and rows of the store, arguments of the CLI (hence no leading
/// `-`) and one spelling each (hence no upper case: `Main` and `main` would be two boards a person reads as one).
/// Every boundary asks `problem(of:as:)`, so the API, the configuration file, stored playlists and token patterns
/// accept the same names and refuse the others in the same words.
public enum Name {
    /// What a name names, as a message says it.
    public enum Kind: String, Sendable {
        case board = "board name"
        case ring = "ring id"
        case playlist = "playlist name"
    }

    /// The rule as a message states it.
    public static let rule = "use 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter or digit"

    /// The rule as a regular expression, for documents (docs/openapi.yaml).
    public static let pattern = "[a-z0-9][a-z0-9_-]{0,63}"

    /// The longest name, in characters (all ASCII).
    public static let maximumLength = 64

    /// Whether `name` follows the rule.
    public static func isValid(_ name: String) -> Bool {
        isPrefix(name) && !name.isEmpty
    }

    /// Whether `prefix` can begin a name: empty, or the start of one (a token's `"team-a-*"`).
    public static func isPrefix(_ prefix: String) -> Bool {
        let bytes = Array(prefix.utf8)
        guard bytes.count <= maximumLength else { return false }
        guard let first = bytes.first else { return true }
        return isLowerAlphanumeric(first) && bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// Why `name` cannot be a `kind`, or nil: `"Main-Hall" is not a board name: use 1 to 64 of a-z, …`.
    public static func problem(of name: String, as kind: Kind) -> String? {
        isValid(name) ? nil : "\(RequestField.quoted(name)) is not a \(kind.rawValue): \(rule)"
    }

    /// 422 `invalid_value` at `field` unless `name` can be a `kind`.
    public static func check(_ name: String, as kind: Kind, field: String?) throws(APIError) {
        if let problem = problem(of: name, as: kind) { throw .invalidValue(problem, field: field) }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
