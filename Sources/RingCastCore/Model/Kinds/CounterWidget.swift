/// Seed 003's rolling counter: a pushed number whose digit columns roll like an odometer, shown in `format`,
/// showing `value` until a push sets its number (and again after `null`; nil: no data).
public struct CounterWidget: KindDefinition {
    public var format: CounterFormat
    public var value: Double?

    public init(format: CounterFormat = CounterFormat(), value: Double? = nil) {
        self.format = format
        self.value = value
    }

    static let keys = ["value", "digits", "decimals", "sign", "grouping", "unit"]
    static let pushKeys = ["value", "labelColor", "title"]

    init(reading object: KeyedDecodingContainer<AnyCodingKey>, id: String, from boundary: RingSpec.Boundary) throws {
        let field = RequestField.path(object.codingPath)
        func integer(_ key: String) throws -> Int? {
            guard object.contains(Self.key(key)) else { return nil }
            let keyField = RequestField.path(field, key)
            let number = try RequestField.number(field: keyField, named: key) {
                try object.decode(Double.self, forKey: Self.key(key))
            }
            // Out of Int's range reads as a fraction would: not a whole number in range (`validate`).
            guard number.rounded() == number, let whole = Int(exactly: number) else {
                throw APIError.unprocessable(
                    "\(key) must be a whole number, got \(RequestField.describe(number))", field: keyField)
            }
            return whole
        }
        func text(_ key: String) throws -> String? {
            guard object.contains(Self.key(key)) else { return nil }
            guard let text = try? object.decode(String.self, forKey: Self.key(key)) else {
                throw APIError.malformed("\(key) must be a string", field: RequestField.path(field, key))
            }
            return text
        }
        var sign = false
        if object.contains(Self.key("sign")) {
            guard let flag = try? object.decode(Bool.self, forKey: Self.key("sign")) else {
                throw APIError.malformed("sign must be true or false", field: RequestField.path(field, "sign"))
            }
            sign = flag
        }
        format = CounterFormat(
            digits: try integer("digits"), decimals: try integer("decimals") ?? 0, sign: sign,
            grouping: try text("grouping"), unit: try text("unit"))
        value = try RequestField.value(in: object)
        try validate(field: field, from: boundary)
    }

    func validate(field: String?, from boundary: RingSpec.Boundary) throws(APIError) {
        func whole(_ key: String, _ number: Int, in range: ClosedRange<Int>) throws(APIError) {
            guard range.contains(number) else {
                throw .unprocessable(
                    "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(number)",
                    field: RequestField.path(field, key))
            }
        }
        if let digits = format.digits { try whole("digits", digits, in: Limits.counterDigits) }
        try whole("decimals", format.decimals, in: Limits.counterDecimals)
        if let grouping = format.grouping {
            // A grouping separator may be a space (`1 234`); everything else is checked as any shown text is.
            let isSpace =
                grouping.count == 1 && grouping.unicodeScalars.allSatisfy(\.properties.isWhitespace)
                && Limits.hiddenCharacter(in: grouping) == nil
            if !isSpace {
                try Limits.check(
                    text: grouping, named: "grouping", maximumLength: Limits.counterSeparatorLength,
                    field: RequestField.path(field, "grouping"))
            }
        }
        if let unit = format.unit {
            try Limits.check(
                text: unit, named: "unit", maximumLength: Limits.counterUnitLength, field: RequestField.path(field, "unit"))
        }
        if let value {
            try Limits.check(counterValue: value, field: RequestField.path(field, "value"))
        }
        // Every label the counter can show must fit a frame whole, checked once against the longest. Not for a
        // stored counter: one stored by an older build with a longer label still loads (a refusal would empty the
        // board after an upgrade, or split a cluster mid-upgrade); the composer cuts its label at whole characters.
        if boundary != .store, let problem = Limits.labelProblem(of: format) {
            throw .invalidValue(problem.message, field: RequestField.path(field, problem.key))
        }
    }

    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        try object.encodeIfPresent(value, forKey: Self.key("value"))
        try object.encodeIfPresent(format.digits, forKey: Self.key("digits"))
        if format.decimals != 0 { try object.encode(format.decimals, forKey: Self.key("decimals")) }
        if format.sign { try object.encode(true, forKey: Self.key("sign")) }
        try object.encodeIfPresent(format.grouping, forKey: Self.key("grouping"))
        try object.encodeIfPresent(format.unit, forKey: Self.key("unit"))
    }
}
