/// `sparkline` in a ring's definition (issue 33): `{"seconds":S}`, the span of the ring's history the sparkline
/// under its label shows, or `true` for an hour.
extension RequestField {
    /// `sparkline`: `{"seconds":S}` with S a whole number in `Limits.sparklineSeconds`, or `true` (an hour); `false`
    /// and absent: none. 400 `malformed` for another shape, 422 for a span out of range.
    static func sparkline(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> Sparkline? {
        let key = AnyCodingKey("sparkline")
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), key.stringValue)
        if let flag = try? object.decode(Bool.self, forKey: key) { return flag ? Sparkline() : nil }
        let expected = "sparkline must be {\"seconds\":S} (S from \(Limits.sparklineSeconds.lowerBound) to "
            + "\(Limits.sparklineSeconds.upperBound)) or true (an hour)"
        guard let inner = try? object.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key) else {
            throw APIError.malformed(expected, field: field)
        }
        for unknown in inner.allKeys where unknown.stringValue != "seconds" {
            throw APIError.unknownField(
                "unknown key \(quoted(unknown.stringValue)) in sparkline; it takes \"seconds\"",
                field: path(field, unknown.stringValue))
        }
        let secondsKey = AnyCodingKey("seconds")
        guard inner.contains(secondsKey) else { throw APIError.malformed(expected, field: field) }
        let secondsField = path(field, "seconds")
        let number = try number(field: secondsField, named: "seconds") { try inner.decode(Double.self, forKey: secondsKey) }
        guard number.rounded() == number, let seconds = Int(exactly: number) else {
            throw APIError.unprocessable("seconds \(Limits.sparklineRange), got \(describe(number))", field: secondsField)
        }
        let sparkline = Sparkline(seconds: seconds)
        try sparkline.validate(field: field)
        return sparkline
    }
}

/// A ring's sparkline (issue 33): a line of its history over the last `seconds` (counted back from its newest
/// point), drawn under its label; the server computes it (`RecentHistory`), the page draws it.
public struct Sparkline: Sendable, Hashable, Codable {
    public var seconds: Int

    public init(seconds: Int = 3_600) {
        self.seconds = seconds
    }

    /// 422 unless `seconds` is in `Limits.sparklineSeconds`.
    func validate(field: String?) throws(APIError) {
        guard Limits.sparklineSeconds.contains(seconds) else {
            throw .unprocessable(
                "seconds \(Limits.sparklineRange), got \(seconds)", field: RequestField.path(field, "seconds"))
        }
    }
}

extension Limits {
    /// The spans a sparkline may show: a minute to a week.
    public static let sparklineSeconds: ClosedRange<Int> = 60...604_800

    static var sparklineRange: String {
        "must be a whole number of seconds from \(sparklineSeconds.lowerBound) to \(sparklineSeconds.upperBound) (a week)"
    }
}
