import Foundation
import RingCastCore
import RingDefinitionFixtures
import Testing

@testable import RingCastServer

/// Issue 31, "one table proves it": every ring definition of Tests/fixtures/ring-definitions.json goes through
/// each boundary that reads one — the API, the configuration file, the stored state read at start (and the CLI,
/// in RingCastCommandTests) — and each must accept it or refuse it as the table says, naming the same field.
/// One test per boundary over the same table, so a failure names the boundary and the fixture. Written against
/// the boundaries' inputs and answers only (a request, a file, a stored state's bytes), not the types behind
/// them, so the same table judges the definition model whatever shape it takes.
// One fixture at a time: 167 fixtures × five legs, each building a real Application and store, would otherwise
// fill both of Swift's cooperative threads on a 2-core machine, where the live tests' process spawns run too
// (a loaded run starved them past their 120 s start deadline).
@Suite("Ring definitions: one table, every boundary", .serialized)
struct DefinitionConformanceTests {
    /// `{"title":"Conformance","rings":[{"id":"a"},{"id":"b"},RING]}`: the board every leg defines. The title is
    /// given so that two boards of the same body read the same whatever their names.
    static func board(_ fixture: DefinitionFixture) -> FixtureJSON {
        .object([
            "title": .string("Conformance"),
            "rings": .array([.object(["id": .string("a")]), .object(["id": .string("b")]), fixture.ring]),
        ])
    }

    private func describe(_ answer: TestResponse) -> String {
        guard let error = answer.error else { return "\(answer.status) \(answer.text.prefix(300))" }
        return "\(answer.status) \(error.code) field \(error.field ?? "(none)"): \(error.message)"
    }

    // MARK: - The API

    /// `PUT /api/v1/boards/conf` through the shipped pipeline: 201 when accepted; else 422 (or 400 for a value
    /// of the wrong type) naming `rings.2.FIELD`, and no board made.
    @Test(arguments: DefinitionFixture.all)
    func theAPI_acceptsOrRefusesEachDefinition_namingTheField(_ fixture: DefinitionFixture) throws {
        let api = try TestApplication()
        let answer = try api.send("PUT", "/api/v1/boards/conf", body: Self.board(fixture).text)
        switch fixture.expectation {
        case .accepted:
            #expect(answer.status == 201, "accepted expected; got \(describe(answer))")
        case .refused(let field):
            let expected = DefinitionFixture.ringPath(field)
            #expect(
                [400, 422].contains(answer.status) && answer.error?.field == expected,
                "refused naming \(expected) expected; got \(describe(answer))")
            #expect(try api.get("/api/v1/boards/conf").status == 404, "a refused PUT made the board")
        }
    }

    // MARK: - The configuration file

    /// A config file whose one board is the fixture's, laid out by the server, read by
    /// `RingCastConfiguration.load`: it loads, or its error names `boards[0].rings[2].FIELD`. The file writes
    /// indices in brackets (`rings[2].colors[0]`); both are compared in the API's dotted form, each `[N]`
    /// read as `.N` (`rings.2.colors.0`).
    @Test(arguments: DefinitionFixture.all)
    func theConfigurationFile_acceptsOrRefusesEachDefinition_namingTheField(_ fixture: DefinitionFixture) throws {
        var board = Self.board(fixture).object ?? [:]
        board["name"] = .string("conf")
        let config = FixtureJSON.object(["defaultBoard": .string("conf"), "boards": .array([.object(board)])])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-conform-\(UUID().uuidString).json")
        try config.text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var outcome: ConfigurationError?
        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
        } catch {
            outcome = error
        }
        switch fixture.expectation {
        case .accepted:
            #expect(outcome == nil, "accepted expected; got key \(outcome?.key ?? ""): \(outcome?.message ?? "")")
        case .refused(let field):
            let expected = "boards.0." + DefinitionFixture.ringPath(field)
            let key = outcome.map { Self.dotted($0.key) }
            #expect(
                key == expected,
                "refused naming \(expected) expected; got \(outcome.map { "key \($0.key): \($0.message)" } ?? "loaded")")
        }
    }

    /// `boards[0].rings[2].colors[0]` as `boards.0.rings.2.colors.0`.
    static func dotted(_ key: String) -> String {
        key.replacingOccurrences(of: "[", with: ".").replacingOccurrences(of: "]", with: "")
    }

    // MARK: - The stored state

    /// Where the stored board places its rings, side by side: the placement keys a stored ring holds besides
    /// its definition.
    static func placement(at index: Int) -> [String: FixtureJSON] {
        let cx = Double(100 + 200 * index)
        func text(y: Double, size: Double) -> FixtureJSON {
            .object(["x": .number(cx), "y": .number(y), "size": .number(size), "align": .string("center")])
        }
        return [
            "cx": .number(cx), "cy": .number(100), "r": .number(50), "thickness": .number(10),
            "track": .string("#2C2C2E"), "titleText": text(y: 170, size: 14), "labelText": text(y: 100, size: 18),
        ]
    }

    /// The state a server stores for board `conf` made of the fixture's board (format 3: a stored ring is its API
    /// definition plus its placement keys, in `spec.rings`), at rest and never written to.
    static func storedState(_ fixture: DefinitionFixture) -> FixtureJSON {
        let rings = [FixtureJSON.object(["id": .string("a")]), .object(["id": .string("b")]), fixture.ring]
        let placed = rings.enumerated().map { index, ring -> FixtureJSON in
            // A ring that is not an object is stored as it is: there is nothing to place.
            guard let definition = ring.object else { return ring }
            return .object(definition.merging(placement(at: index)) { given, _ in given })
        }
        let spec = FixtureJSON.object([
            "name": .string("conf"), "title": .string("Conformance"), "width": .number(600), "height": .number(200),
            "background": .string("#000000"), "rings": .array(placed), "groups": .array([]), "alternates": .array([]),
        ])
        return .object([
            "format": .number(3), "board": .string("conf"), "fps": .number(60), "epoch": .number(0),
            "revision": .number(1), "rings": .object([:]),
            "background": .object(["base": .array([0, 0, 0, 1].map(FixtureJSON.number)), "layers": .array([])]),
            "written": .object(["rings": .object([:])]), "spec": spec,
        ])
    }

    /// The stored state read as the server reads each board's row at start (`StateCodec.decode`, decode and
    /// check): it loads and is served, or its error names a key ending in `rings.2.FIELD` (whatever comes
    /// before, `spec.`, is the state's own). A key from the error's text (`key spec.rings.2.max must …`), or for
    /// a state that does not decode, from the decoding error's path.
    @Test(arguments: DefinitionFixture.all)
    func theStoredState_loadsOrIsRefusedForEachDefinition_namingTheField(_ fixture: DefinitionFixture) throws {
        let bytes = Array(Self.storedState(fixture).text.utf8)
        var refusal: (key: String?, message: String)?
        do {
            switch try StateCodec.decode(bytes, configured: nil, fps: 60, source: "conf") {
            case .served: break
            case .deleted: refusal = (nil, "read as a deleted board")
            case .unconfigured: refusal = (nil, "read as a board without a spec")
            }
        } catch {
            refusal = (Self.storedKey(of: error.description, bytes: bytes), error.description)
        }
        switch fixture.expectation {
        case .accepted:
            #expect(refusal == nil, "loads expected; got \(refusal?.message.prefix(400) ?? "")")
        case .refused(let field):
            let expected = DefinitionFixture.ringPath(field)
            let key = refusal?.key
            #expect(
                key == expected || key?.hasSuffix("." + expected) == true,
                "refused naming …\(expected) expected; got key \(key ?? "(none)"): \(refusal?.message.prefix(400) ?? "loaded")")
        }
    }

    /// The key a stored state's refusal names: `key K` in a check's message, else the path of the error decoding
    /// it gives, dotted (`spec.rings.2.max`); nil when neither says.
    static func storedKey(of message: String, bytes: [UInt8]) -> String? {
        if let range = message.range(of: ": key ") {
            return message[range.upperBound...].split(separator: " ").first.map(String.init)
        }
        do {
            _ = try JSONDecoder().decode(BoardState.self, from: Data(bytes))
            return nil
        } catch let error as DecodingError {
            let path: [any CodingKey]
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                path = context.codingPath
            case .keyNotFound(let key, let context):
                path = context.codingPath + [key]
            @unknown default:
                path = []
            }
            return path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        } catch {
            return nil
        }
    }

    // MARK: - A PUT over an existing board

    /// A `PUT` over an existing board applies every field of its body, exactly as creating does: the board read
    /// back after replacing one of rings a, b and a plain c is the board created fresh from the same body
    /// (GET, and the SVG of the fixture's ring), but for the name, revision and write times. A refused body
    /// leaves the existing board as it was.
    @Test(arguments: DefinitionFixture.all)
    func aPutOverABoard_appliesEveryFieldAsCreatingDoes(_ fixture: DefinitionFixture) throws {
        let api = try TestApplication()
        let first = ##"{"title":"Conformance","rings":[{"id":"a"},{"id":"b"},{"id":"c","kind":"plain"}]}"##
        let created = try api.send("PUT", "/api/v1/boards/conf", body: first)
        try #require(created.status == 201, "\(describe(created))")
        let before = try api.get("/api/v1/boards/conf")
        let body = Self.board(fixture).text
        let replaced = try api.send("PUT", "/api/v1/boards/conf", body: body)
        guard fixture.isAccepted else {
            #expect(replaced.status >= 400, "a refused body replaced the board: \(describe(replaced))")
            let after = try api.get("/api/v1/boards/conf")
            #expect(after.status == 200 && after.body == before.body, "a refused PUT changed the board: \(after.text)")
            return
        }
        try #require(replaced.status == 200, "replaced expected; got \(describe(replaced))")
        let fresh = try api.send("PUT", "/api/v1/boards/fresh", body: body)
        try #require(fresh.status == 201, "\(describe(fresh))")
        let ignored: Set<String> = ["board", "revision", "updatedAt"]
        let replacedBoard = try FixtureJSON(parsing: api.get("/api/v1/boards/conf").body).removing(ignored)
        let freshBoard = try FixtureJSON(parsing: api.get("/api/v1/boards/fresh").body).removing(ignored)
        #expect(replacedBoard == freshBoard, "replaced:\n\(replacedBoard.text)\ncreated:\n\(freshBoard.text)")
        let id = fixture.ring.object?["id"].flatMap { if case .string(let id) = $0 { id } else { nil } } ?? "c"
        // The SVG names its board (`data-board="conf"`); the rest must match. At the animations' end: frames before
        // the replacing change's tick still show the old structure (docs/STORAGE.md), the fresh board never had one.
        let replacedSVG = try api.get("/api/v1/boards/conf/rings/\(id).svg?at=end")
        let freshSVG = try api.get("/api/v1/boards/fresh/rings/\(id).svg?at=end")
        let renamed = replacedSVG.text.replacingOccurrences(of: #"data-board="conf""#, with: #"data-board="fresh""#)
        #expect(
            replacedSVG.status == 200 && renamed == freshSVG.text, "replaced:\n\(replacedSVG.text)\ncreated:\n\(freshSVG.text)")
    }
}
