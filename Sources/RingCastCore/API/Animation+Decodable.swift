extension Animation: Decodable {
    /// Decodes the API's animation forms (DESIGN §6):
    /// - `"none"`: jump;
    /// - `"linear"`, `"easeIn"`, `"easeOut"`, `"easeInOut"`: that curve over 1 s;
    /// - `"smooth"`, `"snappy"`, `"bouncy"`: the spring presets;
    /// - `{"curve":C,"duration":S}`: `curve` defaults to `easeInOut`, `duration` to 1.0, in (0, 60] seconds;
    /// - `{"spring":{…}}`: a spring, as `Spring`'s decoder reads it.
    ///
    /// An object with both `spring` and `curve` or `duration` is 422 `invalid_value`. Every failure is an
    /// `APIError` naming the field.
    public init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = try Self.named(name, field: field)
            return
        }
        let object = try RequestField.object(
            decoder,
            allowing: ["curve", "duration", "spring"],
            expected: "an animation: \"none\", a curve or spring name, {\"curve\":\"easeOut\",\"duration\":0.6} "
                + "or {\"spring\":{\"response\":0.5,\"dampingFraction\":0.825}}"
        )
        let curveKey = AnyCodingKey("curve")
        let durationKey = AnyCodingKey("duration")
        let springKey = AnyCodingKey("spring")
        if object.contains(springKey) {
            guard !object.contains(curveKey), !object.contains(durationKey) else {
                throw APIError.invalidValue(
                    "an animation is either {\"curve\",\"duration\"} or {\"spring\":…}, not both; a spring sets its own timing",
                    field: field
                )
            }
            self = .spring(try object.decode(Spring.self, forKey: springKey))
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
        self = .timing(curve, duration: duration)
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
