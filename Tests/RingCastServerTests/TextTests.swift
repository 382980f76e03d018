import Foundation
import RingCastCore
import RingCastStorage
import Testing

@testable import RingCastServer

/// A text field of a request body: a board or ring title, or a fixed label text.
struct TextField: CustomTestStringConvertible, Sendable {
    var name: String
    var method: String
    var path: String
    /// The body, with `X` where the JSON string goes.
    var body: String
    /// The field the 422 names.
    var field: String

    var testDescription: String { name }

    func body(_ json: String) -> String {
        body.replacingOccurrences(of: "X", with: json)
    }
}

/// Issue 21: titles and label texts took U+202E (which shows the rest of the text backwards), U+200B and
/// a title of one space. Every boundary that takes such a text refuses them with 422 `invalid_value`: the
/// API's bodies and the config file; a board stored by an older build with such a title still loads.
@Suite("Texts at every boundary")
struct TextTests {
    static let board = "/api/v1/boards/main"

    static let fields: [TextField] = [
        TextField(
            name: "new board title", method: "PUT", path: "/api/v1/boards/new", body: #"{"template":"single","title":X}"#,
            field: "title"),
        TextField(
            name: "new board ring title", method: "PUT", path: "/api/v1/boards/new", body: #"{"rings":[{"id":"a","title":X}]}"#,
            field: "rings.0.title"),
        TextField(
            name: "new board ring label", method: "PUT", path: "/api/v1/boards/new",
            body: #"{"rings":[{"id":"a","label":{"text":X}}]}"#, field: "rings.0.label.text"),
        TextField(
            name: "added ring title", method: "POST", path: board + "/rings?force=true", body: #"{"id":"extra","title":X}"#,
            field: "title"),
        TextField(
            name: "added ring label", method: "POST", path: board + "/rings?force=true",
            body: #"{"id":"extra","label":{"text":X}}"#,
            field: "label.text"),
        TextField(name: "ring title", method: "PUT", path: board + "/rings/move", body: #"{"title":X}"#, field: "title"),
        TextField(
            name: "ring label", method: "PUT", path: board + "/rings/move", body: #"{"progress":0.5,"label":{"text":X}}"#,
            field: "label.text"),
        TextField(
            name: "patched title", method: "PATCH", path: board, body: #"{"rings":{"move":{"title":X}}}"#,
            field: "rings.move.title"),
        TextField(
            name: "patched label", method: "PATCH", path: board, body: #"{"rings":{"move":{"progress":0.5,"label":{"text":X}}}}"#,
            field: "rings.move.label.text"),
    ]

    /// The issue's three: a right-to-left override, a zero-width space, a blank title (as JSON escapes, and
    /// the override as the character itself).
    static let texts = [#""\u202eevil""#, "\"\u{202E}evil\"", #""Mo\u200bve""#, #"" ""#, #""\u00a0\u3000""#]

    @Test(arguments: fields)
    func hiddenAndBlankTexts_are422NamingTheField_andChangeNothing(_ field: TextField) throws {
        let api = try TestApplication()
        let before = try api.get(Self.board)
        for text in Self.texts {
            let response = try api.send(field.method, field.path, body: field.body(text))
            #expect(response.status == 422, "\(field.name) \(text): \(response.text)")
            #expect(response.error?.code == "invalid_value", "\(field.name) \(text): \(response.text)")
            #expect(response.error?.field == field.field, "\(field.name) \(text): \(response.text)")
            let message = response.error?.message ?? ""
            #expect(message.contains("U+") || message.contains("blank"), "\(message)")
        }
        #expect(try api.get(Self.board).headers["etag"] == before.headers["etag"])
        #expect(try api.get("/api/v1/boards/new").status == 404)
        // And a readable text there is taken.
        let taken = try api.send(field.method, field.path, body: field.body(#""Ünïcødé 👩‍💻""#))
        #expect((200...201).contains(taken.status), "\(field.name): \(taken.text)")
    }

    @Test(
        arguments: [
            (#""title": "Move""#, #""title": "Mo\u202eve""#, "boards[0].rings[0].title", "U+202E"),
            (#""title": "Move""#, #""title": "\u200b""#, "boards[0].rings[0].title", "U+200B"),
            (#""title": "Move""#, #""title": "   ""#, "boards[0].rings[0].title", "blank"),
            (#""name": "main","#, #""name": "main", "title": "\u2066Main","#, "boards[0].title", "U+2066"),
            (
                #""id": "move", "title": "Move","#, #""id": "move", "title": "Move", "label": {"text": "\ufeffgo"},"#,
                "boards[0].rings[0].label.text", "U+FEFF"
            ),
        ] as [(String, String, String, String)])
    func theConfigFile_refusesTheSameTexts_namingTheKey(replace: String, with: String, key: String, words: String) throws {
        let shipped = try String(contentsOf: repositoryRoot.appendingPathComponent("config/ringcast.json"), encoding: .utf8)
        let range = try #require(shipped.range(of: replace), "the shipped config changed: \(replace)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-text-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try shipped.replacingCharacters(in: range, with: with).write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
            Issue.record("\(with) was accepted")
        } catch {
            #expect(error.file == file.path)
            #expect(error.key == key, "\(error)")
            #expect(error.message.contains(words), "\(error)")
        }
    }

    /// A board made by an older build, whose titles the API took then, is stored with them: it still loads
    /// after an upgrade, shows them, and takes writes (the loader checks a stored board's structure, not its
    /// texts).
    @Test func aStoredBoardWithSuchTitles_stillLoads_andTakesWrites() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-legacy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var server = try TestServer(dataDirectory: directory)
        let created = try server.http.send(
            "PUT", "/api/v1/boards/legacy",
            body: #"{"title":"Old","rings":[{"id":"a","title":"Alpha"},{"id":"b","title":"Beta"}]}"#)
        try #require(created.status == 201, "\(created.text)")
        server.stop()

        // What the older build stored, had it been given these titles.
        let store = try SQLiteStore(directory: directory.path)
        let record = try #require(try store.loadAll().first { $0.board == "legacy" })
        // Format 2, as the older build wrote it: each ring with every field, its kind an object.
        var state = try #require(try JSONSerialization.jsonObject(with: Data(try record.state)) as? [String: Any])
        var spec = try #require(state["spec"] as? [String: Any])
        spec["rings"] = try #require(spec["rings"] as? [[String: Any]]).map { ring in
            var ring = ring
            ring["title"] = ring["title"] ?? ring["id"]
            ring["kind"] = ["plain": [String: Any]()]
            ring["label"] = "percent"
            ring["maximum"] = 100
            return ring
        }
        state["spec"] = spec
        state["format"] = 2
        let text = String(decoding: try JSONSerialization.data(withJSONObject: state, options: [.sortedKeys]), as: UTF8.self)
        let legacy =
            text
            .replacingOccurrences(of: #""title":"Old""#, with: #""title":"\u202eOld""#)
            .replacingOccurrences(of: #""title":"Alpha""#, with: #""title":" ""#)
            .replacingOccurrences(of: #""title":"Beta""#, with: #""title":"b\u200b""#)
        try #require(legacy.components(separatedBy: #"\u"#).count == 3, "the stored titles are not where expected: \(text)")
        let written = DispatchSemaphore(value: 0)
        store.write([StoredRecord(board: "legacy", revision: record.revision, state: Array(legacy.utf8))]) { error in
            #expect(error == nil)
            written.signal()
        }
        #expect(written.wait(timeout: .now() + 10) == .success)
        store.close()

        server = try TestServer(dataDirectory: directory)
        defer { server.shutdown() }
        let loaded = try server.http.get("/api/v1/boards/legacy")
        #expect(loaded.status == 200, "\(loaded.text)")
        struct Titles: Decodable {
            struct Ring: Decodable { var id: String, title: String }
            var title: String
            var rings: [Ring]
        }
        let titles = try loaded.decode(Titles.self)
        #expect(titles.title == "\u{202E}Old")
        #expect(titles.rings.map(\.title) == [" ", "b\u{200B}"])
        let pushed = try server.http.send("PUT", "/api/v1/boards/legacy/rings/a", body: #"{"progress":0.5}"#)
        #expect(pushed.status == 200, "\(pushed.text)")
        // A new title must pass the check, as anywhere.
        let renamed = try server.http.send("PUT", "/api/v1/boards/legacy/rings/a", body: #"{"title":" "}"#)
        #expect(renamed.status == 422, "\(renamed.text)")
        let fixed = try server.http.send("PUT", "/api/v1/boards/legacy/rings/a", body: #"{"title":"Alpha"}"#)
        #expect(fixed.status == 200, "\(fixed.text)")
    }
}
