import Foundation
import Testing

@testable import RingCastCore

/// Status and threshold colours (DESIGN §13) by tick: a status animates as a colour push does, thresholds pick
/// the documented colours at their boundaries and follow the displayed value across them, and all of it is the
/// same bytes however the frames were composed, restored or replayed.
@Suite("Status and threshold colours")
struct StatusColorTests {
    static let origin = AnimatorTests.origin
    static let red = RGBAColor(hex: "#e74c3c")!
    static let yellow = RGBAColor(hex: "#f1c40f")!
    static let green = RGBAColor(hex: "#2ecc71")!
    static let blue = RGBAColor(hex: "#3498db")!
    static let thresholds = Thresholds([
        .init(value: 0, color: red), .init(value: 0.5, color: yellow), .init(value: 0.9, color: green),
    ])

    static func animator() -> Animator { AnimatorTests.animator() }

    static func push(_ ring: String, _ entry: RingPatch, _ animation: Animation? = nil) -> Animator.Change {
        .patch(BoardPatch(rings: [ring: entry], animation: animation))
    }

    /// The start and end colours ring `id` shows in `frame`.
    static func colors(_ frame: Frame, _ id: String) -> [RGBAColor] {
        let ring = frame.rings.first { $0.id == id }!
        return [ring.cap.color, ring.tip.color]
    }

    /// A frame as its JSON text, so that a failure shows what differs in a line.
    static func json(_ frame: Frame) throws -> String {
        String(decoding: try FrameEncoder.json(frame), as: UTF8.self)
    }

    /// Whether `color` lies strictly between `from` and `to` on the line the colour mixer draws.
    static func isBetween(_ color: RGBAColor, _ from: RGBAColor, _ to: RGBAColor) -> Bool {
        let pairs = zip(color.components, zip(from.components, to.components))
        return color != from && color != to
            && pairs.allSatisfy { value, ends in value >= min(ends.0, ends.1) - 1e-12 && value <= max(ends.0, ends.1) + 1e-12 }
    }

    // MARK: Palette and bands

    @Test func statuses_areTheSeedsFlatUIColours() {
        #expect(RingStatus.success.colors == [RGBAColor(hex: "#2ecc71")!, RGBAColor(hex: "#27ae60")!])
        #expect(RingStatus.failure.colors == [RGBAColor(hex: "#e74c3c")!, RGBAColor(hex: "#c0392b")!])
        #expect(RingStatus.running.colors == [RGBAColor(hex: "#f1c40f")!, RGBAColor(hex: "#f39c12")!])
        #expect(RingStatus.warning.colors == [RGBAColor(hex: "#e67e22")!, RGBAColor(hex: "#d35400")!])
        #expect(RingStatus.unknown.colors == [RGBAColor(hex: "#95a5a6")!, RGBAColor(hex: "#7f8c8d")!])
    }

    @Test(
        arguments: [
            (nil, red), (0.0, red), (0.4999, red), (0.5, yellow), (0.5.nextUp, yellow), (0.8999, yellow), (0.9, green),
            (1.0, green), (10.0, green),
        ] as [(Double?, RGBAColor)])
    func thresholds_pickTheLastThresholdAtMostTheValue(value: Double?, color: RGBAColor) {
        #expect(Self.thresholds.colors(for: value) == [color, color])
    }

    @Test func belowTheFirstThreshold_theFirstsColourShows() {
        let thresholds = Thresholds([.init(value: 0.2, colors: [Self.blue, Self.green]), .init(value: 0.6, color: Self.red)])
        #expect(thresholds.colors(for: 0) == [Self.blue, Self.green])
        #expect(thresholds.colors(for: nil) == [Self.blue, Self.green])
        #expect(thresholds.colors(for: 0.6) == [Self.red, Self.red])
    }

    /// Pushed without animation to each boundary, the ring rests in exactly the documented colours.
    @Test(arguments: [(0.0, red), (0.49, red), (0.5, yellow), (0.9, green), (1.5, green)])
    func atRest_aBoundaryValueShowsItsThresholdsColour(value: Double, color: RGBAColor) throws {
        var animator = Self.animator()
        try animator.accept(
            Self.push("move", RingPatch(coloring: .thresholds(Self.thresholds))), at: Self.origin + 1, now: Self.origin)
        try animator.accept(
            Self.push("move", RingPatch(progress: value), Animation.none), at: Self.origin + 200, now: Self.origin + 199)
        var tick = Self.origin
        while let next = animator.nextTick(after: tick), next < Self.origin + 2000 {
            tick = next
            _ = animator.frames(at: tick)
        }
        #expect(animator.nextTick(after: tick) == nil, "the board comes to rest")
        #expect(Self.colors(animator.frames(at: tick + 1).frame, "move") == [color, color])
        #expect(animator.snapshot(at: tick + 1).rings[0].colors == [color, color])
    }

    // MARK: Status

    /// running → failure: the gradient moves from amber to red over the default colour animation, as a colour push.
    @Test func aStatusChange_animatesLikeAColourPush() throws {
        var animator = Self.animator()
        let start = Self.origin + 1
        try animator.accept(
            Self.push("move", RingPatch(coloring: .status(.running)), Animation.none), at: start, now: Self.origin)
        let change = start + 10
        try animator.accept(Self.push("move", RingPatch(coloring: .status(.failure))), at: change, now: change - 1)
        let running = RingStatus.running.colors
        let failure = RingStatus.failure.colors
        var shown: [Int64: [RGBAColor]] = [:]
        for tick in (change - 1)...(change + 61) { shown[tick] = Self.colors(animator.frames(at: tick).frame, "move") }
        #expect(shown[change - 1] == running)
        #expect(shown[change] == running, "easeInOut starts at its start")
        let middle = try #require(shown[change + 30])
        #expect(Self.isBetween(middle[0], running[0], failure[0]) && Self.isBetween(middle[1], running[1], failure[1]))
        #expect(shown[change + 61] == failure)
        #expect(animator.nextTick(after: change + 61) == nil)
        // The same colours as a push of the failure colours.
        var colours = Self.animator()
        try colours.accept(Self.push("move", RingPatch(colors: running), Animation.none), at: start, now: Self.origin)
        try colours.accept(Self.push("move", RingPatch(colors: failure)), at: change, now: change - 1)
        for tick in (change - 1)...(change + 61) {
            #expect(Self.colors(colours.frames(at: tick).frame, "move") == shown[tick], "tick \(tick)")
        }
        let ring = animator.snapshot(at: change + 61).rings[0]
        #expect(ring.status == .failure && ring.colors == failure && ring.thresholds == nil)
    }

    @Test func theLatestWriteWins_andNullGoesBackToTheDefinition() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(RingUpdate(animation: Animation.none, coloring: .status(.success)), toRing: "move", at: 0)
        #expect(board.status(ofRing: "move") == .success && board.thresholds(ofRing: "move") == nil)
        try board.apply(RingUpdate(coloring: .thresholds(Self.thresholds)), toRing: "move", at: 1)
        #expect(board.status(ofRing: "move") == nil && board.thresholds(ofRing: "move") == Self.thresholds)
        try board.apply(RingUpdate(coloring: .status(.warning)), toRing: "move", at: 2)
        #expect(board.status(ofRing: "move") == .warning && board.thresholds(ofRing: "move") == nil)
        try board.apply(RingUpdate(colors: [Self.blue, Self.blue]), toRing: "move", at: 3)
        #expect(board.status(ofRing: "move") == nil && board.targetColors(ofRing: "move") == [Self.blue, Self.blue])
        try board.apply(RingUpdate(animation: Animation.none, coloring: .definition(key: "status")), toRing: "move", at: 4)
        #expect(board.status(ofRing: "move") == nil)
        #expect(board.colors(ofRing: "move", at: 4) == Fixtures.board.rings[0].colors)
        // A derived ring takes a status too, though its value is the server's.
        try board.apply(BoardPatch(rings: ["overall": RingPatch(coloring: .status(.running))]), at: 5)
        #expect(board.status(ofRing: "overall") == .running)
    }

    @Test func aDefinitionsStatusOrThresholds_areWhatNullGoesBackTo() throws {
        var spec = Fixtures.board
        spec.rings[0].status = .success
        spec.rings[0].colors = RingStatus.success.colors
        spec.rings[1].thresholds = Self.thresholds
        var board = Board(spec: spec)
        #expect(board.status(ofRing: "move") == .success)
        #expect(board.thresholds(ofRing: "exercise") == Self.thresholds)
        #expect(board.colors(ofRing: "exercise", at: 0) == [Self.red, Self.red])
        try board.apply(
            BoardPatch(
                rings: [
                    "move": RingPatch(coloring: .status(.failure)), "exercise": RingPatch(colors: [Self.blue, Self.blue]),
                ], animation: Animation.none), at: 1)
        #expect(board.status(ofRing: "move") == .failure && board.thresholds(ofRing: "exercise") == nil)
        try board.apply(
            BoardPatch(
                rings: [
                    "move": RingPatch(coloring: .definition(key: "status")),
                    "exercise": RingPatch(coloring: .definition(key: "thresholds")),
                ], animation: Animation.none), at: 2)
        #expect(board.status(ofRing: "move") == .success && board.thresholds(ofRing: "exercise") == Self.thresholds)
    }

    // MARK: Following the displayed value

    /// Rising linearly from 0 to 1 over 2 s across 0.5 and 0.9: the colour stays red until the value reaches
    /// 0.5, then moves to yellow over the transition; it never jumps, and rests in green.
    @Test func aCrossingMidAnimation_startsATransitionThere() throws {
        var animator = Self.animator()
        let start = Self.origin + 1
        try animator.accept(
            Self.push("move", RingPatch(progress: 1, coloring: .thresholds(Self.thresholds)), .timing(.linear, duration: 2)),
            at: start, now: Self.origin)
        var shown: [Int64: (p: Double, color: RGBAColor)] = [:]
        var tick = Self.origin
        while let next = animator.nextTick(after: tick), next < Self.origin + 1000 {
            tick = next
            let ring = animator.frames(at: tick).frame.rings[0]
            shown[tick] = (ring.p ?? 0, ring.cap.color)
        }
        let crossing = try #require(shown.keys.sorted().first { shown[$0]!.p >= 0.5 })
        for tick in shown.keys where tick < crossing { #expect(shown[tick]!.color == Self.red, "tick \(tick)") }
        #expect(Self.isBetween(shown[crossing + 30]!.color, Self.red, Self.yellow))
        // Past the second crossing (at 0.9, 1.8 s) the colour heads for green, from wherever it is.
        #expect(shown[tick]!.color == Self.green && shown[tick]!.p == 1)
        // Continuous: no tick moves any component by more than the transition's steepest slope allows.
        let ticks = shown.keys.sorted()
        for (before, after) in zip(ticks, ticks.dropFirst()) {
            let step = zip(shown[before]!.color.components, shown[after]!.color.components).map { abs($0 - $1) }.max()!
            #expect(step < 0.04, "tick \(after) jumps by \(step)")
        }
        // The board animates until the colour has settled, a second after the value.
        #expect(tick >= start + 120 + 60)
    }

    /// Stored in the middle of a crossing (through JSON, as written) and restored, the board continues with exactly
    /// the frames of the uninterrupted one; likewise stored before it, mid-transition, and at rest.
    @Test(arguments: [Int64(20), 40, 61, 75, 100, 140, 300])
    func aSnapshotMidCrossing_continuesWithTheSameBytes(offset: Int64) throws {
        let stop = Self.origin + offset
        let end = Self.origin + 400
        var live = Self.animator()
        let all = try AnimatorTests.run(&live, script: Self.crossingScript, ticks: Self.origin...end)
        var interrupted = Self.animator()
        _ = try AnimatorTests.run(&interrupted, script: Self.crossingScript, ticks: Self.origin...stop)
        let stored = try AnimatorTests.roundTrip(interrupted.state)
        var restored = try Animator(spec: Fixtures.board, fps: 60, state: stored)
        let rest = try AnimatorTests.run(
            &restored, script: Self.crossingScript.filter { $0.tick > stop + 1 }, ticks: (stop + 1)...end)
        for tick in (stop + 1)...end { #expect(rest[tick] == all[tick], "tick \(tick)") }
    }

    /// Thresholds on a plain ring, a derived ring following it and a countdown ring, pushes that retarget the value
    /// mid-crossing, a spring oscillating about a threshold, and an unrelated push in between.
    static let crossingScript: [(tick: Int64, change: Animator.Change)] = [
        (origin + 1, push("move", RingPatch(progress: 0.2, coloring: .thresholds(thresholds)), Animation.none)),
        (origin + 2, push("overall", RingPatch(coloring: .thresholds(thresholds)))),
        (origin + 2, push("countdown", RingPatch(coloring: .thresholds(thresholds)))),
        (origin + 5, push("move", RingPatch(progress: 0.95), .timing(.easeInOut, duration: 1))),
        (origin + 5, .startCountdown(seconds: 2)),
        (origin + 12, push("task1", RingPatch(progress: 1), .timing(.linear, duration: 1))),
        (origin + 12, push("task2", RingPatch(progress: 1), .timing(.linear, duration: 1))),
        (origin + 38, push("move", RingPatch(progress: 0.3), .spring(Spring(response: 0.6, dampingFraction: 0.3)))),
        (origin + 50, push("stand", RingPatch(progress: 0.5))),
        (origin + 70, push("move", RingPatch(progress: 0.55), .spring(Spring(response: 0.4, dampingFraction: 0.2)))),
        (origin + 90, push("task3", RingPatch(progress: 1), Animation.none)),
    ]

    /// One engine composes every tick, another only some (viewers come and go): the frames they compose agree.
    @Test func framesAreTheSame_whetherComposedEveryTickOrOnlySome() throws {
        var every = Self.animator()
        let all = try AnimatorTests.run(&every, script: Self.crossingScript, ticks: Self.origin...(Self.origin + 400))
        var sparse = Self.animator()
        var tick = Self.origin
        var composed = 0
        for step in [1, 3, 17, 2, 40, 5, 60, 1, 1, 90, 7, 33, 11, 50] {
            let next = tick + Int64(step)
            for entry in Self.crossingScript where entry.tick > tick && entry.tick <= next {
                try sparse.accept(entry.change, at: entry.tick, now: entry.tick - 1)
            }
            tick = next
            let (frame, base) = sparse.frames(at: tick)
            let bytes =
                try FrameEncoder.json(frame) + FrameEncoder.json(frame, previous: base)
                + BinaryFrame.encode(frame, previous: base)
            #expect(bytes == all[tick], "tick \(tick)")
            composed += 1
        }
        #expect(composed == 14)
    }

    /// A node that composed frames before a ring took thresholds (settling its values at once) and one that
    /// composed none compare the same settled state once the thresholds arrive, a moment later.
    @Test func theSettledStateIsTheSame_whetherFramesWereComposedBeforeThresholdsOrNot() throws {
        var watched = Self.animator()
        var idle = Self.animator()
        // Stand keeps the board moving, so that board time does not start over (and settle) at the next change.
        let push = Animator.Change.patch(
            BoardPatch(
                rings: [
                    "move": RingPatch(progress: 0.5, animation: .timing(.linear, duration: 1)),
                    "stand": RingPatch(progress: 1, animation: .timing(.linear, duration: 10)),
                ]))
        try watched.accept(push, at: Self.origin + 1, now: Self.origin)
        try idle.accept(push, at: Self.origin + 1, now: Self.origin)
        for tick in Self.origin...(Self.origin + 100) { _ = watched.frames(at: tick) }
        let thresholds = Self.push("move", RingPatch(coloring: .thresholds(Self.thresholds)))
        try watched.accept(thresholds, at: Self.origin + 101, now: Self.origin + 100)
        try idle.accept(thresholds, at: Self.origin + 101, now: Self.origin + 100)
        #expect(watched.settledState == idle.settledState)
        #expect(try Self.json(watched.frames(at: Self.origin + 130).frame) == Self.json(idle.frames(at: Self.origin + 130).frame))
    }

    /// A seeded random run of pushes of progress (curves, springs, jumps), thresholds, statuses and colours to a
    /// plain ring and the indicator-free board's derived ring, checked against invariants: two engines (one composing
    /// every tick, one every few) agree; every accepted state restores to the same frames; at rest every ring
    /// coloured by thresholds shows exactly the band colours of its displayed value, and every ring with a status
    /// its status's colours.
    @Test(arguments: [UInt64(1), 7, 42, 2026])
    func aSeededRandomRun_keepsTheInvariants(seed: UInt64) throws {
        var generator = ArrangerTests.SeededGenerator(state: seed)
        let animations: [Animation?] = [
            nil, Animation.none, .timing(.linear, duration: 0.5), .timing(.easeOut, duration: 1.5), .spring(Spring()),
            .spring(Spring(response: 0.3, dampingFraction: 0.25)), .spring(.bouncy),
        ]
        func randomThresholds() -> Thresholds {
            var value = 0.0
            return Thresholds(
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    let entry = Thresholds.Entry(
                        value: value,
                        colors: [[Self.red, Self.red], [Self.yellow, Self.green], [Self.blue, Self.blue]]
                            .randomElement(using: &generator)!)
                    value += Double.random(in: 0.05...0.6, using: &generator)
                    return entry
                })
        }
        var every = Self.animator()
        var sparse = Self.animator()
        // Composes nothing until the end, as a cluster node nobody watches.
        var idle = Self.animator()
        var tick = Self.origin
        for _ in 0..<40 {
            let ring = ["move", "task1", "overall"].randomElement(using: &generator)!
            var entry = RingPatch()
            switch Int.random(in: 0..<10, using: &generator) {
            case 0...4 where ring != "overall": entry.progress = Double.random(in: 0...1.2, using: &generator)
            case 5, 6: entry.coloring = .thresholds(randomThresholds())
            case 7: entry.coloring = .status(RingStatus.allCases.randomElement(using: &generator)!)
            case 8 where ring != "overall": entry.colors = [Self.blue, Self.green]
            default: entry.coloring = .definition(key: "thresholds")
            }
            let start = tick + Int64.random(in: 1...50, using: &generator)
            let change = Self.push(ring, entry, animations.randomElement(using: &generator)!)
            for next in (tick + 1)..<start {
                _ = every.frames(at: next)
                if next % 9 == 0 {
                    #expect(
                        try Self.json(sparse.frames(at: next).frame) == Self.json(every.frames(at: next).frame),
                        "seed \(seed) tick \(next)")
                }
            }
            try every.accept(change, at: start, now: start - 1)
            try sparse.accept(change, at: start, now: start - 1)
            try idle.accept(change, at: start, now: start - 1)
            // What cluster nodes compare is the same whichever frames each one composed.
            #expect(every.settledState == idle.settledState, "seed \(seed) tick \(start)")
            #expect(sparse.settledState == idle.settledState, "seed \(seed) tick \(start)")
            // What is stored restores to the same frames, here at the change's tick and a little after.
            var restored = try Animator(spec: Fixtures.board, fps: 60, state: try AnimatorTests.roundTrip(every.state))
            for probe in [start, start + 13] {
                #expect(
                    try Self.json(restored.frames(at: probe).frame) == Self.json(every.frames(at: probe).frame),
                    "seed \(seed) tick \(probe)")
            }
            tick = start + 13
        }
        let limit = tick + 100_000
        while let next = every.nextTick(after: tick), next < limit {
            tick = next
            _ = every.frames(at: tick)
        }
        #expect(every.nextTick(after: tick) == nil, "seed \(seed): the board comes to rest")
        let frame = every.frames(at: tick + 1).frame
        let board = every.projected
        for id in ["move", "task1", "overall"] {
            let shown = Self.colors(frame, id)
            if let thresholds = board.thresholds(ofRing: id) {
                let value = frame.rings.first { $0.id == id }!.p
                #expect(shown == thresholds.colors(for: value), "seed \(seed): \(id) rests in its band")
            } else if let status = board.status(ofRing: id) {
                #expect(shown == status.colors, "seed \(seed): \(id) shows its status")
            }
        }
        #expect(try Self.json(sparse.frames(at: tick + 1).frame) == Self.json(frame))
        #expect(try Self.json(idle.frames(at: tick + 1).frame) == Self.json(frame))
    }

    // MARK: Stored state

    @Test func aStoredStateWithBadColouring_isRefusedNamingTheKey() throws {
        var animator = Self.animator()
        try animator.accept(
            Self.push("move", RingPatch(progress: 0.7, coloring: .thresholds(Self.thresholds))), at: Self.origin + 1,
            now: Self.origin)
        try animator.accept(Self.push("stand", RingPatch(coloring: .status(.success))), at: Self.origin + 1, now: Self.origin)
        let good = try AnimatorTests.roundTrip(animator.state)
        #expect(good.rings["move"]?.thresholds == Self.thresholds && good.rings["move"]?.trail != nil)
        #expect(good.rings["stand"]?.status == "success")
        _ = try Animator(spec: Fixtures.board, fps: 60, state: good)

        func refusal(_ change: (inout BoardState) -> Void) -> String? {
            var state = good
            change(&state)
            do {
                _ = try Animator(spec: Fixtures.board, fps: 60, state: state)
                return nil
            } catch {
                return error.key
            }
        }
        #expect(refusal { $0.rings["stand"]?.status = "green" } == "rings.stand.status")
        #expect(refusal { $0.rings["move"]?.thresholds?.entries[1].value = 0 } == "rings.move.thresholds.1.0")
        #expect(refusal { $0.rings["move"]?.thresholds?.entries[0].value = .nan } == "rings.move.thresholds.0.0")
        #expect(refusal { $0.rings["move"]?.thresholds = Thresholds([]) } == "rings.move.thresholds")
        #expect(refusal { $0.rings["move"]?.trail?.since = .infinity } == "rings.move.trail.since")
        #expect(refusal { $0.rings["move"]?.trail?.colors.removeLast() } == "rings.move.trail.colors")
        var spec = Fixtures.board
        spec.rings[0].thresholds = Thresholds([.init(value: 11, color: Self.red)])
        #expect(refusal { $0.spec = spec } == "spec.rings.0.thresholds.0.0")
        spec.rings[0].thresholds = Self.thresholds
        spec.rings[0].kind = .text(waveWidth: 6)
        // A text widget has no thresholds to hold: its definition (`TextWidget`) has no place for them.
        #expect(spec.rings[0].thresholds == nil)
    }
}
