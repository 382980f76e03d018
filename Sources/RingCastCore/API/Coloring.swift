/// How a push or a definition colours a ring, besides `colors` (DESIGN §13): a status's palette colours, or
/// thresholds that pick colours from the displayed value. A push takes one of `colors`, `status` and
/// `thresholds`; the latest write wins (`Board+Coloring`).
public enum Coloring: Sendable, Equatable {
    case status(RingStatus)
    case thresholds(Thresholds)
    /// `"status":null` or `"thresholds":null` (the key): back to what the ring's definition says.
    case definition(key: String)

    /// The key the body gave it under.
    var key: String {
        switch self {
        case .status: "status"
        case .thresholds: "thresholds"
        case .definition(let key): key
        }
    }
}

extension RequestField {
    /// The keys that colour a ring; a body gives one of them.
    static let coloringKeys = ["colors", "status", "thresholds"]

    /// `status` or `thresholds` (`null` for either only where `allowsNull`: a push, not a definition); nil when
    /// neither is given. 422 `invalid_value` when the object gives more than one of `colors`, `status` and
    /// `thresholds`, naming the later one.
    static func coloring(in object: KeyedDecodingContainer<AnyCodingKey>, allowsNull: Bool) throws -> Coloring? {
        let prefix = path(object.codingPath)
        let given = coloringKeys.filter { object.contains(AnyCodingKey($0)) }
        if given.count > 1 {
            throw APIError.invalidValue(
                "give one of \"colors\", \"status\" and \"thresholds\": each sets the ring's colours, so they exclude each other",
                field: path(prefix, given[1]))
        }
        for name in ["status", "thresholds"] where given.contains(name) {
            let key = AnyCodingKey(name)
            if allowsNull, try object.decodeNil(forKey: key) { return .definition(key: name) }
            let field = path(prefix, name)
            return name == "status"
                ? .status(try status(in: object, forKey: key, field: field, allowsNull: allowsNull))
                : .thresholds(try thresholds(in: object, forKey: key, field: field))
        }
        return nil
    }

    /// A status name.
    private static func status(
        in object: KeyedDecodingContainer<AnyCodingKey>, forKey key: AnyCodingKey, field: String, allowsNull: Bool
    ) throws -> RingStatus {
        let expected =
            "status must be one of \(RingStatus.listed)\(allowsNull ? " or null (back to the ring's own colours)" : "")"
        guard let name = try? object.decode(String.self, forKey: key) else {
            throw APIError.malformed(expected, field: field)
        }
        guard let status = RingStatus(rawValue: name) else {
            throw APIError.invalidValue("\(expected), got \(quoted(name))", field: field)
        }
        return status
    }

    /// `[[value, colour], …]`: 1 to 8 thresholds, values progress from 0 to 10 rising strictly, each colour one
    /// colour or two (gradient start and end).
    private static func thresholds(
        in object: KeyedDecodingContainer<AnyCodingKey>, forKey key: AnyCodingKey, field: String
    ) throws -> Thresholds {
        let example = "[[0,\"#e74c3c\"],[0.5,\"#f1c40f\"],[0.9,\"#2ecc71\"]]"
        var list: any UnkeyedDecodingContainer
        do {
            list = try object.nestedUnkeyedContainer(forKey: key)
        } catch {
            throw APIError.malformed("thresholds must be an array of [value, colour] pairs such as \(example)", field: field)
        }
        var entries: [Thresholds.Entry] = []
        // One more than allowed is enough to know there are too many; a huge array is not read to its end.
        while !list.isAtEnd, entries.count <= Limits.thresholds.upperBound {
            let entry = try list.decode(ThresholdEntry.self)
            if let previous = entries.last, entry.value <= previous.value {
                throw APIError.invalidValue(
                    "threshold values must rise strictly: \(describe(entry.value)) follows \(describe(previous.value))",
                    field: path(field, "\(entries.count).0"))
            }
            entries.append(Thresholds.Entry(value: entry.value, colors: entry.colors))
        }
        guard Limits.thresholds.contains(entries.count) else {
            throw APIError.invalidValue(
                "thresholds holds \(Limits.thresholds.lowerBound) to \(Limits.thresholds.upperBound) [value, colour] pairs, got \(entries.count)\(entries.count > Limits.thresholds.upperBound ? " or more" : "")",
                field: field)
        }
        let thresholds = Thresholds(entries)
        // What the store and the configuration check, so the three agree.
        if let problem = thresholds.problem {
            throw APIError.invalidValue(problem.message, field: problem.key.map { path(field, $0) } ?? field)
        }
        return thresholds
    }
}

/// One threshold of a request, `[value, "#colour"]` or `[value, ["#start", "#end"]]`, its errors naming the field
/// by the decoder's path (`rings.build.thresholds.1.0`).
private struct ThresholdEntry: Decodable {
    var value: Double
    var colors: [RGBAColor]

    init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        let shape = "a threshold is [value, colour], such as [0.5,\"#f1c40f\"]"
        var pair: any UnkeyedDecodingContainer
        do {
            pair = try decoder.unkeyedContainer()
        } catch {
            throw APIError.malformed(shape, field: field)
        }
        guard pair.count == 2 else {
            throw APIError.malformed("\(shape); got \(pair.count ?? 0) items", field: field)
        }
        let valueField = RequestField.path(field, "0")
        value = try RequestField.number(field: valueField, named: "a threshold's value") { try pair.decode(Double.self) }
        try Limits.check(
            value, in: Limits.progress, named: "a threshold's value", unit: "(1 is one full turn)", field: valueField)
        colors = try pair.decode(ThresholdColors.self).colors
    }
}

/// A threshold's colour: one colour (the gradient's start and end alike) or two.
private struct ThresholdColors: Decodable {
    var colors: [RGBAColor]

    init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        if let string = try? decoder.singleValueContainer().decode(String.self) {
            let color = try RequestField.color(field: field) { string }
            colors = [color, color]
            return
        }
        guard var list = try? decoder.unkeyedContainer() else {
            throw APIError.malformed(
                "a threshold's colour is a string such as \"#2ecc71\" or two, [\"#2ecc71\",\"#27ae60\"]", field: field)
        }
        var read: [RGBAColor] = []
        while !list.isAtEnd, read.count <= 2 {
            read.append(
                try RequestField.color(field: RequestField.path(field, String(list.currentIndex))) {
                    try list.decode(String.self)
                })
        }
        guard read.count == 2 else {
            throw APIError.invalidValue(
                "a threshold has one colour or two (gradient start and end), got \(read.count)", field: field)
        }
        colors = read
    }
}
