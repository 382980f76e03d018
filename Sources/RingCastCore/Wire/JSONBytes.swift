import Foundation

/// The one JSON encoder configuration of the module: keys sorted so the same value always gives the same
/// bytes (handy for golden tests and for diffing captures), and `/` left unescaped.
enum JSONBytes {
    static func encode<Value: Encodable>(_ value: Value) throws(EncodingFailure) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw EncodingFailure(encoding: Value.self, error)
        }
    }
}
