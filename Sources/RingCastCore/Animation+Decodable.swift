extension Animation: Decodable {
    /// Decodes the API's animation forms (DESIGN §6):
    /// - `"none"`: jump;
    /// - `"linear"`, `"easeIn"`, `"easeOut"`, `"easeInOut"`: that curve over 1 s;
    /// - `{"curve":C,"duration":S}`: `curve` defaults to `easeInOut`, `duration` to 1.0, in (0, 60] seconds.
    ///
    /// Spring forms (`"smooth"`, `"snappy"`, `"bouncy"`, `{"spring":…}`) are recognised and refused with 422
    /// `invalid_value` until springs exist. Every failure is an `APIError` naming the field.
    public init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = try Self.named(name, field: field)
            return
        }
        let object = try RequestField.object(
            decoder,
            allowing: ["curve", "duration", "spring"],
            expected: "an animation: \"none\", a curve name, or {\"curve\":\"easeOut\",\"duration\":0.6}"
        )
        let springKey = AnyCodingKey("spring")
        if object.contains(springKey) {
            throw APIError.invalidValue(
                "spring animations are not supported yet; use {\"curve\":…,\"duration\":…}",
                field: RequestField.path(field, springKey.stringValue)
            )
        }
        var curve = TimingCurve.easeInOut
        let curveKey = AnyCodingKey("curve")
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
        let durationKey = AnyCodingKey("duration")
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
        if ["smooth", "snappy", "bouncy"].contains(name) {
            throw .invalidValue("spring presets such as \"\(name)\" are not supported yet", field: field)
        }
        throw .invalidValue(
            "unknown animation \(RequestField.quoted(name)); expected \"none\" or one of \(curveList)",
            field: field
        )
    }

    private static var curveList: String {
        TimingCurve.names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
