/// The fields a ring's definition or entry may carry beyond progress and colours (DESIGN §11).
extension RequestField {
    /// `name` when it is present and JSON `null`; else `read()`'s value.
    static func nullable(
        _ name: String,
        in object: KeyedDecodingContainer<AnyCodingKey>,
        read: () throws -> Double?
    ) throws -> (value: Double?, isNull: Bool) {
        let key = AnyCodingKey(name)
        if object.contains(key), try object.decodeNil(forKey: key) { return (nil, true) }
        return (try read(), false)
    }

    /// `value`: a finite number within a counter's range (a ring's, value / max ≥ 0, is checked against the
    /// board, which knows the kind); nil when absent.
    static func value(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> Double? {
        let key = AnyCodingKey("value")
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), key.stringValue)
        let value = try number(field: field, named: "value") { try object.decode(Double.self, forKey: key) }
        try Limits.check(counterValue: value, field: field)
        return value
    }

    /// `text`: a wave text's text, 1–32 characters under the label rules; nil when absent.
    static func text(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> String? {
        let key = AnyCodingKey("text")
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), key.stringValue)
        guard let text = try? object.decode(String.self, forKey: key) else {
            throw APIError.malformed("text must be a string", field: field)
        }
        try Limits.check(labelText: text, field: field)
        return text
    }

    /// `wave`: `true`, `{}` or `{"width":W}` (1–64 characters) runs a wave over a text widget; the result is
    /// whether one runs and its width, if given.
    static func wave(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> (runs: Bool, width: Double?) {
        let key = AnyCodingKey("wave")
        guard object.contains(key) else { return (false, nil) }
        let field = path(path(object.codingPath), key.stringValue)
        if let flag = try? object.decode(Bool.self, forKey: key) {
            guard flag else {
                throw APIError.invalidValue("wave is true or {\"width\":W}; leave it out for no wave", field: field)
            }
            return (true, nil)
        }
        guard let wave = try? object.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key) else {
            throw APIError.malformed("wave must be true or an object such as {\"width\":6}", field: field)
        }
        for key in wave.allKeys where key.stringValue != "width" {
            throw APIError.invalidValue("unknown key \(quoted(key.stringValue)) in wave: it takes \"width\"", field: field)
        }
        let widthKey = AnyCodingKey("width")
        guard wave.contains(widthKey) else { return (true, nil) }
        let widthField = path(field, "width")
        let width = try number(field: widthField, named: "width") { try wave.decode(Double.self, forKey: widthKey) }
        try Limits.check(waveWidth: width, field: widthField)
        return (true, width)
    }

    /// `max`: a number in (0, 1e9]; nil when absent.
    static func maximum(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> Double? {
        let key = AnyCodingKey("max")
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), key.stringValue)
        let maximum = try number(field: field, named: "max") { try object.decode(Double.self, forKey: key) }
        try Limits.check(maximum: maximum, field: field)
        return maximum
    }

    /// `label`: `"percent"`, `"fraction"`, `"value"` or `{"text":T}` with 1–32 characters; nil when absent, and
    /// for a countdown ring (`countdown`) `"seconds"` too, what its GET says it shows (nil: its format is not used).
    static func label(in object: KeyedDecodingContainer<AnyCodingKey>, countdown: Bool = false) throws -> LabelFormat? {
        let key = AnyCodingKey("label")
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), key.stringValue)
        let expected = "label must be \"percent\", \"fraction\", \"value\", \"rate\", \"eta\" or {\"text\":\"…\"}"
        if let text = try? object.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key) {
            for other in text.allKeys where other.stringValue != "text" {
                throw APIError.unknownField(
                    "unknown key \(quoted(other.stringValue)); a text label takes only \"text\"",
                    field: path(field, other.stringValue))
            }
            let textField = path(field, "text")
            guard text.contains(AnyCodingKey("text")) else { throw APIError.malformed(expected, field: field) }
            guard let string = try? text.decode(String.self, forKey: AnyCodingKey("text")) else {
                throw APIError.malformed("text must be a string", field: textField)
            }
            try Limits.check(labelText: string, field: textField)
            return .text(string)
        }
        guard let name = try? object.decode(String.self, forKey: key) else {
            throw APIError.malformed(expected, field: field)
        }
        switch name {
        case "percent": return .percent
        case "fraction": return .fraction
        case "value": return .value
        case "rate": return .rate
        case "eta": return .eta
        case LabelFormat.countdownName where countdown: return nil
        case LabelFormat.countdownName:
            throw APIError.invalidValue(
                "\(expected); \"seconds\" is what a countdown ring shows, not a format to choose", field: field)
        default: throw APIError.invalidValue("\(expected), got \(quoted(name))", field: field)
        }
    }

    /// `title`: 1–64 characters; nil when absent.
    static func title(in object: KeyedDecodingContainer<AnyCodingKey>, named name: String = "title") throws -> String? {
        let key = AnyCodingKey(name)
        guard object.contains(key) else { return nil }
        let field = path(path(object.codingPath), name)
        guard let title = try? object.decode(String.self, forKey: key) else {
            throw APIError.malformed("\(name) must be a string", field: field)
        }
        try Limits.check(title: title, field: field)
        return title
    }

    /// A string under `name`; nil when absent.
    static func string(_ name: String, in object: KeyedDecodingContainer<AnyCodingKey>) throws -> String? {
        let key = AnyCodingKey(name)
        guard object.contains(key) else { return nil }
        guard let string = try? object.decode(String.self, forKey: key) else {
            throw APIError.malformed("\(name) must be a string", field: path(path(object.codingPath), name))
        }
        return string
    }
}

extension Limits {
    /// 422 `out_of_range` unless `maximum` is in `ringMaximums`.
    public static func check(maximum: Double, field: String?) throws(APIError) {
        try check(maximum, in: ringMaximums, named: "max", field: field)
    }
}
