import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// Boards and rings shaped through the API (DESIGN §11), in process: the same pipeline the server runs, with a
/// real store. Every refusal is followed by reads proving nothing changed.
@Suite("Runtime boards")
struct RuntimeBoardTests {
    struct Snapshot: Decodable {
        struct Ring: Decodable {
            var id: String
            var title: String
            var kind: String
            var progress: Double?
            var text: String
            var max: Double
            var sources: [String]?
        }
        var board: String
        var title: String
        var revision: Int
        var rings: [Ring]
    }

    struct List: Decodable {
        struct Entry: Decodable {
            struct Ring: Decodable {
                var id: String
            }
            var name: String
            var title: String
            var rings: [Ring]
        }
        var boards: [Entry]
    }

    private func snapshot(_ api: TestApplication, _ board: String) throws -> Snapshot {
        try api.get("/api/v1/boards/\(board)").decode(Snapshot.self)
    }

    private func names(_ api: TestApplication) throws -> [String] {
        try api.get("/api/v1/boards").decode(List.self).boards.map(\.name)
    }

    @Test(
        arguments: [
            (#"{"template":"activity"}"#, ["move:plain", "exercise:plain", "stand:plain"]),
            (#"{"template":"tasks","count":3}"#, ["task1:plain", "task2:plain", "task3:plain", "overall:derived"]),
            (#"{"template":"countdown"}"#, ["countdown:countdown"]),
            (#"{"template":"single"}"#, ["progress:plain"]),
            (
                #"{"template":"main"}"#,
                [
                    "move:plain", "exercise:plain", "stand:plain", "task1:plain", "task2:plain", "task3:plain", "task4:plain",
                    "overall:derived", "countdown:countdown",
                ]
            ),
        ] as [(String, [String])])
    func eachTemplate_createsTheBoardItNames(body: String, rings: [String]) throws {
        let api = try TestApplication()
        let created = try api.send("PUT", "/api/v1/boards/made", body: body)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.headers["location"] == "/api/v1/boards/made")
        #expect(created.headers["etag"] != nil)
        let board = try snapshot(api, "made")
        #expect(board.rings.map { "\($0.id):\($0.kind)" } == rings)
        #expect(try names(api) == ["main", "made"])
        let spec = try #require(api.boards["made"]?.animator.projected.spec)
        #expect(spec.arrangements.map(\.name) == ["landscape", "portrait"])
        if body.contains("activity") { #expect(spec.groups == [["move", "exercise", "stand"]]) }
    }

    @Test func anExplicitList_createsItsRingsAndGroups_andAPutAgainReplacesThemKeepingValues() throws {
        let api = try TestApplication()
        let body = """
            {"title":"CI","rings":[{"id":"build","title":"Build"},{"id":"tests","title":"Tests","colors":["#2ecc71","#27ae60"]},\
            {"id":"all","title":"Overall","kind":"derived","sources":["build","tests"]}],"groups":[["build","tests"]]}
            """
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: body).status == 201)
        let board = try snapshot(api, "ci")
        #expect(board.title == "CI")
        #expect(board.rings.map(\.id) == ["build", "tests", "all"])
        #expect(board.rings[2].sources == ["build", "tests"])
        #expect(api.boards["ci"]?.animator.projected.spec.groups == [["build", "tests"]])

        #expect(try api.send("PATCH", "/api/v1/boards/ci", body: #"{"rings":{"build":0.5},"animation":"none"}"#).status == 200)
        let replaced = try api.send(
            "PUT", "/api/v1/boards/ci", body: #"{"rings":[{"id":"build"},{"id":"deploy"}],"title":"CI 2"}"#)
        #expect(replaced.status == 200, "\(replaced.text)")
        api.settle()
        let after = try snapshot(api, "ci")
        #expect(after.title == "CI 2")
        #expect(after.rings.map(\.id) == ["build", "deploy"])
        #expect(after.rings[0].progress == 0.5, "a ring that stays keeps its value")
        #expect(after.rings[1].progress == nil)
    }

    static let refusals: [BadRequest] = [
        BadRequest(
            name: "bad board name", method: "PUT", path: "/api/v1/boards/Bad_Name", body: #"{"template":"single"}"#,
            status: 422, code: "invalid_value", field: "board"),
        BadRequest(
            name: "unknown template", method: "PUT", path: "/api/v1/boards/x", body: #"{"template":"pie"}"#,
            status: 422, code: "invalid_value", field: "template"),
        BadRequest(
            name: "count on another template", method: "PUT", path: "/api/v1/boards/x",
            body: #"{"template":"single","count":2}"#, status: 422, code: "invalid_value", field: "count"),
        BadRequest(
            name: "too many tasks", method: "PUT", path: "/api/v1/boards/x", body: #"{"template":"tasks","count":24}"#,
            status: 422, code: "limit_exceeded", field: "count"),
        BadRequest(
            name: "template and rings", method: "PUT", path: "/api/v1/boards/x",
            body: #"{"template":"single","rings":[{"id":"a"}]}"#, status: 422, code: "invalid_value", field: "rings"),
        BadRequest(
            name: "neither", method: "PUT", path: "/api/v1/boards/x", body: #"{"title":"X"}"#, status: 400, code: "malformed",
            field: "rings"),
        BadRequest(
            name: "duplicate ring id", method: "PUT", path: "/api/v1/boards/x", body: #"{"rings":[{"id":"a"},{"id":"a"}]}"#,
            status: 422, code: "invalid_value", field: "rings.1.id"),
        BadRequest(
            name: "bad ring id", method: "PUT", path: "/api/v1/boards/x", body: #"{"rings":[{"id":"A b"}]}"#,
            status: 422, code: "invalid_value", field: "rings.0.id"),
        BadRequest(
            name: "unknown source", method: "PUT", path: "/api/v1/boards/x",
            body: #"{"rings":[{"id":"a"},{"id":"all","kind":"derived","sources":["a","b"]}]}"#,
            status: 422, code: "invalid_value", field: "rings.1.sources.1"),
        BadRequest(
            name: "source not plain", method: "PUT", path: "/api/v1/boards/x",
            body: #"{"rings":[{"id":"c","kind":"countdown"},{"id":"all","kind":"derived","sources":["c"]}]}"#,
            status: 422, code: "invalid_value", field: "rings.1.sources.0"),
        BadRequest(
            name: "group of an unknown ring", method: "PUT", path: "/api/v1/boards/x",
            body: #"{"rings":[{"id":"a"}],"groups":[["a","b"]]}"#, status: 422, code: "invalid_value", field: "groups.0"),
        BadRequest(
            name: "ring in two groups", method: "PUT", path: "/api/v1/boards/x",
            body: #"{"rings":[{"id":"a"},{"id":"b"}],"groups":[["a","b"],["a"]]}"#, status: 422, code: "invalid_value",
            field: "groups.1"),
        BadRequest(
            name: "no rings", method: "PUT", path: "/api/v1/boards/x", body: #"{"rings":[]}"#, status: 422,
            code: "invalid_value", field: "rings"),
        BadRequest(
            name: "25 rings", method: "PUT", path: "/api/v1/boards/x",
            body: #"{"rings":["# + (1...25).map { #"{"id":"r\#($0)"}"# }.joined(separator: ",") + "]}",
            status: 422, code: "limit_exceeded", field: "rings"),
        BadRequest(
            name: "unknown key", method: "PUT", path: "/api/v1/boards/x", body: #"{"template":"single","colour":1}"#,
            status: 400, code: "unknown_field", field: "colour"),
        BadRequest(
            name: "label text too long", method: "PUT", path: "/api/v1/boards/x",
            body: #"{"rings":[{"id":"a","label":{"text":"# + "\"" + String(repeating: "x", count: 33) + #""}}]}"#,
            status: 422, code: "invalid_value", field: "rings.0.label.text"),
        BadRequest(
            name: "zero max", method: "PUT", path: "/api/v1/boards/x", body: #"{"rings":[{"id":"a","max":0}]}"#,
            status: 422, code: "out_of_range", field: "rings.0.max"),
        BadRequest(
            name: "ring taken", method: "POST", path: "/api/v1/boards/main/rings?force=true", body: #"{"id":"move"}"#,
            status: 409, code: "already_exists", field: "id"),
        BadRequest(
            name: "ring on an unknown board", method: "POST", path: "/api/v1/boards/nope/rings", body: #"{"id":"a"}"#,
            status: 404, code: "not_found", field: "board"),
        BadRequest(
            name: "ring joining an unknown group", method: "POST", path: "/api/v1/boards/main/rings?force=true",
            body: #"{"id":"a","group":"nope"}"#, status: 422, code: "invalid_value", field: "group"),
        BadRequest(
            name: "delete an unknown ring", method: "DELETE", path: "/api/v1/boards/main/rings/nope", status: 404,
            code: "not_found"),
        BadRequest(
            name: "delete an unknown board", method: "DELETE", path: "/api/v1/boards/nope", status: 404, code: "not_found",
            field: "board"),
        BadRequest(
            name: "value and progress", method: "PUT", path: "/api/v1/boards/main/rings/move",
            body: #"{"value":1,"progress":0.5}"#, status: 422, code: "invalid_value", field: "value"),
        BadRequest(
            name: "value beyond ten turns", method: "PUT", path: "/api/v1/boards/main/rings/move",
            body: #"{"value":300,"max":20}"#, status: 422, code: "out_of_range", field: "value"),
        BadRequest(
            name: "unknown label", method: "PUT", path: "/api/v1/boards/main/rings/move", body: #"{"label":"pie"}"#,
            status: 422, code: "invalid_value", field: "label"),
        BadRequest(
            name: "empty title", method: "PUT", path: "/api/v1/boards/main/rings/move", body: #"{"title":""}"#,
            status: 422, code: "invalid_value", field: "title"),
        BadRequest(
            name: "value on a derived ring", method: "PATCH", path: "/api/v1/boards/main",
            body: #"{"rings":{"overall":{"value":3}}}"#, status: 422, code: "read_only", field: "rings.overall"),
    ]

    @Test(arguments: refusals)
    func everyBadShape_isRefusedWithItsError_andChangesNothing(_ bad: BadRequest) throws {
        let api = try TestApplication()
        let before = try api.get("/api/v1/boards")
        let main = try api.get("/api/v1/boards/main")
        let response = try api.send(bad.method, bad.path, headers: bad.headers, body: bad.body)
        #expect(response.status == bad.status, "\(response.text)")
        #expect(response.error?.code == bad.code, "\(response.text)")
        #expect(response.error?.field == bad.field, "\(response.text)")
        api.settle()
        #expect(try api.get("/api/v1/boards").text == before.text)
        #expect(try api.get("/api/v1/boards/main").headers["etag"] == main.headers["etag"])
    }

    @Test func boardsBeyondMaxBoards_areRefused() throws {
        let api = try TestApplication { $0.maxBoards = 2 }
        #expect(try api.send("PUT", "/api/v1/boards/one", body: #"{"template":"single"}"#).status == 201)
        let refused = try api.send("PUT", "/api/v1/boards/two", body: #"{"template":"single"}"#)
        #expect(refused.status == 422)
        #expect(refused.error?.code == "limit_exceeded")
        #expect(try names(api) == ["main", "one"])
        // Replacing an existing board is not a new one.
        #expect(try api.send("PUT", "/api/v1/boards/one", body: #"{"template":"countdown"}"#).status == 200)
    }

    @Test func ringsAreAddedAndDeleted_derivedRingsDropTheirSources_andTheLastOneIsKept() throws {
        let api = try TestApplication()
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: #"{"template":"tasks","count":2}"#).status == 201)
        let added = try api.send("POST", "/api/v1/boards/ci/rings", body: #"{"id":"deploy","title":"Deploy","group":"task1"}"#)
        #expect(added.status == 201, "\(added.text)")
        #expect(added.headers["location"] == "/api/v1/boards/ci/rings/deploy")
        #expect(added.text.contains(#""title":"Deploy""#))
        #expect(api.boards["ci"]?.animator.projected.spec.groups == [["task1", "deploy"]])
        #expect(try snapshot(api, "ci").rings.map(\.id) == ["task1", "task2", "overall", "deploy"])

        #expect(try api.send("DELETE", "/api/v1/boards/ci/rings/task1").status == 204)
        var board = try snapshot(api, "ci")
        #expect(board.rings.map(\.id) == ["task2", "overall", "deploy"])
        #expect(board.rings[1].sources == ["task2"])
        let lastSource = try api.send("DELETE", "/api/v1/boards/ci/rings/task2")
        #expect(lastSource.status == 409)
        #expect(lastSource.error?.code == "conflict")
        #expect(lastSource.error?.message.contains("overall") == true)
        #expect(try api.send("DELETE", "/api/v1/boards/ci/rings/overall").status == 204)
        #expect(try api.send("DELETE", "/api/v1/boards/ci/rings/deploy").status == 204)
        let last = try api.send("DELETE", "/api/v1/boards/ci/rings/task2")
        #expect(last.status == 409)
        board = try snapshot(api, "ci")
        #expect(board.rings.map(\.id) == ["task2"])
    }

    @Test func aHandPlacedBoardGainingARing_isLaidOutByTheServer_keepingItsConcentricRings() throws {
        let api = try TestApplication()
        #expect(try api.send("POST", "/api/v1/boards/main/rings?force=true", body: #"{"id":"deploy"}"#).status == 201)
        let spec = try #require(api.boards["main"]?.animator.projected.spec)
        #expect(spec.rings.count == 10)
        #expect(spec.groups.first == ["move", "exercise", "stand"])
        #expect(spec.arrangements.count == 2)
    }

    @Test func aDeletedBoard_isGone_andCanBeCreatedAgainWithFreshETags() throws {
        let api = try TestApplication()
        let created = try api.send("PUT", "/api/v1/boards/ci", body: #"{"template":"single"}"#)
        let etag = try #require(created.headers["etag"])
        #expect(try api.send("DELETE", "/api/v1/boards/ci").status == 204)
        #expect(try api.get("/api/v1/boards/ci").status == 404)
        #expect(try names(api) == ["main"])
        #expect(try api.send("DELETE", "/api/v1/boards/ci").status == 404)
        let again = try api.send("PUT", "/api/v1/boards/ci", body: #"{"template":"single"}"#)
        #expect(again.status == 201)
        #expect(again.headers["etag"] != etag)
        // A configured board can be deleted too.
        #expect(try api.send("DELETE", "/api/v1/boards/main").status == 204)
        #expect(try names(api) == ["ci"])
    }

    @Test func valueMaxAndLabel_showAFraction_titleRenames_andNullGoesBackToNoData() throws {
        let api = try TestApplication()
        let pushed = try api.send(
            "PUT", "/api/v1/boards/main/rings/move",
            body: #"{"value":12,"max":20,"label":"fraction","title":"Tests","animation":"none"}"#)
        #expect(pushed.status == 200, "\(pushed.text)")
        api.settle()
        var move = try #require(try snapshot(api, "main").rings.first)
        #expect(move.title == "Tests")
        #expect(move.progress == 0.6)
        #expect(move.text == "12/20")
        #expect(move.max == 20)
        #expect(try api.send("PUT", "/api/v1/boards/main/rings/move", body: #"{"label":{"text":"Deploying"}}"#).status == 200)
        api.settle()
        move = try #require(try snapshot(api, "main").rings.first)
        #expect(move.text == "Deploying")
        let cleared = try api.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":null}}"#)
        #expect(cleared.status == 200, "\(cleared.text)")
        api.settle()
        move = try #require(try snapshot(api, "main").rings.first)
        #expect(move.progress == nil)
        #expect(move.text == "—")
        // A derived ring takes a new title and label format, nothing else.
        #expect(
            try api.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"overall":{"title":"All","label":"value"}}}"#).status
                == 200)
    }
}
