import Foundation
import RingCastCore
import RingCastTransport
import Testing

@testable import RingCastServer

/// Scoped tokens (DESIGN §14) in process: a matrix of token × board × action with the status each must get, the
/// policy's answers, the config's checks, `/metrics`' refusals, push-to-create and the board's own PATCH.
@Suite("Access")
struct AccessTests {
    static let root = "root-secret-1"
    static let secrets = [
        "root": root, "tv-a": "tv-a-secret", "ci-a": "ci-a-secret", "admin-a": "admin-a-secret", "invalid": "nobody-secret",
    ]

    /// Team a's tokens beside the write shorthand (`root`, admin of every board); `ci-a` given by its SHA-256.
    static func api(autoCreate: BoardTemplate? = nil) throws -> TestApplication {
        let api = try TestApplication {
            $0.writeToken = root
            $0.tokens = [
                AccessToken(name: "tv-a", secret: .plain("tv-a-secret"), boards: ["team-a-*"], access: .read),
                AccessToken(
                    name: "ci-a", secret: .sha256(AccessToken.sha256Hex(of: "ci-a-secret")), boards: ["team-a-ci"],
                    access: .write),
                AccessToken(name: "admin-a", secret: .plain("admin-a-secret"), boards: ["team-a-*"], access: .admin),
            ]
            $0.autoCreate = autoCreate
        }
        for board in ["team-a-ci", "team-b-ci"] {
            let created = try api.send(
                "PUT", "/api/v1/boards/\(board)", headers: headers(root), body: #"{"template":"single"}"#)
            #expect(created.status == 201, "\(created.text)")
        }
        return api
    }

    static func headers(_ token: String?) -> [String: String] {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }

    enum Action: String, CaseIterable, Sendable {
        case read, write, admin
    }

    /// One cell of the matrix: who, where, what, and the status.
    struct Cell: CustomTestStringConvertible, Sendable {
        var token: String
        var board: String
        var action: Action
        var status: Int
        var testDescription: String { "\(token) \(action) \(board) → \(status)" }
    }

    static let matrix: [Cell] = {
        // The statuses per token for team a's board and team b's, in the order read, write, admin.
        let table: [(String, [Int], [Int])] = [
            ("none", [401, 401, 401], [401, 401, 401]),
            ("invalid", [401, 401, 401], [401, 401, 401]),
            ("tv-a", [200, 403, 403], [403, 403, 403]),
            ("ci-a", [200, 200, 403], [403, 403, 403]),
            ("admin-a", [200, 200, 200], [403, 403, 403]),
            ("root", [200, 200, 200], [200, 200, 200]),
        ]
        return table.flatMap { token, a, b in
            Action.allCases.enumerated().flatMap { index, action in
                [
                    Cell(token: token, board: "team-a-ci", action: action, status: a[index]),
                    Cell(token: token, board: "team-b-ci", action: action, status: b[index]),
                ]
            }
        }
    }()

    @Test(arguments: matrix)
    func tokenBoardAndAction_getTheirStatus_andARefusalChangesNothing(_ cell: Cell) throws {
        let api = try Self.api()
        let path = "/api/v1/boards/\(cell.board)"
        let headers = Self.headers(Self.secrets[cell.token])
        let before = try api.send("GET", path, headers: Self.headers(Self.root))
        let answer: TestResponse
        switch cell.action {
        case .read: answer = try api.send("GET", path, headers: headers)
        case .write: answer = try api.send("PUT", path + "/rings/progress", headers: headers, body: #"{"progress":0.5}"#)
        case .admin: answer = try api.send("PUT", path, headers: headers, body: #"{"template":"tasks","count":2}"#)
        }
        #expect(answer.status == cell.status, "\(answer.text)")
        if cell.status == 403 {
            let message = try #require(answer.error?.message)
            #expect(message.contains("token \"\(cell.token)\""), "\(message)")
            #expect(message.contains("may not \(cell.action.rawValue) board \"\(cell.board)\""), "\(message)")
            #expect(!message.contains("secret"), "never the secret: \(message)")
        }
        if cell.status != 200 {
            let after = try api.send("GET", path, headers: Self.headers(Self.root))
            #expect(after.headers["etag"] == before.headers["etag"])
        }
    }

    @Test func refusals_areCountedByTokenNameAndPermission_neverBySecret() throws {
        let api = try Self.api()
        _ = try api.send("PUT", "/api/v1/boards/team-b-ci", headers: Self.headers("ci-a-secret"), body: #"{"template":"single"}"#)
        _ = try api.send("GET", "/api/v1/boards/team-b-ci", headers: Self.headers("nobody-secret"))
        _ = try api.send("GET", "/api/v1/boards/team-b-ci", headers: Self.headers(nil))
        let metrics = try api.send("GET", "/metrics", headers: Self.headers(Self.root)).text
        let lines = metrics.split(separator: "\n").filter { $0.hasPrefix("ringcast_auth_refusals_total{") }
        func count(_ token: String, _ permission: String) -> String? {
            lines.first { $0.contains("token=\"\(token)\"") && $0.contains("permission=\"\(permission)\"") }
                .flatMap { $0.split(separator: " ").last.map(String.init) }
        }
        #expect(count("ci-a", "admin") == "1", "\(lines)")
        #expect(count("invalid", "read") == "1", "\(lines)")
        #expect(count("none", "read") == "1", "\(lines)")
        #expect(!metrics.contains("secret"))
    }

    @Test func thePolicy_namesTheMissingPermission_andTheBoardsTheTokenCovers() {
        let ci = AccessToken(name: "ci", secret: .plain("ci-secret-1"), boards: ["ci", "ci-*"], access: .write)
        let need = TokenPolicy.Need(access: .admin, resource: .board("sales"))
        #expect(throws: TokenPolicy.Refusal.self) { try TokenPolicy.check(need, by: ci) }
        do {
            try TokenPolicy.check(need, by: ci)
        } catch {
            #expect(error.error.status == 403)
            #expect(error.error.message == "token \"ci\" may write boards ci, ci-*; it may not admin board \"sales\"")
            #expect(error.token == "ci" && error.permission == .admin)
        }
        #expect((try? TokenPolicy.check(TokenPolicy.Need(access: .read, resource: .board("ci-lint")), by: ci)) != nil)
        let playlist = TokenPolicy.Need(access: .read, resource: .boards(["ci", "sales"], playlist: "lobby"))
        #expect(throws: TokenPolicy.Refusal.self) { try TokenPolicy.check(playlist, by: ci) }
        #expect(throws: TokenPolicy.Refusal.self) {
            try TokenPolicy.check(TokenPolicy.Need(access: .admin, resource: .server), by: ci)
        }
    }

    /// A config's `tokens` entry and the key its mistake is reported at.
    struct TokenMistake: CustomTestStringConvertible, Sendable {
        var name: String
        var tokens: String
        var key: String
        var testDescription: String { name }
    }

    static let tokenMistakes: [TokenMistake] = [
        TokenMistake(
            name: "bad name", tokens: #"[{"name":"CI Team","token":"ci-secret-1","boards":["ci"],"access":"write"}]"#,
            key: "tokens[0].name"),
        TokenMistake(
            name: "duplicate name",
            tokens: #"[{"name":"ci","token":"ci-secret-1","boards":["ci"],"access":"write"},"#
                + #"{"name":"ci","token":"ci-secret-2","boards":["ci"],"access":"read"}]"#,
            key: "tokens[1].name"),
        TokenMistake(
            name: "same secret twice",
            tokens: #"[{"name":"ci","token":"ci-secret-1","boards":["ci"],"access":"write"},"#
                + #"{"name":"tv","sha256":"\#(AccessToken.sha256Hex(of: "ci-secret-1"))","boards":["ci"],"access":"read"}]"#,
            key: "tokens[1]"),
        TokenMistake(
            name: "bad sha256", tokens: #"[{"name":"ci","sha256":"abc","boards":["ci"],"access":"write"}]"#,
            key: "tokens[0].sha256"),
        TokenMistake(
            name: "token and sha256",
            tokens: #"[{"name":"ci","token":"ci-secret-1","sha256":"\#(AccessToken.sha256Hex(of: "x"))","boards":["ci"],"#
                + #""access":"write"}]"#,
            key: "tokens[0].sha256"),
        TokenMistake(
            name: "no secret", tokens: #"[{"name":"ci","boards":["ci"],"access":"write"}]"#, key: "tokens[0].token"),
        TokenMistake(
            name: "short token", tokens: #"[{"name":"ci","token":"short","boards":["ci"],"access":"write"}]"#,
            key: "tokens[0].token"),
        TokenMistake(
            name: "empty boards", tokens: #"[{"name":"ci","token":"ci-secret-1","boards":[],"access":"write"}]"#,
            key: "tokens[0].boards"),
        TokenMistake(
            name: "bad board pattern", tokens: #"[{"name":"ci","token":"ci-secret-1","boards":["c*i"],"access":"write"}]"#,
            key: "tokens[0].boards[0]"),
        TokenMistake(
            name: "unknown access", tokens: #"[{"name":"ci","token":"ci-secret-1","boards":["ci"],"access":"delete"}]"#,
            key: "tokens[0].access"),
        TokenMistake(
            name: "the shorthand's name", tokens: #"[{"name":"write","token":"ci-secret-1","boards":["ci"],"access":"write"}]"#,
            key: "tokens[0].name"),
        TokenMistake(
            name: "unknown key", tokens: #"[{"name":"ci","token":"ci-secret-1","boards":["ci"],"access":"write","x":1}]"#,
            key: "tokens[0].x"),
    ]

    @Test(arguments: tokenMistakes)
    func aMistakeInTokens_stopsTheStartNamingItsKey(_ mistake: TokenMistake) throws {
        let shipped = try String(
            contentsOf: repositoryRoot.appendingPathComponent("config/ringcast.json"), encoding: .utf8)
        let edited = shipped.replacingOccurrences(
            of: #""host": "127.0.0.1","#,
            with: "\"host\": \"127.0.0.1\", \"token\": \"root-secret-1\", \"tokens\": \(mistake.tokens),")
        #expect(edited != shipped)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-tokens-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try edited.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
            Issue.record("the mistake was accepted")
        } catch {
            #expect(error.key == mistake.key, "\(error)")
        }
    }

    @Test func tokensAndAutoCreate_loadFromTheFile() throws {
        let shipped = try String(
            contentsOf: repositoryRoot.appendingPathComponent("config/ringcast.json"), encoding: .utf8)
        let hex = AccessToken.sha256Hex(of: "ci-secret-1").uppercased()
        let edited = shipped.replacingOccurrences(
            of: #""host": "127.0.0.1","#,
            with: #""host": "127.0.0.1", "autoCreate": {"template": "tasks"}, "tokens": [{"name": "ci", "sha256": ""#
                + hex + #"", "boards": ["ci", "ci-*"], "access": "write"}],"#)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-tokens-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try edited.write(to: file, atomically: true, encoding: .utf8)
        let configuration = try RingCastConfiguration.load(file: file.path, environment: [:])
        #expect(configuration.autoCreate == .tasks)
        #expect(
            configuration.tokens == [
                AccessToken(
                    name: "ci", secret: .sha256(hex.lowercased()), boards: ["ci", "ci-*"], access: .write)
            ])
        #expect(TokenPolicy(configuration: configuration).token(presented: "ci-secret-1")?.name == "ci")
    }

    // MARK: - Push-to-create

    @Test func autoCreateOff_aWriteToAMissingRingOrBoard_is404NamingAutoCreate() throws {
        let api = try Self.api()
        let ring = try api.send(
            "PUT", "/api/v1/boards/team-a-ci/rings/lint", headers: Self.headers(Self.root), body: #"{"progress":0.5}"#)
        #expect(ring.status == 404)
        #expect(ring.error?.message.contains("autoCreate") == true, "\(ring.text)")
        let board = try api.send(
            "PUT", "/api/v1/boards/team-a-new/rings/lint", headers: Self.headers(Self.root), body: #"{"progress":0.5}"#)
        #expect(board.status == 404)
        #expect(board.error?.field == "board")
        #expect(try api.send("GET", "/api/v1/boards/team-a-new", headers: Self.headers(Self.root)).status == 404)
    }

    @Test func autoCreateOn_aWriteToAMissingRing_addsIt_andToAMissingBoard_createsItFromTheTemplate() throws {
        let api = try Self.api(autoCreate: .single)
        let ring = try api.send(
            "PUT", "/api/v1/boards/team-a-ci/rings/lint", headers: Self.headers("ci-a-secret"), body: #"{"progress":0.5}"#)
        #expect(ring.status == 200, "\(ring.text)")
        let grown = try api.send("GET", "/api/v1/boards/team-a-ci/rings/lint", headers: Self.headers(Self.root))
        #expect(grown.status == 200)
        #expect(grown.text.contains(#""target":0.5"#), "\(grown.text)")

        let board = try api.send(
            "PUT", "/api/v1/boards/team-a-new/rings/lint", headers: Self.headers("admin-a-secret"), body: #"{"progress":0.25}"#)
        #expect(board.status == 201, "\(board.text)")
        let created = try api.send("GET", "/api/v1/boards/team-a-new", headers: Self.headers(Self.root))
        #expect(created.status == 200)
        let snapshot = try created.decode(TestSnapshot.self)
        #expect(snapshot[ring: "lint"]?.target == 0.25)
        #expect(snapshot[ring: "progress"] != nil, "the template's ring")

        let patched = try api.send(
            "PATCH", "/api/v1/boards/team-a-ci", headers: Self.headers("ci-a-secret"), body: #"{"rings":{"docs":0.75}}"#)
        #expect(patched.status == 200, "\(patched.text)")
        #expect(try patched.decode(TestSnapshot.self)[ring: "docs"]?.target == 0.75)
    }

    @Test func autoCreateOn_aTokenWithoutAdmin_cannotCreateABoard_andNothingChanges() throws {
        let api = try Self.api(autoCreate: .single)
        let refused = try api.send(
            "PUT", "/api/v1/boards/team-a-ci2/rings/lint", headers: Self.headers("ci-a-secret"), body: #"{"progress":0.5}"#)
        #expect(refused.status == 403, "\(refused.text)")
        #expect(refused.error?.message.contains("may not admin board \"team-a-ci2\"") == true, "\(refused.text)")
        #expect(try api.send("GET", "/api/v1/boards/team-a-ci2", headers: Self.headers(Self.root)).status == 404)
    }

    @Test func autoCreate_keepsTheBoardLimit() throws {
        let api = try TestApplication {
            $0.autoCreate = .single
            $0.maxBoards = $0.boards.count
        }
        let refused = try api.send("PUT", "/api/v1/boards/extra/rings/lint", body: #"{"progress":0.5}"#)
        #expect(refused.status == 422, "\(refused.text)")
        #expect(try api.get("/api/v1/boards/extra").status == 404)
    }

    // MARK: - The board's own PATCH

    @Test func patchOfTitleAndBackground_keepsEveryValue() throws {
        let api = try TestApplication()
        let seeded = try api.send(
            "PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.3,"exercise":0.6},"animation":"none"}"#)
        #expect(seeded.status == 200)
        let before = try api.get("/api/v1/boards/main").decode(TestSnapshot.self)
        let patched = try api.send(
            "PATCH", "/api/v1/boards/main", body: ##"{"title":"Team A","background":"#102030","staleAfter":600}"##)
        #expect(patched.status == 200, "\(patched.text)")
        let after = try api.get("/api/v1/boards/main")
        #expect(after.text.contains(#""title":"Team A""#), "\(after.text)")
        let snapshot = try after.decode(TestSnapshot.self)
        for id in ["move", "exercise", "stand", "task1"] {
            #expect(snapshot[ring: id]?.target == before[ring: id]?.target, "\(id)")
        }
        let list = try api.get("/api/v1/boards").text
        #expect(list.contains(#""title":"Team A""#), "\(list)")
        let empty = try api.send("PATCH", "/api/v1/boards/main", body: "{}")
        #expect(empty.status == 400)
        let long = try api.send(
            "PATCH", "/api/v1/boards/main", body: #"{"title":""# + String(repeating: "x", count: 500) + #""}"#)
        #expect(long.status == 422 || long.status == 400, "\(long.text)")
    }
}
