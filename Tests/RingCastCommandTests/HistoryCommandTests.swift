import ArgumentParser
import Foundation
import Testing

@testable import ringcast

/// `ringcast history`: the request it builds from its arguments, checked without a server by the server's own reading
/// of the query, and the table it prints of the server's answer.
@Suite("ringcast history")
struct HistoryCommandTests {
    /// 2026-12-02T21:00:00Z, the `now` the requests are checked at.
    private static let now: Int64 = 1_796_245_200_000

    /// The message `arguments` were refused with, parsed or checked, or nil when they built a request.
    private func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try HistoryCommand.parse(arguments).request(now: Self.now)
            return nil
        } catch let failure as CommandFailure {
            return failure.description
        } catch {
            return HistoryCommand.message(for: error)
        }
    }

    private func answer(_ json: String) throws -> HistoryCommand.Answer {
        try JSONDecoder().decode(HistoryCommand.Answer.self, from: Data(json.utf8))
    }

    @Test func isASubcommandOfRingcast_whoseUsageErrorsNameItsHelp() throws {
        #expect(RingCastCommand.subcommandPath(["history", "main", "move"]) == ["history"])
        do {
            _ = try RingCastCommand.parseAsRoot(["history", "main"])
            Issue.record("a missing ring was accepted")
        } catch {
            #expect(
                RingCastCommand.oneLine(for: error, arguments: ["history", "main"])?.text
                    == "ringcast: missing expected argument '<ring>' (see ringcast history --help)")
        }
    }

    @Test func withoutOptions_getsTheRingsHistory_withNoQuery() throws {
        let request = try HistoryCommand.parse(["main", "move"]).request(now: Self.now)
        #expect(request == APIRequest("GET", ["boards", "main", "rings", "move", "history"]))
        #expect(request.query.isEmpty && request.encodedQuery.isEmpty)
    }

    @Test func sendsTheSpanAndCountAsGiven_andAsksForCSVWithAccept() throws {
        let command = try HistoryCommand.parse([
            "ci", "passed", "--since", "1h", "--until", "2026-12-02T21:00:00+00:00", "--points", "500", "--csv",
        ])

        let request = try command.request(now: Self.now)
        #expect(request.method == "GET" && request.path == ["boards", "ci", "rings", "passed", "history"])
        #expect(request.headers == ["Accept": "text/csv"])
        #expect(request.body == nil)
        #expect(request.query.map(\.name) == ["since", "until", "points"])
        #expect(request.encodedQuery == "since=1h&until=2026-12-02T21:00:00%2B00:00&points=500", "a + would read as a space")
    }

    @Test func json_asksForTheDefaultAnswer() throws {
        let request = try HistoryCommand.parse(["main", "move", "--since", "1764709200000", "--json"]).request(now: Self.now)
        #expect(request.headers.isEmpty)
        #expect(request.encodedQuery == "since=1764709200000")
    }

    @Test(arguments: [
        (
            ["main", "move", "--since", "yesterday"],
            "--since: since must be milliseconds since the Unix epoch, a UTC time like 2026-12-02T21:00:00Z, now, or a "
                + "span back from now like 90s, 15m, 1h or 7d, got \"yesterday\""
        ),
        (
            ["main", "move", "--until", "2026-12-02 21:00"],
            "--until: until must be milliseconds since the Unix epoch, a UTC time like 2026-12-02T21:00:00Z, now, or a "
                + "span back from now like 90s, 15m, 1h or 7d, got \"2026-12-02 21:00\""
        ),
        (
            ["main", "move", "--since", "2026-12-02T21:00:00Z", "--until", "2026-12-01T00:00:00Z"],
            "--since: since (2026-12-02T21:00:00.000Z) is after until (2026-12-01T00:00:00.000Z)"
        ),
        (
            ["main", "move", "--since", "1h", "--until", "2h"],
            "--since: since (2026-12-02T20:00:00.000Z) is after until (2026-12-02T19:00:00.000Z)"
        ),
        (["main", "move", "--points", "1"], "--points: points must be a whole number from 2 to 100000, got \"1\""),
        (["main", "move", "--points", "100001"], "--points: points must be a whole number from 2 to 100000, got \"100001\""),
        (["main", "move", "--csv", "--json"], "--csv and --json both given; choose one"),
    ])
    func refusesWhatTheServerWouldRefuse_beforeSending(arguments: [String], message: String) {
        #expect(refusal(arguments) == message)
    }

    @Test func table_showsEachPointsTimePercentageAndStatus_andHowManyOfTheKeptAreShown() throws {
        let reading = try answer(
            #"""
            {"board":"ci","ring":"build","field":"progress","since":1796241600000,"until":1796245200000,"method":"m4",
             "kept":1204,"points":[{"t":1796241600000,"progress":0,"status":"running"},{"t":1796241661250,"progress":0.4237},
             {"t":1796245199999,"progress":1,"status":"success"},{"t":1796245200000,"progress":1.25}]}
            """#)

        #expect(
            reading.table == """
                board ci, ring build, from 2026-12-02T20:00:00.000Z to 2026-12-02T21:00:00.000Z
                time                      progress  status
                2026-12-02T20:00:00.000Z  0%        running
                2026-12-02T20:01:01.250Z  42.37%
                2026-12-02T20:59:59.999Z  100%      success
                2026-12-02T21:00:00.000Z  125%
                4 of 1204 kept points shown (m4)

                """)
    }

    /// A span asked for without `since` and `until` runs from the first point kept to the newest, and the answer names
    /// neither.
    @Test func table_ofACounter_showsItsNumbers_withoutAStatusColumnWhenNoPointHasOne() throws {
        let reading = try answer(
            #"""
            {"board":"ci","ring":"passed","field":"value","method":"m4","kept":3,
             "points":[{"t":1796241600000,"value":1234},{"t":1796241601000,"value":-2.5},
                       {"t":1796241602000,"value":1000000000000}]}
            """#)

        #expect(
            reading.table == """
                board ci, ring passed, from the first point kept to the newest
                time                      value
                2026-12-02T20:00:00.000Z  1234
                2026-12-02T20:00:01.000Z  -2.5
                2026-12-02T20:00:02.000Z  1000000000000
                3 of 3 kept points shown (m4)

                """)
    }

    @Test func table_ofAnEmptySpan_saysSo_withoutAHeader() throws {
        let reading = try answer(
            #"""
            {"board":"main","ring":"move","field":"progress","since":1796241600000,"until":1796245200000,"method":"m4",
             "kept":0,"points":[]}
            """#)

        #expect(
            reading.table == """
                board main, ring move, from 2026-12-02T20:00:00.000Z to 2026-12-02T21:00:00.000Z
                0 of 0 kept points shown (m4)

                """)
    }
}
