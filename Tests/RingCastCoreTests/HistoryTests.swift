import Testing

@testable import RingCastCore

/// Issue 33's pure core: what a board's rings' history keeps (`HistoryRetention.of`), how it is thinned for a chart
/// (`Downsampling.m4`) and its rate and time to done (`ProgressRate`), by table: flat, rising, stalled, reversing,
/// gaps, one point.
@Suite struct HistoryTests {
    static func series(_ values: [Double], every ticks: Int64 = 1, from start: Int64 = 0) -> [HistoryPoint] {
        values.enumerated().map { HistoryPoint(tick: start + Int64($0.offset) * ticks, value: $0.element) }
    }

    // MARK: Retention

    /// A board's own `history` replaces the server's numbers it gives, and only those.
    @Test func retention_ofABoard_isTheServersWithTheBoardsOwnNumbers() {
        let server = HistoryRetention(seconds: 604_800, points: 10_000)
        var spec = Fixtures.board
        #expect(server.of(spec) == server)
        spec.history = HistorySetting(points: 50)
        #expect(server.of(spec) == HistoryRetention(seconds: 604_800, points: 50))
        spec.history = HistorySetting(seconds: 0)
        #expect(server.of(spec) == HistoryRetention(seconds: 0, points: 10_000))
        spec.history = HistorySetting(seconds: 60, points: 5)
        #expect(server.of(spec) == HistoryRetention(seconds: 60, points: 5))
    }

    // MARK: Downsampling

    struct Thinning: Sendable, CustomTestStringConvertible {
        var name: String
        var points: [HistoryPoint]
        var limit: Int
        var kept: [Int64]
        var testDescription: String { name }
    }

    static let flat = series(Array(repeating: 0.5, count: 100))
    static let spike = series((0..<100).map { $0 == 37 ? 1 : 0 })
    static let drop = series((0..<100).map { $0 == 70 ? 0 : 1 })
    static let gaps = series(Array(repeating: 0.2, count: 10)) + series(Array(repeating: 0.8, count: 10), from: 1000)

    static let thinnings: [Thinning] = [
        Thinning(name: "no more than the limit: every point", points: series([0, 0.5, 1]), limit: 8, kept: [0, 1, 2]),
        Thinning(name: "one point", points: series([0.3]), limit: 8, kept: [0]),
        Thinning(name: "flat: each bucket's ends", points: flat, limit: 8, kept: [0, 49, 50, 99]),
        Thinning(name: "a spike shows", points: spike, limit: 8, kept: [0, 37, 49, 50, 99]),
        Thinning(name: "a drop shows", points: drop, limit: 8, kept: [0, 49, 50, 70, 99]),
        Thinning(
            name: "rising: ends and extremes are the ends", points: series((0..<100).map { Double($0) / 100 }), limit: 8,
            kept: [0, 49, 50, 99]),
        Thinning(name: "gaps: buckets by time, not by count", points: gaps, limit: 8, kept: [0, 9, 1000, 1009]),
        Thinning(name: "two: first and last", points: spike, limit: 2, kept: [0, 99]),
        Thinning(name: "three: first, the most extreme, last", points: spike, limit: 3, kept: [0, 37, 99]),
    ]

    @Test(arguments: thinnings)
    func m4_keepsEachBucketsFirstLowestHighestAndLast(_ thinning: Thinning) {
        #expect(Downsampling.m4(thinning.points, limit: thinning.limit).map(\.tick) == thinning.kept)
    }

    /// Any series, any limit: at most the limit, in tick order, with the first, the last, the lowest and the highest.
    @Test func m4_neverExceedsItsLimit_andKeepsTheEndsAndExtremes() {
        var generator = ArrangerTests.SeededGenerator(state: 33)
        for _ in 0..<300 {
            let count = 1 + Int(generator.next() % 400)
            var tick: Int64 = 0
            let points = (0..<count).map { _ in
                tick += 1 + Int64(generator.next() % (generator.next() % 10 == 0 ? 5000 : 60))
                return HistoryPoint(tick: tick, value: Double(generator.next() % 1000) / 1000)
            }
            let limit = 4 + Int(generator.next() % 60)
            let kept = Downsampling.m4(points, limit: limit)
            #expect(kept.count <= limit)
            #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.tick < $1.tick })
            #expect(kept.first == points.first && kept.last == points.last)
            #expect(kept.map(\.value).min() == points.map(\.value).min())
            #expect(kept.map(\.value).max() == points.map(\.value).max())
        }
    }

    // MARK: Rate and time to done

    struct Estimate: Sendable, CustomTestStringConvertible {
        var name: String
        var points: [HistoryPoint]
        var now: Int64
        var perSecond: Double?
        var secondsLeft: Double?
        var testDescription: String { name }
    }

    /// By hand, with tqdm's smoothing 0.3: a constant sample smooths to itself; the bias correction cancels in the
    /// ratio of the two smoothed series.
    static let estimates: [Estimate] = [
        Estimate(
            name: "rising 0.1 a second", points: series([0, 0.1, 0.2, 0.3], every: 60), now: 180, perSecond: 0.1,
            secondsLeft: 7),
        Estimate(
            name: "flat: no time to done", points: series([0.5, 0.5, 0.5], every: 60), now: 120, perSecond: 0,
            secondsLeft: nil),
        // Δv 0.1, 0.1, 0.1, then 0 over the 10 s since: 0.04599; Δt 1, 1, 1, 10: 3.4599.
        Estimate(
            name: "stalled 10 s after rising: slower, later", points: series([0, 0.1, 0.2, 0.3], every: 60), now: 780,
            perSecond: 0.04599 / 3.4599, secondsLeft: 0.7 / (0.04599 / 3.4599)),
        Estimate(
            name: "reversing: no time to done", points: series([0.5, 0.4, 0.3], every: 60), now: 120, perSecond: -0.1,
            secondsLeft: nil),
        // Δv 0.1, 0.1: 0.051; Δt 1, 99: 29.91.
        Estimate(
            name: "a gap of 99 s",
            points: [.init(tick: 0, value: 0), .init(tick: 60, value: 0.1), .init(tick: 6000, value: 0.2)], now: 6000,
            perSecond: 0.051 / 29.91, secondsLeft: 0.8 / (0.051 / 29.91)),
        Estimate(name: "done", points: series([0.8, 1], every: 60), now: 60, perSecond: 0.2, secondsLeft: 0),
        Estimate(name: "one point: too little history", points: series([0.4]), now: 60, perSecond: nil, secondsLeft: nil),
        Estimate(
            name: "points after now are not read", points: series([0.1, 0.2, 0.3], every: 60), now: 30, perSecond: nil,
            secondsLeft: nil),
    ]

    @Test(arguments: estimates)
    func progressRate_byTable(_ estimate: Estimate) {
        let found = ProgressRate.estimate(estimate.points, now: estimate.now, fps: 60, target: 1)
        guard let perSecond = estimate.perSecond else {
            #expect(found == nil)
            return
        }
        guard let found else {
            Issue.record("no estimate")
            return
        }
        #expect(abs(found.perSecond - perSecond) < 1e-9, "\(found.perSecond)")
        switch (found.secondsLeft, estimate.secondsLeft) {
        case (nil, nil): break
        case (let left?, let expected?): #expect(abs(left - expected) < 1e-6 * max(1, expected), "\(left)")
        default:
            let (left, expected) = (String(describing: found.secondsLeft), String(describing: estimate.secondsLeft))
            Issue.record("seconds left \(left), expected \(expected)")
        }
    }

    @Test func progressRate_readsOnlyTheNewestPoints() {
        // A fast start long ago does not count once twenty points came since.
        let points =
            Self.series([0, 0.5], every: 60) + Self.series((1...20).map { 0.5 + Double($0) / 100 }, every: 60, from: 120)
        let found = ProgressRate.estimate(points, now: points.last!.tick, fps: 60, target: 1)
        #expect(abs((found?.perSecond ?? 0) - 0.01) < 1e-9)
        // Points after now (a change accepted to start later) neither count nor push the newest up to now out.
        let later = points + Self.series(Array(repeating: 0.2, count: 30), every: 60, from: points.last!.tick + 60)
        let same = ProgressRate.estimate(later, now: points.last!.tick, fps: 60, target: 1)
        #expect(same == found)
    }
}
