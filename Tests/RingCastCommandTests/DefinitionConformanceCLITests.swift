import ArgumentParser
import Foundation
import RingDefinitionFixtures
import Testing

@testable import ringcast

/// Issue 31, "one table proves it", the CLI's leg (the API's, the configuration file's and the stored state's are
/// in RingCastServerTests/DefinitionConformanceTests): every fixture of Tests/fixtures/ring-definitions.json
/// that `ringcast ring add` or `ringcast widget add` flags can say. Its request must carry exactly the fixture's
/// ring, or, for a ring the table refuses, the command refuses it naming the flag (`--wave-width`) or the API's
/// field (`digits: …`, the API's words, which `widget add` documents), or sends exactly the fixture's ring, so
/// that the API's leg judges the same JSON (a source that is not on the board only the server can know).
@Suite("Ring definitions: the CLI's leg of the table")
struct DefinitionConformanceCLITests {
    static let fixtures = DefinitionFixture.all.filter { $0.cli != nil }

    @Test func theTableGivesTheCLIEnoughToJudge() {
        #expect(Self.fixtures.count >= 40)
        #expect(Self.fixtures.contains { $0.isAccepted } && Self.fixtures.contains { !$0.isAccepted })
    }

    /// What the command line made: the request, or the refusal's words.
    private func outcome(of arguments: [String]) -> Result<APIRequest, CommandFailure> {
        let command: any ParsableCommand
        do {
            command = try RingCastCommand.parseAsRoot(arguments)
        } catch {
            return .failure(CommandFailure(RingCastCommand.message(for: error)))
        }
        do {
            switch command {
            case let add as AddRing: return .success(try add.request())
            case let add as AddWidget: return .success(try add.request())
            default: return .failure(CommandFailure("not ring add or widget add: \(type(of: command))"))
            }
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: fixtures)
    func theCLI_sendsEachDefinitionAsTheTableHasIt_orRefusesItNamingTheFlag(_ fixture: DefinitionFixture) throws {
        let arguments = try #require(fixture.cli)
        let result = outcome(of: arguments)
        var sent: FixtureJSON?
        if case .success(let request) = result {
            #expect(request.method == "POST" && request.path == ["boards", "conf", "rings"])
            sent = try FixtureJSON(parsing: request.body ?? [])
        }
        switch (fixture.expectation, result) {
        case (.accepted, .success):
            #expect(sent == fixture.ring, "sent \(sent?.text ?? ""), the table's ring is \(fixture.ring.text)")
        case (.accepted, .failure(let failure)):
            Issue.record("accepted expected; the CLI refused: \(failure.description)")
        case (.refused, .success):
            #expect(
                sent == fixture.ring,
                "refused expected; the CLI sent \(sent?.text ?? ""), not the table's ring \(fixture.ring.text)")
        case (.refused(let field), .failure(let failure)):
            #expect(
                Self.names(failure.description, field: field),
                "refused naming --\(Self.flag(of: field)) or \(field) expected; the CLI said: \(failure.description)")
        }
    }

    /// The flag that sets the API's `field` (its first key, camel case as words: `waveWidth.x` → `wave-width`).
    static func flag(of field: String) -> String {
        let key = field.split(separator: ".").first.map(String.init) ?? ""
        return key.reduce(into: "") { flag, character in
            if character.isUppercase { flag += "-" + character.lowercased() } else { flag.append(character) }
        }
    }

    /// Whether a refusal names the field: its flag anywhere, or the API's field (or its first key) leading.
    static func names(_ message: String, field: String) -> Bool {
        let key = field.split(separator: ".").first.map(String.init) ?? field
        return message.contains("--\(flag(of: field))") || message.hasPrefix("\(field):") || message.hasPrefix("\(key):")
    }
}
