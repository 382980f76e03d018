/// `staleAfter` in request bodies (DESIGN §13): a board's or ring's seconds without a write before it shows stale.
extension RequestField {
    /// `staleAfter`: a whole number of seconds in `Limits.staleAfterSeconds` (400 `malformed` for another JSON
    /// type, 422 `out_of_range` for a fraction or a number outside the range), or `null`, which `isNull` reports
    /// (the setting is cleared); `(nil, false)` when absent.
    static func staleAfter(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> (value: Int?, isNull: Bool) {
        let key = AnyCodingKey("staleAfter")
        guard object.contains(key) else { return (nil, false) }
        if try object.decodeNil(forKey: key) { return (nil, true) }
        let field = path(path(object.codingPath), key.stringValue)
        let number = try number(field: field, named: "staleAfter") { try object.decode(Double.self, forKey: key) }
        guard number.rounded() == number, let seconds = Int(exactly: number) else {
            throw APIError.unprocessable("staleAfter \(Limits.staleAfterRange), got \(describe(number))", field: field)
        }
        try Limits.check(staleAfter: seconds, field: field)
        return (seconds, false)
    }
}
