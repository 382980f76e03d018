import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// Issue 31: one name rule (`Name`) for boards, rings, playlists and tokens' board patterns. A config board named
/// `Main-Hall` loaded and was served, but a playlist could not name it. Every boundary now takes the same names
/// and refuses the others with the same message.
@Suite("Name rule")
struct NameRuleTests {
    /// A name and whether the rule takes it.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var valid: Bool
        /// Whether it can stand in a URL's path as it is (the in-process pipeline takes the path undecoded).
        var fitsAPath = true
        var testDescription: String { "\(name.debugDescription) \(valid ? "taken" : "refused")" }
    }

    static let cases: [Case] = [
        Case(name: "main", valid: true),
        Case(name: "0", valid: true),
        Case(name: "main-hall", valid: true),
        Case(name: "ci_2-x", valid: true),
        Case(name: String(repeating: "a", count: 64), valid: true),
        Case(name: "Main-Hall", valid: false),
        Case(name: "MAIN", valid: false),
        Case(name: "-main", valid: false),
        Case(name: "_main", valid: false),
        Case(name: "main.hall", valid: false),
        Case(name: String(repeating: "a", count: 65), valid: false),
        Case(name: "", valid: false, fitsAPath: false),
        Case(name: "main hall", valid: false, fitsAPath: false),
        Case(name: "mäin", valid: false, fitsAPath: false),
    ]

    private static func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// The refusal every boundary must give for `name`, or nil.
    private static func expected(_ name: String, _ kind: Name.Kind) -> String? {
        Name.problem(of: name, as: kind)
    }

    @Test func theRule_isTheAPIsDocumentedOne() {
        #expect(Name.pattern == "[a-z0-9][a-z0-9_-]{0,63}")
        #expect(
            Name.problem(of: "Main-Hall", as: .board)
                == #""Main-Hall" is not a board name: use 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter or digit"#)
    }

    @Test(arguments: cases)
    func theAPI_takesAndRefusesTheSameNames_inTheSameWords(_ test: Case) throws {
        let api = try TestApplication { $0.autoCreate = .tasks }
        let name = test.name
        if test.fitsAPath {
            // Board PUT: the name is in the URL.
            let board = try api.send("PUT", "/api/v1/boards/\(name)?force=true", body: #"{"template":"single"}"#)
            if test.valid {
                #expect(board.status == 201 || board.status == 200, "\(board.text)")
            } else {
                #expect(board.status == 422)
                #expect(board.error == .init(code: "invalid_value", message: Self.expected(name, .board)!, field: "board"))
                #expect(try api.get("/api/v1/boards/\(name)").status == 404)
            }
            // Ring PUT with push-to-create: the ring's id is in the URL.
            let ring = try api.send("PUT", "/api/v1/boards/main/rings/\(name)", body: #"{"progress":0.5}"#)
            if test.valid {
                #expect(ring.status == 200, "\(ring.text)")
            } else {
                #expect(ring.status == 422)
                #expect(ring.error == .init(code: "invalid_value", message: Self.expected(name, .ring)!, field: "ring"))
            }
            // Playlist PUT: the playlist's name is in the URL.
            let playlist = try api.send("PUT", "/api/v1/playlists/\(name)", body: #"{"boards":["main"],"seconds":5}"#)
            if test.valid {
                #expect(playlist.status == 201, "\(playlist.text)")
            } else {
                #expect(playlist.status == 422)
                #expect(
                    playlist.error == .init(code: "invalid_value", message: Self.expected(name, .playlist)!, field: "playlist"))
            }
        }
        // A ring added: the id is in the body.
        let added = try api.send("POST", "/api/v1/boards/main/rings?force=true", body: #"{"id":\#(Self.json(name + "x"))}"#)
        if Self.expected(name + "x", .ring) == nil {
            #expect(added.status == 201, "\(added.text)")
        } else {
            #expect(added.error == .init(code: "invalid_value", message: Self.expected(name + "x", .ring)!, field: "id"))
        }
        // A playlist's boards: the board names are in the body.
        let listed = try api.send(
            "PUT", "/api/v1/playlists/wall", body: #"{"boards":["main",\#(Self.json(name))],"seconds":5}"#)
        if test.valid {
            #expect(listed.status == 201 || listed.status == 200 || (name == "main" && listed.status == 422), "\(listed.text)")
        } else {
            #expect(listed.error == .init(code: "invalid_value", message: Self.expected(name, .board)!, field: "boards.1"))
        }
    }

    @Test(arguments: cases)
    func theConfigFile_takesAndRefusesTheSameNames_namingTheKey(_ test: Case) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-names-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        func load(_ text: String) throws -> RingCastConfiguration {
            try text.write(to: file, atomically: true, encoding: .utf8)
            return try RingCastConfiguration.load(file: file.path, environment: [:])
        }
        let name = Self.json(test.name)
        let attempts: [(text: String, key: String, kind: Name.Kind)] = [
            (#"{"defaultBoard":\#(name),"boards":[{"name":\#(name),"template":"single"}]}"#, "boards[0].name", .board),
            (#"{"boards":[{"name":"wall","template":"single"}],"defaultBoard":\#(name)}"#, "defaultBoard", .board),
            (#"{"defaultBoard":"wall","boards":[{"name":"wall","rings":[{"id":\#(name)}]}]}"#, "boards[0].rings[0].id", .ring),
            (
                #"{"defaultBoard":"wall","boards":[{"name":"wall","template":"single"}],"#
                    + #""playlists":[{"name":\#(name),"boards":["wall"],"seconds":5}]}"#,
                "playlists[0].name", .playlist
            ),
            (
                #"{"defaultBoard":"wall","boards":[{"name":"wall","template":"single"}],"#
                    + #""tokens":[{"name":"ci","token":"ci-secret-1","boards":[\#(name)],"access":"write"}]}"#,
                "tokens[0].boards[0]", .board
            ),
        ]
        for attempt in attempts {
            if test.valid {
                #expect(throws: Never.self, "\(attempt.key)") { _ = try load(attempt.text) }
            } else {
                let error = #expect(throws: ConfigurationError.self, "\(attempt.key)") { _ = try load(attempt.text) }
                #expect(error?.key == attempt.key)
                #expect(error?.message == Self.expected(test.name, attempt.kind), "\(attempt.key)")
            }
        }
    }

    @Test(arguments: [
        ("*", true), ("team-a-*", true), ("t*", true), (String(repeating: "a", count: 64) + "*", true),
        ("Team-*", false), ("-*", false), ("team.*", false), ("c*i", false), ("team-a-**", false),
    ])
    func aTokensBoardPrefix_mustStartABoardName(pattern: String, valid: Bool) {
        #expect((AccessToken.problem(withBoardPattern: pattern) == nil) == valid)
    }
}
