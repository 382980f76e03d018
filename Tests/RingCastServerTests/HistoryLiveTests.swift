import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// `GET …/rings/{ring}/history` through the real application and store (issue 33): pushes at known ticks and values
/// come back as points at those ticks, in JSON and CSV, thinned to `points`, across a restart, within the count kept,
/// with the board's read rules.
@Suite("History through the server")
struct HistoryLiveTests {
    /// Pushes `values` to ring `ring` of `main`, one every 30 ticks; the start tick of each.
    static func push(_ values: [Double], to ring: String = "task1", on api: TestApplication) throws -> [Int64] {
        var ticks: [Int64] = []
        for value in values {
            api.advance(ticks: 30)
            let answer = try api.send("PUT", "/api/v1/boards/main/rings/\(ring)", body: #"{"progress":\#(value)}"#)
            try #require(answer.status == 200, "\(answer.status) \(answer.text)")
            // A write accepted at one tick starts at the next.
            ticks.append(api.tick + 1)
        }
        return ticks
    }

    static func points(_ answer: TestResponse) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        return try #require(object["points"] as? [[String: Any]])
    }

    static func milliseconds(_ tick: Int64, fps: Int) -> Int64 {
        (tick * 1_000 + Int64(fps) / 2) / Int64(fps)
    }

    @Test func pushesComeBackAtTheirTicks_inJSONAndCSV_andSurviveARestart() throws {
        let api = try TestApplication()
        let values = [0.1, 0.3, 0.3, 0.55, 0.8]
        let ticks = try Self.push(values, on: api)
        let status = try api.send("PUT", "/api/v1/boards/main/rings/task1", body: #"{"status":"failure"}"#)
        try #require(status.status == 200)
        let statusTick = api.tick + 1

        let answer = try api.get("/api/v1/boards/main/rings/task1/history")
        try #require(answer.status == 200, "\(answer.text)")
        #expect(answer.headers["content-type"] == "application/json")
        let points = try Self.points(answer)
        #expect(points.map { $0["progress"] as? Double } == values + [0.8], "every push, and the status change")
        #expect(points.map { $0["t"] as? Int64 } == (ticks + [statusTick]).map { Self.milliseconds($0, fps: api.fps) })
        #expect(points.last?["status"] as? String == "failure" && points.first?["status"] == nil)

        // The derived ring follows its sources' mean (four tasks, three without data).
        let overall = try Self.points(try api.get("/api/v1/boards/main/rings/overall/history"))
        #expect(overall.map { $0["progress"] as? Double } == [0.025, 0.075, 0.1375, 0.2], "\(overall)")

        let csv = try api.get("/api/v1/boards/main/rings/task1/history", headers: ["Accept": "text/csv"])
        #expect(csv.headers["content-type"] == "text/csv; charset=utf-8")
        let rows = csv.text.split(separator: "\n")
        #expect(rows.first == "time,t,progress,status" && rows.count == values.count + 2, "\(csv.text)")
        #expect(rows.last?.hasSuffix(",0.8,failure") == true)

        // The ETag digests the bytes: asked again unchanged, 304.
        let etag = try #require(answer.headers["etag"])
        let again = try api.get("/api/v1/boards/main/rings/task1/history", headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)

        let thinned = try Self.points(try api.get("/api/v1/boards/main/rings/task1/history?points=2"))
        #expect(
            thinned.count == 2 && thinned.first?["progress"] as? Double == 0.1 && thinned.last?["status"] as? String == "failure")
        let since = Self.milliseconds(ticks[3], fps: api.fps)
        let recent = try Self.points(try api.get("/api/v1/boards/main/rings/task1/history?since=\(since)"))
        #expect(recent.map { $0["progress"] as? Double } == [0.55, 0.8, 0.8])

        let restarted = try api.killedAndRestarted()
        let after = try restarted.get("/api/v1/boards/main/rings/task1/history")
        try #require(after.status == 200, "\(after.text)")
        let restored = try Self.points(after)
        #expect(restored.map { $0["t"] as? Int64 } == points.map { $0["t"] as? Int64 }, "kept across the restart")
    }

    @Test(arguments: [
        ("/api/v1/boards/main/rings/task1/history?since=yesterday", 400, "since"),
        ("/api/v1/boards/main/rings/task1/history?points=1", 400, "points"),
        ("/api/v1/boards/main/rings/task1/history?since=2026-12-02T10:00:00Z&until=2026-12-02T09:00:00Z", 400, "since"),
        ("/api/v1/boards/main/rings/task1/history?format=xml", 400, "format"),
        ("/api/v1/boards/main/rings/nope/history", 404, "ring"),
        ("/api/v1/boards/main/rings/countdown/history", 404, "ring"),
        ("/api/v1/boards/nope/rings/task1/history", 404, "board"),
    ])
    func badRequestsAreRefused_namingWhat(path: String, status: Int, field: String) throws {
        let api = try TestApplication()
        let answer = try api.get(path)
        #expect(answer.status == status, "\(answer.text)")
        #expect(answer.text.contains(#""field":"\#(field)""#), "\(answer.text)")
    }

    @Test func aRingKeepsItsNewestPoints_andADeletedRingOrBoardLosesThem() throws {
        let api = try TestApplication { $0.historyPoints = 3 }
        _ = try Self.push([0.1, 0.2, 0.3, 0.4, 0.5], on: api)
        let kept = try Self.points(try api.get("/api/v1/boards/main/rings/task1/history"))
        #expect(kept.map { $0["progress"] as? Double } == [0.3, 0.4, 0.5])

        let deleted = try api.send("DELETE", "/api/v1/boards/main/rings/task1?force=true", body: nil)
        #expect(deleted.status == 204, "\(deleted.text)")
        let readded = try api.send("POST", "/api/v1/boards/main/rings?force=true", body: #"{"id":"task1"}"#)
        #expect(readded.status == 201, "\(readded.text)")
        let emptied = try Self.points(try api.get("/api/v1/boards/main/rings/task1/history"))
        #expect(emptied.isEmpty)
        #expect(try api.get("/api/v1/boards/main/rings/overall/history").status == 200)

        _ = try Self.push([0.6], to: "move", on: api)
        let board = try api.send("DELETE", "/api/v1/boards/main", body: nil)
        #expect(board.status == 204, "\(board.text)")
        let created = try api.send("PUT", "/api/v1/boards/main", body: #"{"template":"main"}"#)
        #expect(created.status == 201, "\(created.text)")
        let recreated = try Self.points(try api.get("/api/v1/boards/main/rings/move/history"))
        #expect(recreated.isEmpty, "a deleted board's history goes")
    }

    /// A board's own `history` overrides the server's, from the API and from the configuration; bad ones are refused.
    @Test func aBoardsOwnHistory_overridesTheServers() throws {
        let api = try TestApplication {
            $0.boards[0].history = HistorySetting(points: 2)
            $0.historyPoints = 4
        }
        _ = try Self.push([0.1, 0.2, 0.3, 0.4, 0.5], on: api)
        let configured = try Self.points(try api.get("/api/v1/boards/main/rings/task1/history"))
        #expect(configured.map { $0["progress"] as? Double } == [0.4, 0.5], "the configured board keeps 2")

        let created = try api.send("PUT", "/api/v1/boards/ci", body: #"{"rings":[{"id":"build"}],"history":{"points":3}}"#)
        try #require(created.status == 201, "\(created.text)")
        for value in [0.1, 0.2, 0.3, 0.4, 0.5] {
            api.advance(ticks: 30)
            let pushed = try api.send("PUT", "/api/v1/boards/ci/rings/build", body: #"{"progress":\#(value)}"#)
            try #require(pushed.status == 200, "\(pushed.text)")
        }
        api.advance(ticks: 2)
        let own = try Self.points(try api.get("/api/v1/boards/ci/rings/build/history"))
        #expect(own.map { $0["progress"] as? Double } == [0.3, 0.4, 0.5])

        let off = try api.send("PUT", "/api/v1/boards/quiet", body: #"{"rings":[{"id":"build"}],"history":{"seconds":0}}"#)
        try #require(off.status == 201, "\(off.text)")
        _ = try api.send("PUT", "/api/v1/boards/quiet/rings/build", body: #"{"progress":0.5}"#)
        #expect(try Self.points(try api.get("/api/v1/boards/quiet/rings/build/history")).isEmpty)

        for (body, status, field) in [
            (#"{"rings":[{"id":"a"}],"history":{"points":-1}}"#, 422, "history.points"),
            (#"{"rings":[{"id":"a"}],"history":{"days":7}}"#, 400, "history.days"),
            (#"{"rings":[{"id":"a"}],"history":{}}"#, 400, "history"),
            (#"{"rings":[{"id":"a"}],"history":7}"#, 400, "history"),
        ] {
            let refused = try api.send("PUT", "/api/v1/boards/bad", body: body)
            #expect(refused.status == status && refused.text.contains(#""field":"\#(field)""#), "\(body): \(refused.text)")
        }
    }

    @Test func historyOff_keepsNothing() throws {
        let api = try TestApplication { $0.historyPoints = 0 }
        _ = try Self.push([0.1, 0.2], on: api)
        let answer = try api.get("/api/v1/boards/main/rings/task1/history")
        let points = try Self.points(answer)
        #expect(answer.status == 200 && points.isEmpty, "\(answer.text)")
    }

    /// Reading a ring's history answers as reading its board does, for every token and board.
    @Test func theBoardsReadRulesApply() throws {
        let api = try AccessTests.api()
        let root = AccessTests.root
        let pushed = try api.send(
            "PUT", "/api/v1/boards/team-a-ci/rings/progress", headers: AccessTests.headers(root), body: #"{"progress":0.5}"#)
        try #require(pushed.status == 200, "\(pushed.text)")
        for token in [nil, "tv-a-secret", "ci-a-secret", "admin-a-secret", root, "wrong"] {
            for board in ["team-a-ci", "team-b-ci"] {
                let headers = AccessTests.headers(token)
                let boardRead = try api.send("GET", "/api/v1/boards/\(board)", headers: headers)
                let history = try api.send("GET", "/api/v1/boards/\(board)/rings/progress/history", headers: headers)
                #expect(history.status == boardRead.status, "\(token ?? "none") on \(board): \(history.text)")
            }
        }
    }
}
