import Foundation
import RingCastCore
import Testing

/// Issue 33's history query (`HistoryRequest`): each form `since` and `until` take, the bounds of `points`, and a
/// message naming the parameter for anything else; ISO times to milliseconds and back (`UTCTime`) against known dates,
/// Foundation's calendar and impossible dates; and the answer's bytes (`HistoryAnswer`) as JSON and CSV.
@Suite struct HistoryRequestTests {
    /// 2026-12-02T21:00:01.000Z.
    static let now: Int64 = 1_796_245_201_000
    static let evening: Int64 = 1_796_245_200_000

    // MARK: since and until

    struct Form: Sendable, CustomTestStringConvertible {
        var text: String
        var milliseconds: Int64
        var testDescription: String { text }
    }

    static let accepted: [Form] = [
        Form(text: "1764709200000", milliseconds: 1_764_709_200_000),
        Form(text: "0", milliseconds: 0),
        Form(text: "2026-12-02T21:00:00Z", milliseconds: evening),
        Form(text: "2026-12-02T21:00:00.5Z", milliseconds: evening + 500),
        Form(text: "2026-12-02T21:00:00.05Z", milliseconds: evening + 50),
        Form(text: "2026-12-02T21:00:00.123Z", milliseconds: evening + 123),
        Form(text: "2026-12-02T21:00:00.123999999Z", milliseconds: evening + 123),
        Form(text: "2026-12-02T21:00:00+00:00", milliseconds: evening),
        Form(text: "2026-12-02T21:00:00.250+00:00", milliseconds: evening + 250),
        Form(text: "now", milliseconds: now),
        Form(text: "0s", milliseconds: now),
        Form(text: "90s", milliseconds: now - 90_000),
        Form(text: "15m", milliseconds: now - 15 * 60_000),
        Form(text: "1h", milliseconds: now - 3_600_000),
        Form(text: "7d", milliseconds: now - 7 * 86_400_000),
        Form(text: "36500d", milliseconds: now - 36_500 * 86_400_000),
    ]

    @Test(arguments: accepted, ["since", "until"])
    func aTimeInEachForm_isRead(_ form: Form, field: String) throws {
        let request = try HistoryRequest([field: form.text], now: Self.now)
        #expect((field == "since" ? request.since : request.until) == form.milliseconds)
        #expect((field == "since" ? request.until : request.since) == (field == "since" ? .max : .min))
        #expect(request.points == HistoryRequest.defaultPoints)
    }

    @Test func withoutParameters_theSpanIsEverythingKeptThroughNow() throws {
        // Without `until`, through the newest point: a write just accepted starts at the next tick, after now.
        #expect(try HistoryRequest([:], now: Self.now) == HistoryRequest(since: .min, until: .max, points: 1_000))
        #expect(
            try HistoryRequest(["since": "1h", "until": "15m", "points": "50"], now: Self.now)
                == HistoryRequest(since: Self.now - 3_600_000, until: Self.now - 900_000, points: 50))
        #expect(try HistoryRequest(["since": "now", "until": "now"], now: Self.now).since == Self.now, "an instant is a span")
    }

    static let refusedTimes = [
        "", "yesterday", "-5", "-5s", "5w", "1.5h", "h", "36501d", "2026-12-02", "2026-12-02T21:00Z",
        "2026-12-02T21:00:00", "2026-12-02T21:00:00+01:00", "2026-12-02t21:00:00z", "2026-12-2T21:00:00Z",
        "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-02T24:00:00Z", "2026-12-02T21:60:00Z",
        "2026-12-02T21:00:60Z", "1969-12-31T23:59:59Z", "10000-01-01T00:00:00Z", "2026-12-02T21:00:00.Z",
        "2026-12-02T21:00:00.1234567890Z", "2026-12-02T21:00:00.12xZ", "2026-12-02T21:00:00.123xyzZ",
        "2026-+2-02T21:00:00Z", "2026-12-02T+1:00:00Z", "2026-12-02T21:00:00.+12Z", "99999999999999999999",
    ]

    @Test(arguments: refusedTimes, ["since", "until"])
    func anyOtherTime_isRefused_namingItsParameter(_ text: String, field: String) {
        let error = #expect(throws: APIError.self) { try HistoryRequest([field: text], now: Self.now) }
        #expect(error?.status == 400)
        #expect(error?.code == "malformed")
        #expect(error?.field == field)
        #expect(error?.message.hasPrefix("\(field) must be ") == true)
        #expect(error?.message.hasSuffix("got \"\(text)\"") == true)
    }

    @Test(arguments: [
        ("1", false), ("2", true), ("1000", true), ("100000", true), ("100001", false), ("0", false),
        ("-3", false), ("x", false), ("", false), ("2.5", false),
    ])
    func points_takeAWholeNumberFrom2To100000(_ text: String, accepted: Bool) throws {
        if accepted {
            #expect(try HistoryRequest(["points": text], now: Self.now).points == Int(text))
        } else {
            let error = #expect(throws: APIError.self) { try HistoryRequest(["points": text], now: Self.now) }
            #expect(error?.status == 400)
            #expect(error?.field == "points")
            #expect(error?.message == "points must be a whole number from 2 to 100000, got \"\(text)\"")
        }
    }

    @Test func sinceAfterUntil_isRefused_namingBothTimes() {
        let error = #expect(throws: APIError.self) {
            try HistoryRequest(["since": "now", "until": "1h"], now: Self.now)
        }
        #expect(error?.status == 400)
        #expect(error?.field == "since")
        #expect(
            error?.message == "since (2026-12-02T21:00:01.000Z) is after until (2026-12-02T20:00:01.000Z)")
        // Without until the span reaches the newest point, so a since after now is a span still (of writes that start
        // at a later tick).
        let future = try? HistoryRequest(["since": "2026-12-03T00:00:00Z"], now: Self.now)
        #expect(future?.until == .max)
    }

    // MARK: UTCTime

    static let knownDates: [(String, Int64)] = [
        ("1970-01-01T00:00:00.000Z", 0),
        ("1970-01-01T00:00:00.001Z", 1),
        ("2000-02-29T12:34:56.000Z", 951_827_696_000),
        ("2024-02-29T00:00:00.000Z", 1_709_164_800_000),
        ("2024-02-29T23:59:59.999Z", 1_709_251_199_999),
        ("2024-03-01T00:00:00.000Z", 1_709_251_200_000),
        ("2025-12-02T21:00:00.000Z", 1_764_709_200_000),
        ("2026-12-02T21:00:00.000Z", 1_796_245_200_000),
        ("2100-03-01T00:00:00.000Z", 4_107_542_400_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
    ]

    @Test(arguments: knownDates)
    func aKnownDate_readsAndPrintsAsItsMilliseconds(_ text: String, _ milliseconds: Int64) {
        #expect(UTCTime.iso(milliseconds: milliseconds) == text)
        #expect(UTCTime.milliseconds(iso: text) == milliseconds)
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "2026-02-30T00:00:00Z", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-12-00T00:00:00Z", "2026-12-32T00:00:00Z",
    ])
    func aDateTheCalendarLacks_isRefused(_ text: String) {
        #expect(UTCTime.milliseconds(iso: text) == nil)
    }

    /// SplitMix64 (`ArrangerTests`): the same times on every machine and every run.
    typealias SeededGenerator = ArrangerTests.SeededGenerator

    /// Every millisecond from 1970 through 9999 prints as the date and time Foundation's Gregorian calendar gives it,
    /// and reads back as itself.
    @Test func randomTimes_from1970Through9999_roundTrip_andAgreeWithFoundation() throws {
        var generator = SeededGenerator(state: 33)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let last: Int64 = 253_402_300_799_999
        for index in 0..<2_000 {
            // Half spread over the whole range, half within a day of a year's end or a leap day.
            var milliseconds = Int64.random(in: 0...last, using: &generator)
            if index.isMultiple(of: 2) {
                let year = Int64.random(in: 1970...9998, using: &generator)
                let anchor = try #require(UTCTime.milliseconds(iso: "\(year)-03-01T00:00:00Z"))
                milliseconds = anchor + Int64.random(in: -86_400_000...86_400_000, using: &generator)
            }
            let text = UTCTime.iso(milliseconds: milliseconds)
            #expect(UTCTime.milliseconds(iso: text) == milliseconds, "\(milliseconds) → \(text)")
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second],
                from: Date(timeIntervalSince1970: Double(milliseconds / 1_000)))
            let expected = String(
                format: "%04ld-%02ld-%02ldT%02ld:%02ld:%02ld.%03ldZ", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!, Int(milliseconds % 1_000))
            #expect(text == expected, "\(milliseconds)")
        }
    }

    // MARK: HistoryAnswer

    static let three = [
        HistoryPoint(tick: evening, value: 0.5, status: "running"),
        HistoryPoint(tick: evening + 1_000, value: 1, status: "success"),
        HistoryPoint(tick: evening + 2_500, value: 42),
    ]

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func json_parses_withWholeNumbersWithoutAFraction_andSinceOnlyWhenAskedFor() throws {
        let answer = HistoryAnswer(
            board: "ci", ring: "passed", kind: .counter(format: CounterFormat()),
            request: HistoryRequest(since: .min, until: Self.now), points: Self.three)
        let text = String(decoding: answer.json, as: UTF8.self)
        #expect(
            text == #"{"board":"ci","ring":"passed","field":"value","until":1796245201000,"method":"m4","kept":3,"#
                + #""points":[{"t":1796245200000,"value":0.5,"status":"running"},"#
                + #"{"t":1796245201000,"value":1,"status":"success"},{"t":1796245202500,"value":42}]}"# + "\n")
        let object = try Self.object(answer.json)
        #expect(object["since"] == nil)
        #expect(object["kept"] as? Int == 3)
        let points = try #require(object["points"] as? [[String: Any]])
        #expect(points.map { $0["t"] as? Int64 } == Self.three.map(\.tick))
        #expect(points.map { $0["value"] as? Double } == [0.5, 1, 42])
        #expect(points.map { $0["status"] as? String } == ["running", "success", nil])

        let since = HistoryAnswer(
            board: "main", ring: "move", kind: .plain,
            request: HistoryRequest(since: Self.evening, until: Self.now), points: Self.three)
        let sinceObject = try Self.object(since.json)
        #expect(sinceObject["since"] as? Int64 == Self.evening)
        #expect(sinceObject["field"] as? String == "progress")
        #expect(String(decoding: since.json, as: UTF8.self).contains(#""progress":1,"#))
    }

    @Test func csv_hasAHeaderAndARowAPoint() {
        let answer = HistoryAnswer(
            board: "main", ring: "move", kind: .plain, request: HistoryRequest(since: .min, until: Self.now),
            points: Self.three)
        #expect(
            String(decoding: answer.csv, as: UTF8.self)
                == "time,t,progress,status\n2026-12-02T21:00:00.000Z,1796245200000,0.5,running\n"
                + "2026-12-02T21:00:01.000Z,1796245201000,1,success\n2026-12-02T21:00:02.500Z,1796245202500,42,\n")
    }

    @Test(arguments: [2, 3, 4, 10, 99, 1_000, 5_000])
    func thinningToPoints_keepsTheFirstAndTheLast(_ limit: Int) throws {
        var generator = SeededGenerator(state: UInt64(limit))
        let points = (0..<1_000).map { index in
            HistoryPoint(
                tick: Self.evening + Int64(index) * 1_000 + Int64.random(in: 0..<500, using: &generator),
                value: Double.random(in: 0...1, using: &generator))
        }
        let answer = HistoryAnswer(
            board: "main", ring: "move", kind: .plain,
            request: HistoryRequest(since: .min, until: Self.now, points: limit), points: points)
        #expect(answer.kept == 1_000)
        #expect(answer.points.count <= limit)
        if limit >= 1_000 { #expect(answer.points == points, "no more points than asked for: all of them") }
        #expect(answer.points.first == points.first)
        #expect(answer.points.last == points.last)
        #expect(answer.points.map(\.tick) == answer.points.map(\.tick).sorted(), "oldest first")
        let rows = String(decoding: answer.csv, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == answer.points.count + 2, "a header, a row a point, and the last newline's empty tail")
        #expect(rows.last == "")
        let json = try #require(try Self.object(answer.json)["points"] as? [[String: Any]])
        #expect(json.count == answer.points.count)
        #expect(try Self.object(answer.json)["kept"] as? Int == 1_000)
    }
}
