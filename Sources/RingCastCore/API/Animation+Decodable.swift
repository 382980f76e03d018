extension Animation: Decodable {
    /// Decodes the API's animation forms (DESIGN §6):
    /// - `"none"`: jump;
    /// - `"linear"`, `"easeIn"`, `"easeOut"`, `"easeInOut"`: that curve over 1 s;
    /// - `"smooth"`, `"snappy"`, `"bouncy"`: the spring presets;
    /// - `{"curve":C,"duration":S}`: `curve` defaults to `easeInOut`, `duration` to 1.0, in (0, 60] seconds;
    /// - `{"spring":{…}}`: a spring, as `Spring`'s decoder reads it;
    ///
    /// and either object may add `"repeat"`: a whole number of passes in `Limits.repeatCounts` or `"forever"`
    /// (default 1, the animation played once), and `"autoreverse"`: odd passes run backwards (default false,
    /// unlike SwiftUI's `repeatCount(_:autoreverses:)`, whose default is true).
    ///
    /// An object with both `spring` and `curve` or `duration` is 422 `invalid_value`; a `repeat` that is not a
    /// whole number in range is 422 `out_of_range`, one that is neither a number nor `"forever"` 422
    /// `invalid_value`; an `autoreverse` that is not true or false 400 `malformed`. Every failure is an `APIError`
    /// naming the field.
    public init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = try Self.named(name, field: field)
            return
        }
        let object = try RequestField.object(
            decoder,
            allowing: ["curve", "duration", "spring", "repeat", "autoreverse"],
            expected: "an animation: \"none\", a curve or spring name, {\"curve\":\"easeOut\",\"duration\":0.6} "
                + "or {\"spring\":{\"response\":0.5,\"dampingFraction\":0.825}}"
        )
        let curveKey = AnyCodingKey("curve")
        let durationKey = AnyCodingKey("duration")
        let springKey = AnyCodingKey("spring")
        let repetition = try Self.repetition(in: object, field: field)
        if object.contains(springKey) {
            guard !object.contains(curveKey), !object.contains(durationKey) else {
                throw APIError.invalidValue(
                    "an animation is either {\"curve\",\"duration\"} or {\"spring\":…}, not both; a spring sets its own timing",
                    field: field
                )
            }
            self = Self.spring(try object.decode(Spring.self, forKey: springKey)).repeated(repetition)
            return
        }
        var curve = TimingCurve.easeInOut
        if object.contains(curveKey) {
            let curveField = RequestField.path(field, curveKey.stringValue)
            let name: String
            do {
                name = try object.decode(String.self, forKey: curveKey)
            } catch {
                throw APIError.malformed("curve must be a string such as \"easeOut\"", field: curveField)
            }
            guard let named = TimingCurve(name: name) else {
                throw APIError.invalidValue(
                    "unknown curve \(RequestField.quoted(name)); expected one of \(Self.curveList)",
                    field: curveField
                )
            }
            curve = named
        }
        var duration = 1.0
        if object.contains(durationKey) {
            let durationField = RequestField.path(field, durationKey.stringValue)
            duration = try RequestField.number(field: durationField, named: "duration") {
                try object.decode(Double.self, forKey: durationKey)
            }
            try Limits.check(duration: duration, field: durationField)
        }
        self = Self.timing(curve, duration: duration).repeated(repetition)
    }

    /// `repeat` and `autoreverse`; nil for one pass.
    private static func repetition(
        in object: KeyedDecodingContainer<AnyCodingKey>, field: String?
    ) throws -> Repetition? {
        let repeatKey = AnyCodingKey("repeat")
        let autoreverseKey = AnyCodingKey("autoreverse")
        var autoreverses = false
        if object.contains(autoreverseKey) {
            do {
                autoreverses = try object.decode(Bool.self, forKey: autoreverseKey)
            } catch {
                throw APIError.malformed(
                    "autoreverse must be true or false", field: RequestField.path(field, autoreverseKey.stringValue))
            }
        }
        guard object.contains(repeatKey) else { return nil }
        let repeatField = RequestField.path(field, repeatKey.stringValue)
        if let word = try? object.decode(String.self, forKey: repeatKey) {
            guard word == "forever" else {
                throw APIError.invalidValue(
                    "repeat must be a whole number of passes or \"forever\", got \(RequestField.quoted(word))",
                    field: repeatField)
            }
            return Repetition(count: .forever, autoreverses: autoreverses)
        }
        guard let number = try? object.decode(Double.self, forKey: repeatKey) else {
            throw APIError.invalidValue(
                "repeat must be a whole number of passes such as 3, or \"forever\"", field: repeatField)
        }
        // Whole and in range before it becomes an Int: 2.5 passes or 1e300 are refused, not rounded or trapped on.
        let counts = Double(Limits.repeatCounts.lowerBound)...Double(Limits.repeatCounts.upperBound)
        guard number.rounded() == number, counts.contains(number) else {
            throw APIError.unprocessable(
                "repeat must be a whole number from \(Limits.repeatCounts.lowerBound) to \(Limits.repeatCounts.upperBound) "
                    + "or \"forever\", got \(RequestField.describe(number))",
                field: repeatField)
        }
        return Repetition(count: .times(Int(number)), autoreverses: autoreverses)
    }

    /// This animation played as `repetition` says; one pass (`repetition` nil or a count of 1) is itself.
    private func repeated(_ repetition: Repetition?) -> Animation {
        guard let repetition else { return self }
        switch repetition.count {
        case .times(let count): return repeatCount(count, autoreverses: repetition.autoreverses)
        case .forever: return repeatForever(autoreverses: repetition.autoreverses)
        }
    }

    /// The animation a bare name stands for.
    private static func named(_ name: String, field: String?) throws(APIError) -> Animation {
        if name == "none" { return .none }
        if let curve = TimingCurve(name: name) { return .timing(curve, duration: 1.0) }
        if let preset = Spring.presets.first(where: { $0.name == name }) { return .spring(preset.spring) }
        let presets = Spring.presets.map { "\"\($0.name)\"" }.joined(separator: ", ")
        throw .invalidValue(
            "unknown animation \(RequestField.quoted(name)); expected \"none\", a curve (\(curveList)) or a spring (\(presets))",
            field: field
        )
    }

    private static var curveList: String {
        TimingCurve.names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
