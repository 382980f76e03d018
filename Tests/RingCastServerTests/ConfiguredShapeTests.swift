import Foundation
import Testing

@testable import RingCastServer

/// A board the configuration defines changes shape only on purpose (issue 34): adding or deleting one of its rings,
/// or replacing it, is 409 naming `?force=true` and the way back, and changes nothing; with `force` it is done; a board
/// made through the API needs no force. `DELETE …/boards/{board}/shape` gives a configured board its configured shape
/// again, keeping the values of the rings that stay, across a restart, and a reload applies to it again.
@Suite struct ConfiguredShapeTests {
    static let configuredRings = ["move", "exercise", "stand", "task1", "task2", "task3", "task4", "overall", "countdown"]

    static func ringIDs(_ api: TestApplication, _ board: String = "main") throws -> [String] {
        let answer = try api.get("/api/v1/boards/\(board)")
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        return (object?["rings"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    static func target(_ api: TestApplication, _ ring: String) throws -> Double? {
        let answer = try api.get("/api/v1/boards/main/rings/\(ring)")
        return (try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["target"] as? Double
    }

    @Test(
        arguments: [
            ("POST", "/api/v1/boards/main/rings", #"{"id":"lint"}"#, "adding ring lint"),
            ("DELETE", "/api/v1/boards/main/rings/overall", nil, "deleting ring overall"),
            ("PUT", "/api/v1/boards/main", #"{"template":"single"}"#, "replacing it"),
        ] as [(String, String, String?, String)])
    func reshapingAConfiguredBoard_needsForce_andSaysTheWayBack(
        method: String, path: String, body: String?, doing: String
    ) throws {
        let api = try TestApplication()
        let before = try api.get("/api/v1/boards/main").headers["etag"]
        let refused = try api.send(method, path, body: body)
        #expect(refused.status == 409, "\(refused.text)")
        #expect(refused.error?.code == "conflict")
        #expect(refused.error?.field == "force")
        #expect(
            refused.error?.message
                == "board main is defined by the server's configuration: \(doing) reshapes it, and it no longer follows "
                + "the configuration until DELETE /api/v1/boards/main/shape (ringcast board reset main) gives it its "
                + "configured shape again; add ?force=true (ringcast: --force) to do it")
        #expect(try api.get("/api/v1/boards/main").headers["etag"] == before, "nothing changed")
        #expect(try Self.ringIDs(api) == Self.configuredRings)
        let forced = try api.send(method, path + "?force=true", body: body)
        #expect((200...204).contains(forced.status), "\(forced.text)")
        #expect(try Self.ringIDs(api) != Self.configuredRings)
        #expect(try api.send(method, path + "?force=maybe", body: body).error?.field == "force")
    }

    @Test func aBoardMadeThroughTheAPI_isReshapedWithoutForce_andHasNoShapeToResetTo() throws {
        let api = try TestApplication()
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: #"{"template":"single"}"#).status == 201)
        #expect(try api.send("POST", "/api/v1/boards/ci/rings", body: #"{"id":"tests"}"#).status == 201)
        #expect(try api.send("DELETE", "/api/v1/boards/ci/rings/tests", body: nil).status == 204)
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: #"{"template":"tasks"}"#).status == 200)
        let reset = try api.send("DELETE", "/api/v1/boards/ci/shape", body: nil)
        #expect(reset.status == 409 && reset.error?.field == "board", "\(reset.text)")
        #expect(
            reset.error?.message
                == "board ci is not defined by the server's configuration, so it has no configured shape to go back to; "
                + "PUT /api/v1/boards/ci gives it another")
        #expect(try api.send("DELETE", "/api/v1/boards/nope/shape", body: nil).status == 404)
        // A create-only PUT of a configured board that exists is 412, as for any board that exists.
        let createOnly = try api.send(
            "PUT", "/api/v1/boards/main", headers: ["If-None-Match": "*"], body: #"{"template":"single"}"#)
        #expect(createOnly.status == 412, "\(createOnly.text)")
        // A bad force is 400 on every write, before any precondition: the fuzzer's find.
        let badForce = try api.send(
            "PUT", "/api/v1/boards/ci?force=AAA", headers: ["If-None-Match": "*"], body: #"{"template":"single"}"#)
        #expect(badForce.status == 400 && badForce.error?.field == "force", "\(badForce.text)")
    }

    /// Reshaped by force, pushed to, reset: the configured rings in their places again, the values of the rings that
    /// stayed kept; after a restart it is still the configured shape, and a reload's new title reaches it.
    @Test func aReset_givesTheConfiguredShapeBack_keepingValues_andFollowsTheConfigurationAgain() throws {
        var api = try TestApplication()
        #expect(
            try api.send("PUT", "/api/v1/boards/main/rings/task1", body: #"{"progress":0.4,"animation":"none"}"#).status == 200)
        #expect(try api.send("DELETE", "/api/v1/boards/main/rings/overall?force=true", body: nil).status == 204)
        #expect(try api.send("POST", "/api/v1/boards/main/rings?force=true", body: #"{"id":"lint"}"#).status == 201)
        #expect(try Self.ringIDs(api).contains("lint"))
        #expect(!api.boards.followsConfiguration(try api.boards.board(named: "main")))

        let reset = try api.send("DELETE", "/api/v1/boards/main/shape", body: nil)
        #expect(reset.status == 200, "\(reset.text)")
        #expect(try Self.ringIDs(api) == Self.configuredRings)
        #expect(try Self.target(api, "task1") == 0.4, "a ring that stayed keeps its value")
        let main = try api.boards.board(named: "main")
        #expect(main.spec == api.boards.configuredSpecs["main"])
        #expect(api.boards.followsConfiguration(main))

        api = try api.killedAndRestarted()
        #expect(try Self.ringIDs(api) == Self.configuredRings)
        #expect(try Self.target(api, "task1") == 0.4)
        #expect(api.boards.followsConfiguration(try api.boards.board(named: "main")))
        #expect(
            try api.reload { configuration in
                if let index = configuration.boards.firstIndex(where: { $0.name == "main" }) {
                    configuration.boards[index].title = "Reloaded"
                }
            })
        api.advance(ticks: 1)  // GET answers are cached by tick and ETag, and a reload keeps the revision
        let title = try JSONSerialization.jsonObject(with: Data(try api.get("/api/v1/boards/main").body)) as? [String: Any]
        #expect(title?["title"] as? String == "Reloaded", "a reset board follows the configuration's reloads again")
    }
}
