import Foundation
import Testing

/// One ring definition of Tests/fixtures/ring-definitions.json (issue 31, "one table proves it") and what every
/// boundary that reads ring definitions must do with it: one reader for the server's legs (RingCastServerTests)
/// and the CLI's (RingCastCommandTests).
public struct DefinitionFixture: Decodable, Sendable, CustomTestStringConvertible {
    public enum Expectation: Equatable, Sendable {
        case accepted
        /// Refused, naming `field`: a path relative to the ring in the API's key names (`colors`,
        /// `thresholds.1.0`), empty for the ring itself.
        case refused(field: String)
    }

    public var name: String
    /// The third ring (index 2) of a board whose first two are the plain rings `a` and `b`.
    public var ring: FixtureJSON
    public var expectation: Expectation
    /// `ringcast` arguments that define the same ring, where its flags can.
    public var cli: [String]?

    public var testDescription: String { name }

    public var isAccepted: Bool { expectation == .accepted }

    /// `field` under the board's third ring, in the API's dotted form: `rings.2.colors`.
    public static func ringPath(_ field: String) -> String {
        field.isEmpty ? "rings.2" : "rings.2.\(field)"
    }

    private enum CodingKeys: String, CodingKey {
        case name, ring, expect, field, cli
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        ring = try c.decode(FixtureJSON.self, forKey: .ring)
        cli = try c.decodeIfPresent([String].self, forKey: .cli)
        switch try c.decode(String.self, forKey: .expect) {
        case "accepted": expectation = .accepted
        case "refused": expectation = .refused(field: try c.decode(String.self, forKey: .field))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .expect, in: c, debugDescription: "expect is accepted or refused, got \(other)")
        }
    }

    /// The table, read once from the repository (not a bundle resource, so Package.swift stays as it is).
    public static let all: [DefinitionFixture] = {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // RingDefinitionFixtures
            .deletingLastPathComponent()  // Tests
            .appendingPathComponent("fixtures/ring-definitions.json")
        do {
            return try JSONDecoder().decode([DefinitionFixture].self, from: Data(contentsOf: file))
        } catch {
            fatalError("\(file.path): \(error)")
        }
    }()
}

/// Any JSON value, to build request bodies, config files and stored states around a fixture's ring, and to
/// compare answers regardless of key order.
public enum FixtureJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([FixtureJSON])
    case object([String: FixtureJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([FixtureJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: FixtureJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }

    public init(parsing bytes: [UInt8]) throws {
        self = try JSONDecoder().decode(FixtureJSON.self, from: Data(bytes))
    }

    /// The value as JSON text, keys sorted.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number fails, and JSON text holds none.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    public var object: [String: FixtureJSON]? {
        if case .object(let object) = self { object } else { nil }
    }

    /// The value without the object keys named `keys`, at any depth.
    public func removing(_ keys: Set<String>) -> FixtureJSON {
        switch self {
        case .object(let object):
            .object(object.filter { !keys.contains($0.key) }.mapValues { $0.removing(keys) })
        case .array(let array): .array(array.map { $0.removing(keys) })
        default: self
        }
    }
}
