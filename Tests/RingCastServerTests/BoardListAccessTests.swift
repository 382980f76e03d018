import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// `GET /api/v1/boards` lists only the boards the request's token may read (DESIGN §14), in process with the tokens
/// of `AccessTests`: `tv-a` reads `team-a-*`, `ci-a` writes `team-a-ci`, `root` is admin of every board.
@Suite("Board list by token")
struct BoardListAccessTests {
    struct List: Decodable {
        struct Entry: Decodable {
            var name: String
        }

        var boards: [Entry]
        var defaultBoard: String?
    }

    @Test(arguments: [
        ("tv-a", ["team-a-ci"]),
        ("ci-a", ["team-a-ci"]),
        ("admin-a", ["team-a-ci"]),
        ("root", ["main", "team-a-ci", "team-b-ci"]),
    ])
    func aTokenSeesOnlyTheBoardsItMayRead(token: String, expected: [String]) throws {
        let api = try AccessTests.api()
        let secret = try #require(AccessTests.secrets[token])
        let answer = try api.get("/api/v1/boards", headers: ["Authorization": "Bearer \(secret)"])
        #expect(answer.status == 200, "\(answer.text)")
        let list = try answer.decode(List.self)
        #expect(list.boards.map(\.name).sorted() == expected)
        #expect(list.defaultBoard == "main", "the server's default board is named whoever asks")
    }

    @Test func withoutAValidToken_theListIsRefused() throws {
        let api = try AccessTests.api()
        #expect(try api.get("/api/v1/boards").status == 401)
        #expect(try api.get("/api/v1/boards", headers: ["Authorization": "Bearer nobody-secret"]).status == 401)
    }

    @Test func aReadTokenFromTheQueryOrCookie_scopesTheListToo() throws {
        let api = try AccessTests.api()
        let query = try api.get("/api/v1/boards?token=tv-a-secret").decode(List.self)
        #expect(query.boards.map(\.name) == ["team-a-ci"])
        let cookie = try api.get("/api/v1/boards", headers: ["Cookie": "ringcast_token=tv-a-secret"]).decode(List.self)
        #expect(cookie.boards.map(\.name) == ["team-a-ci"])
    }

    @Test func whileReadsAreOpen_everyoneSeesEveryBoard() throws {
        let api = try TestApplication {
            $0.writeToken = "root-secret-1"
            $0.tokens = [AccessToken(name: "ci", secret: .plain("ci-secret"), boards: ["ci"], access: .write)]
        }
        let created = try api.send(
            "PUT", "/api/v1/boards/other", headers: AccessTests.headers("root-secret-1"), body: #"{"template":"single"}"#)
        #expect(created.status == 201, "\(created.text)")
        let list = try api.get("/api/v1/boards").decode(List.self)
        #expect(list.boards.map(\.name).sorted() == ["main", "other"])
        let scoped = try api.get("/api/v1/boards", headers: ["Authorization": "Bearer ci-secret"]).decode(List.self)
        #expect(scoped.boards.map(\.name).sorted() == ["main", "other"], "no token reads alone, so reads are open to all")
    }
}
