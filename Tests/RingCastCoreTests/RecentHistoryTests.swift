import Foundation
import RingCastCore
import Testing

/// The `rate` and `eta` label formats (issue 33): texts by table, then through the animator by tick — what a push
/// shows, when the text changes, that a restored board shows the same, and that boards without them keep nothing.
@Suite("Rate and time-to-done labels")
struct RecentHistoryTests {
    static let fps = AnimatorTests.fps
    static let origin = AnimatorTests.origin

    @Test(arguments: [
        (0.002, 100.0, "12 %/min"), (0.5, 100.0, "50 %/s"), (0.01, 100.0, "1 %/s"), (0.0001, 100.0, "36 %/h"),
        (-0.002, 100.0, "-12 %/min"), (0.0, 100.0, "0 %/min"), (0.001, 20.0, "1.2/min"), (0.25, 20.0, "5/s"),
        (0.000_02, 100.0, "7.2 %/h"), (0.1, 1_000_000.0, "100,000/s"),
    ])
    func rate_picksTheUnitWhereTheNumberIsAtLeastOne(perSecond: Double, maximum: Double, text: String) {
        #expect(RateLabel.rate(perSecond: perSecond, maximum: maximum) == text)
    }

    @Test(arguments: [
        (0.2, "~1 s left"), (59.0, "~59 s left"), (59.2, "~60 s left"), (60.0, "~1 min left"), (240.0, "~4 min left"),
        (3_599.0, "~60 min left"), (3_600.0, "~1 h left"), (47 * 3_600.0, "~47 h left"), (48 * 3_600.0, "~2 d left"),
        (1e9, "~999+ d left"),
    ])
    func timeLeft_roundsToItsUnit(seconds: Double, text: String) {
        #expect(RateLabel.timeLeft(seconds: seconds) == text)
    }

    /// A board whose task1 shows its time to done and task2 its rate.
    static func animator() throws -> Animator {
        var animator = Animator(spec: Fixtures.board, fps: fps, tick: origin - 1000)
        try animator.accept(
            .patch(BoardPatch(rings: ["task1": RingPatch(label: .eta), "task2": RingPatch(label: .rate)])), at: origin,
            now: origin - 1)
        return animator
    }

    static func push(_ animator: inout Animator, _ ring: String, _ progress: Double, at tick: Int64) throws {
        try animator.accept(.ring(ring, RingUpdate(progress: progress)), at: tick, now: tick - 1)
    }

    static func label(_ animator: inout Animator, _ ring: String, at tick: Int64) -> String? {
        animator.frame(at: tick).rings.first { $0.id == ring }?.label
    }

    @Test func eta_isADashUntilTwoPoints_thenCountsDown_thenSaysDone() throws {
        var animator = try Self.animator()
        let second = Int64(Self.fps)
        try Self.push(&animator, "task1", 0.1, at: Self.origin + second)
        #expect(Self.label(&animator, "task1", at: Self.origin + second) == "—", "one point: too little history")
        try Self.push(&animator, "task1", 0.2, at: Self.origin + 11 * second)
        // 0.1 in 10 s: 0.01 a second, 0.8 left: 80 s (the first sample is the whole estimate).
        #expect(Self.label(&animator, "task1", at: Self.origin + 11 * second) == "~1 min left")
        // Waiting counts as a sample with no change: the estimate lengthens.
        let later = Self.label(&animator, "task1", at: Self.origin + 71 * second)
        #expect(later != "~1 min left" && later?.hasSuffix("left") == true, "\(later ?? "nil")")
        try Self.push(&animator, "task1", 1, at: Self.origin + 80 * second)
        #expect(Self.label(&animator, "task1", at: Self.origin + 80 * second) == "done")
    }

    @Test func eta_isADashWhileTheRingGoesBack() throws {
        var animator = try Self.animator()
        try Self.push(&animator, "task1", 0.5, at: Self.origin + 60)
        try Self.push(&animator, "task1", 0.4, at: Self.origin + 120)
        #expect(Self.label(&animator, "task1", at: Self.origin + 120) == "—")
        #expect(Self.label(&animator, "task2", at: Self.origin + 120) == "—", "no points for task2")
    }

    @Test func rate_followsThePushes() throws {
        var animator = try Self.animator()
        try Self.push(&animator, "task2", 0.1, at: Self.origin + 60)
        try Self.push(&animator, "task2", 0.2, at: Self.origin + 60 * 61)
        // 0.1 a minute.
        #expect(Self.label(&animator, "task2", at: Self.origin + 60 * 61) == "10 %/min")
    }

    @Test func theTextChangesAtMostOnceASecond_atTicksNextTickNames() throws {
        var animator = try Self.animator()
        try Self.push(&animator, "task1", 0.1, at: Self.origin + 30)
        try Self.push(&animator, "task1", 0.3, at: Self.origin + 90)
        let start = Self.origin + 600
        var previous = Self.label(&animator, "task1", at: start)
        var changes: [Int64] = []
        for tick in (start + 1)...(start + 600) {
            let text = Self.label(&animator, "task1", at: tick)
            if text != previous { changes.append(tick) }
            previous = text
        }
        #expect(!changes.isEmpty, "a stalled ring's estimate lengthens")
        #expect(changes.allSatisfy { $0 % Int64(Self.fps) == 0 }, "only at whole seconds: \(changes)")
        // At rest otherwise, the board is asked for again at the next second.
        let next = animator.nextTick(after: start + 1)
        #expect(next == (start + 1) / 60 * 60 + 60)
    }

    @Test func aRestoredBoardShowsTheSameTexts_andABoardWithoutThemStoresNone() throws {
        var animator = try Self.animator()
        try Self.push(&animator, "task1", 0.1, at: Self.origin + 30)
        try Self.push(&animator, "task1", 0.3, at: Self.origin + 90)
        try Self.push(&animator, "task2", 0.3, at: Self.origin + 120)
        try Self.push(&animator, "task2", 0.35, at: Self.origin + 1200)
        let state = try AnimatorTests.roundTrip(animator.state)
        #expect(state.recent?["task1"]?.count == 2 && state.recent?["task2"]?.count == 2)
        var restored = try Animator(spec: Fixtures.board, fps: Self.fps, state: state)
        for tick in [Self.origin + 1200, Self.origin + 2000, Self.origin + 9000] {
            for ring in ["task1", "task2"] {
                #expect(Self.label(&restored, ring, at: tick) == Self.label(&animator, ring, at: tick), "\(ring) at \(tick)")
            }
        }

        var plain = Animator(spec: Fixtures.board, fps: Self.fps, tick: Self.origin - 1000)
        try Self.push(&plain, "task1", 0.5, at: Self.origin + 30)
        #expect(plain.state.recent == nil && plain.recent.rings.isEmpty)
    }

    @Test func aRingKeepsItsNewestPoints_andLosesThemWithItsFormat() throws {
        var animator = try Self.animator()
        for index in 0..<30 {
            try Self.push(&animator, "task1", Double(index) / 100, at: Self.origin + 10 + Int64(index) * 10)
        }
        _ = animator.frame(at: Self.origin + 400)
        #expect(animator.recent.rings["task1"]?.count == ProgressRate.window)
        #expect(animator.recent.rings["task1"]?.last?.value == 0.29)
        try animator.accept(.ring("task1", RingUpdate(label: .percent)), at: Self.origin + 401, now: Self.origin + 400)
        _ = animator.frame(at: Self.origin + 401)
        #expect(animator.recent.rings["task1"] == nil)
    }

    @Test func aStoredStateWithBadPointsIsRefused_namingTheKey() throws {
        var animator = try Self.animator()
        try Self.push(&animator, "task1", 0.1, at: Self.origin + 30)
        var state = animator.state
        state.recent = ["task1": Array(repeating: HistoryPoint(tick: Self.origin, value: 0.1), count: 513)]
        #expect(throws: BoardStateError.self) { try Animator(spec: Fixtures.board, fps: Self.fps, state: state) }
        state.recent = ["task1": [HistoryPoint(tick: -1, value: 0.1)]]
        #expect(throws: BoardStateError.self) { try Animator(spec: Fixtures.board, fps: Self.fps, state: state) }
    }
}
