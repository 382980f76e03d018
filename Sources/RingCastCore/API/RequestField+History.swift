/// A board's own `history` (issue 33): `{"seconds":S,"points":N}`, either or both, overriding the server's
/// `history.seconds` and `history.points` for its rings; 0 in either turns the board's history off.
public struct HistorySetting: Sendable, Hashable, Codable {
    public var seconds: Int?
    public var points: Int?

    public init(seconds: Int? = nil, points: Int? = nil) {
        self.seconds = seconds
        self.points = points
    }

    /// `retention` with what this setting gives instead.
    public func applied(to retention: HistoryRetention) -> HistoryRetention {
        HistoryRetention(seconds: seconds ?? retention.seconds, points: points ?? retention.points)
    }

    /// 422 naming the key for a number out of `Limits.historySeconds` or `Limits.historyPoints`.
    public func validate(field: String?) throws(APIError) {
        if let seconds, !Limits.historySeconds.contains(seconds) {
            throw .unprocessable(
                "seconds must be a whole number from 0 to \(Limits.historySeconds.upperBound) (a year; 0 = no history), "
                    + "got \(seconds)", field: RequestField.path(field, "seconds"))
        }
        if let points, !Limits.historyPoints.contains(points) {
            throw .unprocessable(
                "points must be a whole number from 0 to \(Limits.historyPoints.upperBound) a ring (0 = no history), "
                    + "got \(points)", field: RequestField.path(field, "points"))
        }
    }
}

extension Limits {
    /// How far back a ring's history may reach: up to a year (`history.seconds`, a board's `history.seconds`).
    public static let historySeconds: ClosedRange<Int> = 0...31_536_000
    /// How many points a ring's history may keep (`history.points`, a board's `history.points`).
    public static let historyPoints: ClosedRange<Int> = 0...1_000_000
}

extension RequestField {
    /// A board definition's `history`: an object with `seconds` and/or `points`, whole numbers within `Limits`; nil
    /// when absent. 400 for another shape or key, 422 for a number out of range.
    static func history(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> HistorySetting? {
        let key = AnyCodingKey("history")
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), key.stringValue)
        let expected = "history must be {\"seconds\":S,\"points\":N} (either or both; 0 turns the board's history off)"
        guard let inner = try? object.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key) else {
            throw APIError.malformed(expected, field: field)
        }
        for unknown in inner.allKeys where !["seconds", "points"].contains(unknown.stringValue) {
            throw APIError.unknownField(
                "unknown key \(quoted(unknown.stringValue)) in history; it takes \"seconds\" and \"points\"",
                field: path(field, unknown.stringValue))
        }
        func whole(_ name: String) throws -> Int? {
            let key = AnyCodingKey(name)
            guard inner.contains(key) else { return nil }
            let number = try number(field: path(field, name), named: name) { try inner.decode(Double.self, forKey: key) }
            guard number.rounded() == number, let value = Int(exactly: number) else {
                throw APIError.unprocessable("\(name) must be a whole number, got \(describe(number))", field: path(field, name))
            }
            return value
        }
        let setting = HistorySetting(seconds: try whole("seconds"), points: try whole("points"))
        guard setting.seconds != nil || setting.points != nil else { throw APIError.malformed(expected, field: field) }
        try setting.validate(field: field)
        return setting
    }
}
