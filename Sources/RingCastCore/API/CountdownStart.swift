/// The body of `POST /api/v1/boards/{board}/countdown`: `{"seconds":N,"animated":BOOL}`, the countdown's
/// length, in (0, 86400] (checked when decoded, like every range, and again when the board starts it), and
/// whether the stroke fills continuously (true, the default) or jumps once per whole second (false, seed
/// 004's `setProgress(animated: false)`).
public struct CountdownStart: Sendable, Equatable {
    public var seconds: Double
    public var animated: Bool

    public init(seconds: Double, animated: Bool = true) {
        self.seconds = seconds
        self.animated = animated
    }
}

extension CountdownStart: Decodable {
    /// Refuses unknown keys (400 `unknown_field`), a missing or non-number `seconds` and a non-boolean
    /// `animated` (400 `malformed`) and seconds outside (0, 86400] (422 `out_of_range`).
    public init(from decoder: any Decoder) throws {
        let object = try RequestField.object(
            decoder, allowing: ["seconds", "animated"], expected: "an object such as {\"seconds\":60}")
        let key = AnyCodingKey("seconds")
        guard object.contains(key) else {
            throw APIError.malformed("missing key \"seconds\": how long the countdown runs, e.g. 60", field: "seconds")
        }
        seconds = try RequestField.number(field: "seconds", named: "seconds") { try object.decode(Double.self, forKey: key) }
        try Limits.check(countdownSeconds: seconds, field: "seconds")
        let animatedKey = AnyCodingKey("animated")
        animated = true
        if object.contains(animatedKey) {
            guard let value = try? object.decode(Bool.self, forKey: animatedKey) else {
                throw APIError.malformed("animated must be true or false", field: "animated")
            }
            animated = value
        }
    }
}
