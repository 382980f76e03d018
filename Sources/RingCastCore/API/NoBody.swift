/// The body of a write that takes no data (`DELETE …/countdown`): nothing, or an empty object `{}`.
/// Any key is refused (400 `unknown_field`) rather than silently ignored.
public struct NoBody: Sendable, Equatable, Decodable {
    public init() {}

    public init(from decoder: any Decoder) throws {
        _ = try RequestField.object(decoder, allowing: [], expected: "no body, or an empty object {}")
    }
}
