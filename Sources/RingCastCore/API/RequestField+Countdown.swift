extension RequestField {
    /// The keys of a ring definition that set its `CountdownOptions`.
    static let countdownKeys = ["style", "tenths", "then", "webhook"]

    /// A countdown ring's options from its definition's `style`, `tenths`, `then` and `webhook`; nil when none
    /// is given. 422 `invalid_value` for an unknown style or `then`, or a webhook that is not an http(s) URL with
    /// a host; 400 `malformed` for a value of the wrong JSON type. (Another kind's definition refuses these keys
    /// before: `RingKind.kindsOfKeys`.)
    static func countdownOptions(in object: KeyedDecodingContainer<AnyCodingKey>) throws -> CountdownOptions? {
        let field = path(object.codingPath)
        guard countdownKeys.contains(where: { object.contains(AnyCodingKey($0)) }) else { return nil }
        var options = CountdownOptions()
        if let style = try string("style", in: object) {
            guard let value = CountdownOptions.Style(rawValue: style) else {
                throw APIError.invalidValue(
                    "style must be \"ring\" or \"seed\", got \(quoted(style))", field: path(field, "style"))
            }
            options.style = value
        }
        let tenthsKey = AnyCodingKey("tenths")
        if object.contains(tenthsKey) {
            guard let tenths = try? object.decode(Bool.self, forKey: tenthsKey) else {
                throw APIError.malformed("tenths must be true or false", field: path(field, "tenths"))
            }
            options.tenths = tenths
        }
        if let then = try string("then", in: object) {
            guard let value = CountdownOptions.Then(rawValue: then) else {
                throw APIError.invalidValue(
                    "then must be \"rest\", \"cancel\" or \"restart\", got \(quoted(then))", field: path(field, "then"))
            }
            options.then = value
        }
        if let webhook = try string("webhook", in: object) {
            try CountdownOptions.checkWebhook(webhook, field: path(field, "webhook"))
            options.webhook = webhook
        }
        return options
    }
}
