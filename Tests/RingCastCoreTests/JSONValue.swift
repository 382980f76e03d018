import Foundation

/// Any JSON document as a tree, so tests can compare produced JSON with expected JSON text regardless of
/// key order, and see `null` apart from a missing key.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(decoding bytes: [UInt8]) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var object: [String: JSONValue]? {
        if case .object(let object) = self { object } else { nil }
    }

    var array: [JSONValue]? {
        if case .array(let array) = self { array } else { nil }
    }

    /// Structural equality, numbers within `tolerance` (trigonometry may differ in the last bits).
    func matches(_ other: JSONValue, tolerance: Double) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)):
            return abs(a - b) <= tolerance
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.matches($1, tolerance: tolerance) }
        case (.object(let a), .object(let b)):
            return a.keys.sorted() == b.keys.sorted()
                && a.allSatisfy { key, value in b[key].map { value.matches($0, tolerance: tolerance) } ?? false }
        default:
            return self == other
        }
    }

    /// Paths where two documents differ, for readable failures.
    func differences(from other: JSONValue, tolerance: Double, path: String = "$") -> [String] {
        switch (self, other) {
        case (.array(let a), .array(let b)) where a.count == b.count:
            return zip(a, b).enumerated().flatMap { index, pair in
                pair.0.differences(from: pair.1, tolerance: tolerance, path: "\(path)[\(index)]")
            }
        case (.object(let a), .object(let b)):
            let keys = Set(a.keys).union(b.keys).sorted()
            return keys.flatMap { key -> [String] in
                guard let left = a[key], let right = b[key] else { return ["\(path).\(key): only on one side"] }
                return left.differences(from: right, tolerance: tolerance, path: "\(path).\(key)")
            }
        default:
            return matches(other, tolerance: tolerance) ? [] : ["\(path): \(self) ≠ \(other)"]
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .number(let number): "\(number)"
        case .string(let string): "\"\(string)\""
        case .array(let array): "[\(array.map(\.description).joined(separator: ","))]"
        case .object(let object):
            "{\(object.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ","))}"
        }
    }
}
