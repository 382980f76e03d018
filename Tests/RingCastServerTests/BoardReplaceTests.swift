import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// Issue 31: a `PUT /api/v1/boards/{board}` over an existing board applied its title but kept the old
/// background. A PUT over a board now leaves it as the same PUT creating it would, ring values aside.
@Suite("Board replace")
struct BoardReplaceTests {
    struct Snapshot: Decodable, Equatable {
        struct Ring: Decodable, Equatable {
            var id: String
            var kind: String
        }
        var board: String
        var title: String
        var background: String
        var staleAfter: Int?
        var rings: [Ring]

        /// The snapshot without its board's name: a board without a title is titled by its name.
        var unnamed: Snapshot {
            var copy = self
            if copy.title == board { copy.title = "(the name)" }
            copy.board = ""
            return copy
        }
    }

    /// A board created from `first`, then replaced by `second`.
    struct Replacement: CustomTestStringConvertible, Sendable {
        var field: String
        var first: String
        var second: String
        var testDescription: String { field }
    }

    static let replacements: [Replacement] = [
        Replacement(
            field: "background", first: ##"{"template":"tasks","background":"#202020"}"##,
            second: ##"{"template":"tasks","background":"#101020"}"##),
        Replacement(
            field: "background absent (black, as created)", first: ##"{"template":"tasks","background":"#202020"}"##,
            second: ##"{"template":"tasks"}"##),
        Replacement(
            field: "title", first: ##"{"template":"tasks","title":"Before"}"##, second: ##"{"template":"tasks","title":"After"}"##
        ),
        Replacement(
            field: "title absent", first: ##"{"template":"tasks","title":"Before"}"##, second: ##"{"template":"tasks"}"##),
        Replacement(
            field: "staleAfter", first: ##"{"template":"tasks","staleAfter":60}"##,
            second: ##"{"template":"tasks","staleAfter":120}"##),
        Replacement(
            field: "staleAfter null", first: ##"{"template":"tasks","staleAfter":60}"##,
            second: ##"{"template":"tasks","staleAfter":null}"##),
        Replacement(field: "template", first: ##"{"template":"tasks"}"##, second: ##"{"template":"single"}"##),
        Replacement(
            field: "rings and groups",
            first: ##"{"rings":[{"id":"a"},{"id":"b"},{"id":"c"}],"groups":[["a","b"]]}"##,
            second: ##"{"rings":[{"id":"a"},{"id":"b"},{"id":"c","kind":"counter"}],"groups":[["b","a"]]}"##),
        Replacement(
            field: "everything",
            first: ##"{"template":"tasks","title":"Before","background":"#202020","staleAfter":60}"##,
            second: ##"{"rings":[{"id":"x"}],"title":"After","background":"#ff8000","staleAfter":5}"##),
    ]

    private func snapshot(_ api: TestApplication, _ board: String) throws -> Snapshot {
        let answer = try api.get("/api/v1/boards/\(board)")
        #expect(answer.status == 200, "\(answer.text)")
        return try answer.decode(Snapshot.self)
    }

    @Test(arguments: replacements)
    func aPutOverABoard_leavesItAsCreatingFromTheSameBodyWould(_ test: Replacement) throws {
        let api = try TestApplication()
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: test.first).status == 201)
        let replaced = try api.send("PUT", "/api/v1/boards/ci", body: test.second)
        #expect(replaced.status == 200, "\(replaced.text)")
        #expect(try api.send("PUT", "/api/v1/boards/fresh", body: test.second).status == 201)

        #expect(try snapshot(api, "ci").unnamed == snapshot(api, "fresh").unnamed)
        let (ci, fresh) = (try #require(api.boards["ci"]), try #require(api.boards["fresh"]))
        #expect(ci.animator.projected.spec.groups == fresh.animator.projected.spec.groups)
        #expect(ci.animator.projected.spec.background == fresh.animator.projected.spec.background)
        #expect(ci.animator.projected.background == fresh.animator.projected.background)
        // And the PUT's answer is that board.
        #expect(try replaced.decode(Snapshot.self) == snapshot(api, "ci"))
    }

    @Test func aPutOverABoardWhosBackgroundWasPushed_takesTheBodysBackground() throws {
        let api = try TestApplication()
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: ##"{"template":"tasks","background":"#101020"}"##).status == 201)
        let pushed = try api.send("PUT", "/api/v1/boards/ci/background", body: ##"{"color":"#ff0000","animation":"none"}"##)
        #expect(pushed.status == 200, "\(pushed.text)")
        #expect(try snapshot(api, "ci").background == "#ff0000ff")
        // The same background as the board was created with: it is the body's, not the pushed one.
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: ##"{"template":"tasks","background":"#101020"}"##).status == 200)
        #expect(try snapshot(api, "ci").background == "#101020ff")
    }

    @Test func aRingAddedOrDeleted_keepsAPushedBackground() throws {
        let api = try TestApplication()
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: ##"{"template":"tasks","background":"#101020"}"##).status == 201)
        #expect(
            try api.send("PUT", "/api/v1/boards/ci/background", body: ##"{"color":"#ff0000","animation":"none"}"##).status
                == 200)
        #expect(try api.send("POST", "/api/v1/boards/ci/rings", body: ##"{"id":"extra"}"##).status == 201)
        #expect(try snapshot(api, "ci").background == "#ff0000ff")
        #expect(try api.send("DELETE", "/api/v1/boards/ci/rings/extra").status == 204)
        #expect(try snapshot(api, "ci").background == "#ff0000ff")
    }
}
