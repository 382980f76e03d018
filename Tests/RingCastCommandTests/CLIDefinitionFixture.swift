import Foundation
import Testing

/// The repository root, found from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // RingCastCommandTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// One ring definition of Tests/fixtures/ring-definitions.json, as RingCastServerTests' `DefinitionFixture` reads
/// it (a test target sees no other's types; this is the part the CLI's leg needs).
struct CLIDefinitionFixture: Decodable, Sendable, CustomTestStringConvertible {
    enum Expectation: Equatable, Sendable {
        case accepted
        /// Refused, naming `field` relative to the ring, in the API's key names.
        case refused(field: String)
    }

    var name: String
    var ring: CLIFixtureJSON
    var expectation: Expectation
    /// `ringcast` arguments that define the same ring, where its flags can.
    var cli: [String]?

    var testDescription: String { name }

    var isAccepted: Bool { expectation == .accepted }

    private enum CodingKeys: String, CodingKey {
        case name, ring, expect, field, cli
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        ring = try c.decode(CLIFixtureJSON.self, forKey: .ring)
        cli = try c.decodeIfPresent([String].self, forKey: .cli)
        switch try c.decode(String.self, forKey: .expect) {
        case "accepted": expectation = .accepted
        case "refused": expectation = .refused(field: try c.decode(String.self, forKey: .field))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .expect, in: c, debugDescription: "expect is accepted or refused, got \(other)")
        }
    }

    static let all: [CLIDefinitionFixture] = {
        let file = repositoryRoot.appendingPathComponent("Tests/fixtures/ring-definitions.json")
        do {
            return try JSONDecoder().decode([CLIDefinitionFixture].self, from: Data(contentsOf: file))
        } catch {
            fatalError("\(file.path): \(error)")
        }
    }()
}

/// Any JSON value, to compare a request's body with the table's ring regardless of key order.
enum CLIFixtureJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([CLIFixtureJSON])
    case object([String: CLIFixtureJSON])

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
        } else if let array = try? container.decode([CLIFixtureJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: CLIFixtureJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
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

    init(parsing bytes: [UInt8]) throws {
        self = try JSONDecoder().decode(CLIFixtureJSON.self, from: Data(bytes))
    }

    /// The value as JSON text, keys sorted, for messages.
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
