import RingCastCore
import RingCastTLS

/// One entry of the config's `tokens` (DESIGN §14): a name for logs and `/metrics`, the secret (or its
/// SHA-256, so that the config need not hold it), the boards it covers and what it may do there.
///
/// `{"name": "ci", "sha256": "9f86…", "boards": ["ci", "ci-*"], "access": "write"}`
public struct AccessToken: Sendable, Equatable {
    /// What a token may do, each level including the ones before it: `write` may read, `admin` may write.
    public enum Access: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// REST reads and viewers of the boards it covers.
        case read
        /// Pushes, PATCH, background, countdowns, and adding or deleting rings of the boards it covers.
        case write
        /// Creating, replacing and deleting the boards it covers; writing playlists (which need `*`).
        case admin

        public static func < (a: Access, b: Access) -> Bool { a.rawValue < b.rawValue }

        public var description: String {
            switch self {
            case .read: "read"
            case .write: "write"
            case .admin: "admin"
            }
        }

        init?(name: String) {
            guard let access = Self.allCases.first(where: { $0.description == name }) else { return nil }
            self = access
        }
    }

    /// How the config gives the secret.
    public enum Secret: Sendable, Equatable {
        /// The token itself.
        case plain(String)
        /// The lowercase hex of the token's SHA-256.
        case sha256(String)
    }

    /// `[a-z0-9_-]`, 1–64 characters, unique: what logs, answers and `/metrics` call the token.
    public var name: String
    public var secret: Secret
    /// Board names, `*` (every board) or a prefix ending in `*` (`team-a-*`).
    public var boards: [String]
    public var access: Access

    public init(name: String, secret: Secret, boards: [String], access: Access) {
        self.name = name
        self.secret = secret
        self.boards = boards
        self.access = access
    }

    /// Whether the token covers the board `board`.
    public func covers(board: String) -> Bool {
        boards.contains { Self.pattern($0, matches: board) }
    }

    /// Whether the token covers every board there may be (`*`).
    public var coversEveryBoard: Bool { boards.contains("*") }

    static func pattern(_ pattern: String, matches board: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasSuffix("*") { return board.hasPrefix(pattern.dropLast()) }
        return pattern == board
    }

    /// The lowercase hex SHA-256 of `secret`, as a `sha256` entry gives it.
    public static func sha256Hex(of secret: String) -> String {
        let digits = Array("0123456789abcdef")
        return String(SHA256Digest(of: Array(secret.utf8)).bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// The secret as a hex SHA-256, whichever way it was given: two entries with the same one are one token.
    var secretDigest: String {
        switch secret {
        case .plain(let token): Self.sha256Hex(of: token)
        case .sha256(let hex): hex
        }
    }

    /// Why a token's text cannot be a token (the rule `token` and `readToken` have always had), or nil.
    static func problem(withSecret token: String) -> String? {
        if token.count < 8 || token.contains(where: { $0.isWhitespace || $0 == ";" || $0 == "," }) {
            return "a token needs at least 8 characters and no spaces, ';' or ','"
        }
        return nil
    }

    /// Why `name` cannot name a token, or nil.
    static func problem(withName name: String) -> String? {
        let allowed = name.utf8.allSatisfy {
            (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F
        }
        if name.isEmpty || name.utf8.count > 64 || !allowed {
            return "expected 1–64 characters of a–z, 0–9, '-' or '_', got \"\(name)\""
        }
        if ["none", "invalid"].contains(name) {
            return "\"\(name)\" is what /metrics calls a request without a token or with an unknown one; choose another name"
        }
        return nil
    }

    /// Why `pattern` cannot be an entry of `boards`, or nil.
    /// A board name follows the API's rule (`Name`), in its words; a prefix must begin such a name.
    static func problem(withBoardPattern pattern: String) -> String? {
        guard pattern.hasSuffix("*") else { return Name.problem(of: pattern, as: .board) }
        if Name.isPrefix(String(pattern.dropLast())) { return nil }
        return "\"\(pattern)\" is not a board pattern: give a board name, \"*\" or the start of a board name ending in "
            + "\"*\" such as \"team-a-*\" (a board name: \(Name.rule))"
    }

    /// Why `hex` cannot be a `sha256` entry, or nil.
    static func problem(withDigest hex: String) -> String? {
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return "expected the 64 lowercase hex digits of the token's SHA-256 (printf %s TOKEN | sha256sum), got \"\(hex)\""
        }
        return nil
    }
}
