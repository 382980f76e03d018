/// A value built by our own code that JSON cannot carry, and what the encoder said of it. Our encoded types hold
/// strings, integers, booleans and `Double`s, so the one way to get here is a non-finite `Double` (JSONEncoder
/// refuses NaN and ±∞): what is stored, sent or digested is then nothing at all, never empty bytes.
public struct EncodingFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The type being encoded (`BoardState`, `Frame`).
    public var type: String
    /// Where in it and why (`rings.0.value.progress: Unable to encode Double.nan directly in JSON.`).
    public var reason: String

    public init(encoding type: Any.Type, _ error: any Error) {
        self.type = String(describing: type)
        if case .invalidValue(_, let context) = error as? EncodingError {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            reason = path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        } else {
            reason = "\(error)"
        }
    }

    public var description: String { "a \(type) cannot be encoded as JSON (\(reason))" }
}
