import Foundation

/// The one JSON encoder configuration of the module: keys sorted so the same value always gives the same
/// bytes (handy for golden tests and for diffing captures), and `/` left unescaped.
enum JSONBytes {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
