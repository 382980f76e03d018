/// Reads the fields of a request body and turns every way they can be wrong into an `APIError` naming the
/// field by its dotted path (`rings.move.progress`), so `init(from:)` of the request types stays short.
enum RequestField {
    /// `prefix.key`, or `key` at the top level.
    static func path(_ prefix: String?, _ key: String) -> String {
        prefix.map { "\($0).\(key)" } ?? key
    }

    /// A coding path as a dotted field path (array indices as numbers); nil for the body itself.
    static func path(_ codingPath: [any CodingKey]) -> String? {
        guard !codingPath.isEmpty else { return nil }
        return codingPath.map { key in key.intValue.map(String.init) ?? key.stringValue }.joined(separator: ".")
    }

    /// The value as a JSON object whose keys are all in `allowed` (400 `malformed` or `unknown_field`).
    static func object(
        _ decoder: any Decoder,
        allowing allowed: [String],
        expected: @autoclosure () -> String
    ) throws -> KeyedDecodingContainer<AnyCodingKey> {
        let field = path(decoder.codingPath)
        let object: KeyedDecodingContainer<AnyCodingKey>
        do {
            object = try decoder.container(keyedBy: AnyCodingKey.self)
        } catch {
            throw APIError.malformed("expected \(expected())", field: field)
        }
        // Sorted so that the same body always reports the same key.
        for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !allowed.contains(key.stringValue) {
            let known = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
            let expectation = allowed.isEmpty ? "this request takes no keys" : "allowed keys here: \(known)"
            throw APIError.unknownField(
                "unknown key \(quoted(key.stringValue)); \(expectation)",
                field: path(field, key.stringValue)
            )
        }
        return object
    }

    /// A JSON number: 400 `malformed` for another JSON type and for a number a Double cannot hold (1e400, or
    /// 0.1e-400, which would read as 0), which no client means to send. A request body meets the same refusal,
    /// with a message saying which, in `StrictJSON`'s first pass (`StrictJSON.rangeProblem(ofNumber:)`); this
    /// catches what reaches Foundation's decoder without it.
    static func number(field: String?, named name: String, _ decode: () throws -> Double) throws -> Double {
        do {
            return try decode()
        } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
            throw APIError.malformed("\(name) must be a number", field: field)
        } catch {
            // Foundation reports 1e400 as corrupt data (or its own parser error), not as a type mismatch.
            throw APIError.malformed(
                "\(name) is a number a 64-bit float cannot hold (beyond ±1.8e308, or so close to zero it would read as 0)",
                field: field)
        }
    }

    /// `progress`, checked against `Limits.progress`; nil when absent.
    static func progress(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> Double? {
        let key = AnyCodingKey("progress")
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), key.stringValue)
        let progress = try number(field: field, named: "progress") { try object.decode(Double.self, forKey: key) }
        try Limits.check(progress: progress, field: field)
        return progress
    }

    /// `colors`: 2 to 8 `#rrggbb` / `#rrggbbaa` strings (a ring takes exactly two, a gradient widget 2 to 8:
    /// its board checks which); nil when absent.
    static func colors(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> [RGBAColor]? {
        let key = AnyCodingKey("colors")
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), key.stringValue)
        var array: any UnkeyedDecodingContainer
        do {
            array = try object.nestedUnkeyedContainer(forKey: key)
        } catch {
            throw APIError.malformed("colors must be an array of two colours such as [\"#2ecc71\",\"#3498db\"]", field: field)
        }
        var colors: [RGBAColor] = []
        // Nine are enough to know the count is wrong; a huge array is not read to its end.
        while !array.isAtEnd, colors.count <= Limits.gradientColors.upperBound {
            colors.append(try color(field: path(field, String(array.currentIndex))) { try array.decode(String.self) })
        }
        if colors.count < 2 {
            try Limits.check(colors: colors, field: field)
        }
        try Limits.check(gradientColors: colors, field: field)
        return colors
    }

    /// An optional single colour under `name`, e.g. `"labelColor":"#ffffff"`.
    static func color(named name: String, in object: KeyedDecodingContainer<AnyCodingKey>) throws -> RGBAColor? {
        let key = AnyCodingKey(name)
        guard object.contains(key) else { return nil }
        return try color(field: path(path(object.codingPath), name)) { try object.decode(String.self, forKey: key) }
    }

    /// A colour: 400 `malformed` unless a JSON string, 422 `invalid_value` unless `#rrggbb` or `#rrggbbaa`.
    static func color(field: String?, _ decode: () throws -> String) throws -> RGBAColor {
        let string: String
        do {
            string = try decode()
        } catch {
            throw APIError.malformed("a colour must be a string such as \"#2ecc71\"", field: field)
        }
        guard let color = RGBAColor(hex: string) else {
            throw APIError.invalidValue("\(quoted(string)) is not a colour; expected \"#rrggbb\" or \"#rrggbbaa\"", field: field)
        }
        return color
    }

    /// `animation`; nil when absent.
    static func animation(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> Animation? {
        let key = AnyCodingKey("animation")
        guard object.contains(key) else { return nil }
        return try object.decode(Animation.self, forKey: key)
    }

    /// A number for a message as a person would write it: `11`, not `11.0`.
    static func describe(_ number: Double) -> String {
        number.rounded() == number && number.magnitude < 1e15 ? String(Int64(number)) : "\(number)"
    }

    /// A client's string for a message: quoted, and cut short so an error never echoes a whole body.
    static func quoted(_ string: String) -> String {
        let limit = 40
        let shown = string.count > limit ? String(string.prefix(limit)) + "…" : string
        return "\"\(shown)\""
    }
}
