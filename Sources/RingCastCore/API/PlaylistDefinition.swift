/// The body of `PUT /api/v1/playlists/{playlist}`: `{"boards":["ci","sales"],"seconds":30,"transition":"circle"}`.
///
/// `boards`: 1 to 16 distinct board names, shown in this order; `seconds`: whole seconds each board is shown, 1 to
/// 86,400; `transition` (optional, default `"circle"`): the splash that grows the next board's background over the
/// previous one's at a switch — any background transition (`"leftToRight"`, `"rightToLeft"`, `"topToBottom"`,
/// `"bottomToTop"`, `"circle"`, `{"angle":deg}`) or `"none"` to change board at once. Whether the boards exist is
/// the server's to check (a stored playlist may name a board deleted since: it is skipped).
public struct PlaylistDefinition: Sendable, Equatable {
    public static let defaultTransition = SplashStyle.circle

    public var boards: [String]
    public var seconds: Int
    /// nil: `"none"`.
    public var transition: SplashStyle?

    public init(boards: [String], seconds: Int, transition: SplashStyle? = PlaylistDefinition.defaultTransition) {
        self.boards = boards
        self.seconds = seconds
        self.transition = transition
    }

    /// The keys of the body.
    static let keys = ["boards", "seconds", "transition"]

    /// The definition's keys in `object` (which holds no others), each checked: 400 `malformed` for a missing key or
    /// a value of another JSON type, 422 `invalid_value` for a bad or repeated board name, an empty or too long
    /// list or an unknown transition, 422 `out_of_range` for seconds that are not a whole number from 1 to 86,400.
    init(fields object: KeyedDecodingContainer<AnyCodingKey>) throws {
        let prefix = RequestField.path(object.codingPath)
        boards = try Self.boards(in: object, field: RequestField.path(prefix, "boards"))
        let secondsKey = AnyCodingKey("seconds")
        let secondsField = RequestField.path(prefix, "seconds")
        guard object.contains(secondsKey) else {
            throw APIError.malformed("missing key \"seconds\": how long each board is shown, e.g. 30", field: secondsField)
        }
        let seconds = try RequestField.number(field: secondsField, named: "seconds") {
            try object.decode(Double.self, forKey: secondsKey)
        }
        try Limits.check(playlistSeconds: seconds, field: secondsField)
        self.seconds = Int(seconds)
        transition = try Self.transition(in: object, field: RequestField.path(prefix, "transition"))
    }

    private static func boards(in object: KeyedDecodingContainer<AnyCodingKey>, field: String) throws -> [String] {
        let key = AnyCodingKey("boards")
        guard object.contains(key) else {
            throw APIError.malformed("missing key \"boards\": the boards to show in turn, e.g. [\"ci\",\"sales\"]", field: field)
        }
        var array: any UnkeyedDecodingContainer
        do {
            array = try object.nestedUnkeyedContainer(forKey: key)
        } catch {
            throw APIError.malformed("boards must be an array of board names such as [\"ci\",\"sales\"]", field: field)
        }
        var boards: [String] = []
        // One more than allowed is enough to know there are too many; a huge array is not read to its end.
        while !array.isAtEnd, boards.count <= Limits.playlistBoards.upperBound {
            let entryField = RequestField.path(field, String(array.currentIndex))
            guard let name = try? array.decode(String.self) else {
                throw APIError.malformed("a board name must be a string such as \"ci\"", field: entryField)
            }
            try Name.check(name, as: .board, field: entryField)
            guard !boards.contains(name) else {
                throw APIError.invalidValue(
                    "board \(RequestField.quoted(name)) is listed twice; a playlist shows each board once per cycle",
                    field: entryField)
            }
            boards.append(name)
        }
        guard Limits.playlistBoards.contains(boards.count) else {
            throw APIError.invalidValue(
                boards.isEmpty
                    ? "boards is empty: a playlist shows at least one board"
                    : "a playlist shows at most \(Limits.playlistBoards.upperBound) boards",
                field: field)
        }
        return boards
    }

    private static func transition(in object: KeyedDecodingContainer<AnyCodingKey>, field: String) throws -> SplashStyle? {
        let key = AnyCodingKey("transition")
        guard object.contains(key) else { return defaultTransition }
        if let name = try? object.decode(String.self, forKey: key), name == "none" { return nil }
        let style = try object.decode(SplashStyle.self, forKey: key)
        if case .angle(let degrees) = style {
            try Limits.check(
                degrees, in: Limits.angles, named: "angle", unit: "degrees", field: RequestField.path(field, "angle"))
        }
        return style
    }
}

extension PlaylistDefinition: Decodable {
    /// Refuses unknown keys (400 `unknown_field`) and everything `init(fields:)` refuses.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, besides: [])
    }

    /// The definition in an object that may hold `extra` keys too, which the caller reads (a config file's
    /// playlist entry and its `name`); the same checks, the same errors, the field paths from `decoder`'s.
    public init(from decoder: any Decoder, besides extra: [String]) throws {
        let object = try RequestField.object(
            decoder, allowing: Self.keys + extra,
            expected: "an object such as {\"boards\":[\"ci\",\"sales\"],\"seconds\":30,\"transition\":\"circle\"}")
        try self.init(fields: object)
    }
}

extension PlaylistDefinition: Encodable {
    private enum CodingKeys: String, CodingKey {
        case boards, seconds, transition
    }

    /// The body as the API takes it (`transition` as its name, `{"angle":deg}` or `"none"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(boards, forKey: .boards)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(PlaylistTransitionName(transition), forKey: .transition)
    }
}

/// A playlist's transition as JSON: `"none"`, a style's name, or `{"angle":deg}`.
public struct PlaylistTransitionName: Sendable, Encodable {
    public let style: SplashStyle?

    public init(_ style: SplashStyle?) {
        self.style = style
    }

    private enum AngleKeys: String, CodingKey {
        case angle
    }

    public func encode(to encoder: any Encoder) throws {
        switch style {
        case nil:
            var container = encoder.singleValueContainer()
            try container.encode("none")
        case .angle(let degrees)?:
            var container = encoder.container(keyedBy: AngleKeys.self)
            try container.encode(degrees, forKey: .angle)
        case let style?:
            var container = encoder.singleValueContainer()
            try container.encode(style.name)
        }
    }
}
