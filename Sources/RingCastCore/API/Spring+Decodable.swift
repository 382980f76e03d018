extension Spring: Decodable {
    /// Decodes the body of `{"spring":…}` (DESIGN §4, §6) in one of two forms, never mixed:
    /// - `{"response":R,"dampingFraction":Z}`: SwiftUI's `.spring()` form, defaults 0.5 and 0.825,
    ///   R in (0, 60] seconds, Z in (0, 10];
    /// - `{"duration":D,"bounce":B}`: the iOS 17 form, defaults 0.5 and 0, D in (0, 60] seconds, B in (−1, 1).
    ///
    /// `{}` is `.spring()`. Unknown keys are 400 `unknown_field`, keys of both forms 422 `invalid_value`, a
    /// number out of range 422 `out_of_range`, another JSON type 400 `malformed`.
    public init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        let object = try RequestField.object(
            decoder,
            allowing: ["response", "dampingFraction", "duration", "bounce"],
            expected: "a spring such as {\"response\":0.5,\"dampingFraction\":0.825} or {\"duration\":0.5,\"bounce\":0.2}"
        )
        func number(_ name: String) throws -> Double? {
            let key = AnyCodingKey(name)
            guard object.contains(key) else { return nil }
            return try RequestField.number(field: RequestField.path(field, name), named: name) {
                try object.decode(Double.self, forKey: key)
            }
        }
        let response = try number("response")
        let dampingFraction = try number("dampingFraction")
        let duration = try number("duration")
        let bounce = try number("bounce")
        if (response != nil || dampingFraction != nil) && (duration != nil || bounce != nil) {
            throw APIError.invalidValue(
                "a spring is either {\"response\",\"dampingFraction\"} or {\"duration\",\"bounce\"}, not a mix of both",
                field: field
            )
        }
        if duration != nil || bounce != nil {
            let duration = duration ?? 0.5
            let bounce = bounce ?? 0
            try Limits.check(duration: duration, field: RequestField.path(field, "duration"))
            try Limits.check(bounce: bounce, field: RequestField.path(field, "bounce"))
            self.init(duration: duration, bounce: bounce)
            return
        }
        let defaults = Spring()
        let chosenResponse = response ?? defaults.response
        let chosenDampingFraction = dampingFraction ?? defaults.dampingFraction
        try Limits.check(duration: chosenResponse, named: "response", field: RequestField.path(field, "response"))
        try Limits.check(dampingFraction: chosenDampingFraction, field: RequestField.path(field, "dampingFraction"))
        self.init(response: chosenResponse, dampingFraction: chosenDampingFraction)
    }
}
