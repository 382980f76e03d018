/// The body of `POST /api/v1/boards/{board}/countdown`: `{"seconds":N}`, the countdown's length,
/// in (0, 86400] (checked when decoded, like every range, and again when the board starts it).
public struct CountdownStart: Sendable, Equatable {
    public var seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
    }
}

extension CountdownStart: Decodable {
    /// Refuses unknown keys (400 `unknown_field`), a missing or non-number `seconds` (400 `malformed`)
    /// and one outside (0, 86400] (422 `out_of_range`).
    public init(from decoder: any Decoder) throws {
        let object = try RequestField.object(decoder, allowing: ["seconds"], expected: "an object such as {\"seconds\":60}")
        let key = AnyCodingKey("seconds")
        guard object.contains(key) else {
            throw APIError.malformed("missing key \"seconds\": how long the countdown runs, e.g. 60", field: "seconds")
        }
        seconds = try RequestField.number(field: "seconds", named: "seconds") { try object.decode(Double.self, forKey: key) }
        try Limits.check(countdownSeconds: seconds, field: "seconds")
    }
}
