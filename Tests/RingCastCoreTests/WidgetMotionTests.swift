import Foundation
import RingCastCore
import Testing

/// Every widget kind by tick number, against the seeds' formulas written out again here, independently of the
/// server's code (DESIGN §12): the counter's odometer, the wave's scales, the indicator's label, the gradient's
/// mixer, and the whole board through snapshots and a second engine.
@Suite struct WidgetMotionTests {
    static let origin: Int64 = 1_795_000_000 * 60
    static let fps = 60

    // MARK: Independent models

    /// A mechanical odometer: wheel k (from the right) stands at s / 10^k whole turns of its digits, but only
    /// moves within the last unit before it carries; otherwise it rests on its digit.
    static func odometer(_ value: Double, decimals: Int = 0, columns: Int) -> [[Double]] {
        let s = (value.magnitude * pow(10, Double(decimals)) * 1e6).rounded() / 1e6
        return (0..<columns).reversed().map { k -> [Double] in
            let place = pow(10, Double(k))
            let below = s.truncatingRemainder(dividingBy: place)
            let position = (s / place).rounded(.down) + max(0, below - (place - 1))
            let digit = position.rounded(.down).truncatingRemainder(dividingBy: 10)
            return [digit, ((position - position.rounded(.down)) * 1e6).rounded() / 1e6]
        }
    }

    /// Seed 003 Example12's `valueInCurve`, copied from the seed.
    static func seedValueInCurve(pct: Double, total: Double, x: Double, waveWidth: Double) -> Double {
        let chunk = waveWidth / total
        let m = 1 / chunk
        let offset = (chunk - (1 / total)) * pct
        let lowerLimit = (pct - chunk) + offset
        let upperLimit = (pct) + offset
        guard x >= lowerLimit && x < upperLimit else { return 0 }
        let angle = ((x - pct - offset) * m) * 360 - 90
        return (sin(angle * .pi / 180) + 1) / 2
    }

    /// Seed 003 Example11's `colorMixer`.
    static func seedMixer(_ c1: RGBAColor, _ c2: RGBAColor, _ pct: Double) -> [Double] {
        [c1.red + (c2.red - c1.red) * pct, c1.green + (c2.green - c1.green) * pct, c1.blue + (c2.blue - c1.blue) * pct]
    }

    static func rounded(_ columns: [Odometer.Column]) -> [[Double]] {
        columns.map { [Double($0.digit), ($0.fraction * 1e6).rounded() / 1e6] }
    }

    // MARK: Counter

    @Test(arguments: [
        (99.5, 0, 3), (99.0, 0, 2), (100.0, 0, 3), (1009.25, 0, 4), (1009.0, 0, 4), (99.7, 0, 3), (5.5, 0, 1),
        (1.25, 1, 2), (0.29, 2, 3), (123_456.875, 0, 6), (9999.999, 0, 5), (0.0, 0, 1),
    ])
    func odometer_matchesAMechanicalOne(value: Double, decimals: Int, columns: Int) {
        let format = CounterFormat(decimals: decimals)
        let produced = Odometer.columns(for: value, format: format)
        #expect(produced.count == columns + (decimals > 0 ? decimals : 0) - (decimals > 0 ? decimals : 0))
        #expect(Self.rounded(produced) == Self.odometer(value, decimals: decimals, columns: produced.count), "\(value)")
    }

    @Test func odometer_fixedWidth_negatives_andLabels() {
        let format = CounterFormat(digits: 4, decimals: 1, sign: true, grouping: ",", unit: "ms")
        #expect(Odometer.columns(for: 12.5, format: format).count == 5)
        #expect(Odometer.label(for: 12.5, format: format) == "+0,012.5 ms")
        #expect(Odometer.label(for: -1234.56, format: format) == "-1,234.5 ms", "the digits the columns show")
        #expect(Odometer.label(for: 99.5, format: CounterFormat()) == "99", "until the wheels have rolled")
        #expect(Odometer.sign(for: -0.3, format: CounterFormat()) == "-")
        #expect(Odometer.sign(for: 0, format: format) == "")
        #expect(Self.rounded(Odometer.columns(for: -5.5, format: CounterFormat())) == [[5, 0.5]])
        #expect(Odometer.label(for: 1_234_567, format: CounterFormat(grouping: " ")) == "1 234 567")
    }

    /// The seed's tens rule for N columns, on random numbers: at rest the columns spell the label's digits,
    /// every fraction is in [0, 1), and only a run of columns from the right rolls, all by the same fraction.
    @Test func odometer_invariants_onASeededRandomSequence() {
        var generator = ArrangerTests.SeededGenerator(state: 22)
        for _ in 0..<2000 {
            let decimals = Int.random(in: 0...3, using: &generator)
            let whole = Double(Int.random(in: -9_999_999...9_999_999, using: &generator)) / pow(10, Double(decimals))
            let fraction = Double.random(in: 0..<1, using: &generator) / pow(10, Double(decimals))
            let format = CounterFormat(decimals: decimals)
            let value = whole + (whole < 0 ? -fraction : fraction)
            let columns = Odometer.columns(for: value, format: format)
            #expect(columns.allSatisfy { (0..<1).contains($0.fraction) && (0...9).contains($0.digit) })
            let rolling = columns.map { $0.fraction > 0 }
            if let first = rolling.firstIndex(of: true) {
                #expect(rolling[first...].allSatisfy { $0 }, "a rolling run reaches the last column: \(value)")
                #expect(Set(columns[first...].map(\.fraction)).count == 1)
                #expect(columns[(first + 1)...].allSatisfy { $0.digit == 9 }, "carried by nines: \(value)")
            }
            let atRest = Odometer.columns(for: whole, format: format)
            let spelled = atRest.map { String($0.digit) }.joined()
            let label = Odometer.label(for: whole, format: format).filter(\.isNumber)
            #expect(spelled == label, "\(whole) at \(decimals) decimals")
        }
    }

    @Test func counter_pushedUpAndDown_rollsTickByTick() throws {
        var animator = Animator(spec: try WidgetBoardTests.spec(), fps: Self.fps, tick: Self.origin - 10)
        let linear = Animation.timing(.linear, duration: 1)
        try animator.accept(.ring("tests", RingUpdate(value: 1010, animation: linear)), at: Self.origin + 1, now: Self.origin)
        func columns(at tick: Int64) -> [[Double]] {
            guard case .counter(_, _, let digits) = animator.frames(at: tick).frame.rings[1].widget else { return [] }
            return Self.rounded(digits)
        }
        // 99 → 1010 linearly over 60 ticks: 911 per second; at tick 30 the number is 554.5.
        #expect(columns(at: Self.origin + 31) == Self.odometer(554.5, columns: 3))
        #expect(columns(at: Self.origin + 61) == [[1, 0], [0, 0], [1, 0], [0, 0]])
        try animator.accept(
            .ring("tests", RingUpdate(value: 1009, animation: linear)), at: Self.origin + 101, now: Self.origin + 100)
        // Down by one: at the half the units wheel stands half-way back from 0 to 9, the tens with it.
        #expect(columns(at: Self.origin + 131) == [[1, 0], [0, 0], [0, 0.5], [9, 0.5]])
        #expect(animator.frames(at: Self.origin + 161).frame.rings[1].label == "1,009 tests")
    }

    // MARK: Text, indicator, gradient

    @Test func wave_scalesFollowTheSeedsFormula_atChosenTicks() throws {
        var animator = Animator(spec: try WidgetBoardTests.spec(), fps: Self.fps, tick: Self.origin - 10)
        let change = RingUpdate(animation: .timing(.linear, duration: 2), text: "Deployed")
        try animator.accept(.ring("status", change), at: Self.origin + 1, now: Self.origin)
        for offset: Int64 in [1, 13, 30, 61, 90, 120, 121, 200] {
            let pct = min(Double(offset - 1) / 120, 1)
            guard case .text(let text, let scales) = animator.frames(at: Self.origin + offset).frame.rings[2].widget else {
                Issue.record("no text frame")
                return
            }
            #expect(text == "Deployed")
            let expected = (0..<8).map { 1 + Self.seedValueInCurve(pct: pct, total: 8, x: Double($0) / 8, waveWidth: 6) }
            for (a, b) in zip(scales, expected) { #expect(abs(a - b) < 1e-12, "tick +\(offset)") }
        }
    }

    @Test(arguments: [(0.999, "99 %"), (0.0, "0 %"), (1.0, "100 %"), (0.29, "28 %"), (2.5, "250 %")])
    func indicator_labelTruncatesLikeTheSeed(progress: Double, label: String) {
        #expect(IndicatorLabel.string(for: progress) == label)
        #expect(IndicatorLabel.string(for: progress) == "\(Int(progress * 100)) %")
    }

    @Test func indicator_arcRunsFromThreeOClock() throws {
        var board = Board(spec: try WidgetBoardTests.spec())
        try board.apply(RingUpdate(progress: 0.25, animation: Animation.none), toRing: "load", at: 0)
        let ring = FrameComposer.frame(of: board, at: 0, seq: 0, wallClockMilliseconds: 0).rings[3]
        #expect(ring.a0 == 0)
        #expect(ring.a1 == Double.pi / 2)
        #expect(ring.label == "25 %")
    }

    @Test func gradient_stopsAreTheSeedsMixer_atChosenTicks() throws {
        var animator = Animator(spec: try WidgetBoardTests.spec(), fps: Self.fps, tick: Self.origin - 10)
        let from = try WidgetBoardTests.spec().rings[4].colors
        let to = [RGBAColor(hex: "#000000")!, RGBAColor(hex: "#ffffff")!, RGBAColor(hex: "#ff00ff")!]
        try animator.accept(
            .ring("mood", RingUpdate(colors: to, animation: .timing(.linear, duration: 1))), at: Self.origin + 1, now: Self.origin
        )
        for offset: Int64 in [1, 16, 31, 46, 61] {
            let pct = Double(offset - 1) / 60
            guard case .gradient(let stops) = animator.frames(at: Self.origin + offset).frame.rings[4].widget else {
                Issue.record("no gradient frame")
                return
            }
            #expect(stops.map(\.offset) == [0, 0.5, 1])
            for index in 0..<3 {
                let expected = Self.seedMixer(from[index], to[index], pct)
                let color = stops[index].color
                for (a, b) in zip([color.red, color.green, color.blue], expected) {
                    #expect(abs(a - b) < 1e-12, "stop \(index) at +\(offset)")
                }
            }
        }
    }

    // MARK: The whole board

    static let script: [(tick: Int64, change: Animator.Change)] = [
        (origin + 1, .ring("tests", RingUpdate(value: 1234))),
        (origin + 3, .ring("status", RingUpdate(text: "Deployed"))),
        (origin + 5, .ring("load", RingUpdate(progress: 0.8, animation: .spring(Spring(response: 0.5, dampingFraction: 0.5))))),
        (
            origin + 7,
            .ring(
                "mood",
                RingUpdate(colors: [
                    .init(red: 0, green: 0, blue: 0), .init(red: 1, green: 1, blue: 1), .init(red: 1, green: 0, blue: 1),
                ]))
        ),
        (origin + 9, .ring("move", RingUpdate(progress: 0.6))),
        (origin + 20, .ring("tests", RingUpdate(value: -56.5, animation: .timing(.easeOut, duration: 0.7)))),
        (origin + 25, .ring("status", RingUpdate(labelColor: RGBAColor(hex: "#2ecc71")!, wave: true, waveWidth: 3))),
    ]

    static func run(
        _ animator: inout Animator, script: [(tick: Int64, change: Animator.Change)], ticks: ClosedRange<Int64>
    ) throws -> [Int64: [UInt8]] {
        var bytes: [Int64: [UInt8]] = [:]
        for tick in ticks {
            for entry in script where entry.tick == tick + 1 {
                try animator.accept(entry.change, at: entry.tick, now: tick)
            }
            let (frame, base) = animator.frames(at: tick)
            bytes[tick] =
                try FrameEncoder.json(frame) + FrameEncoder.json(frame, previous: base) + BinaryFrame.encode(frame, previous: base)
        }
        return bytes
    }

    @Test func twoEngines_giveIdenticalBytes_forABoardMixingEveryKind() throws {
        var first = Animator(spec: try WidgetBoardTests.spec(), fps: Self.fps, tick: Self.origin - 10)
        var second = Animator(spec: try WidgetBoardTests.spec(), fps: Self.fps, tick: Self.origin - 10)
        let ticks = Self.origin...(Self.origin + 150)
        let a = try Self.run(&first, script: Self.script, ticks: ticks)
        let b = try Self.run(&second, script: Self.script, ticks: ticks)
        for tick in ticks { #expect(a[tick] == b[tick], "tick \(tick)") }
        #expect(Set(a.values).count > 100, "the board moved")
    }

    /// Snapshots between ticks where no change waits for its start tick, as AnimatorTests does (a pending change
    /// restored changes the recomputed delta base of its first tick, never a frame).
    @Test(arguments: [Int64(3), 10, 12, 22, 30, 60, 200])
    func everyKind_snapshottedMidway_continuesWithTheSameBytes(offset: Int64) throws {
        let spec = try WidgetBoardTests.spec()
        let stop = Self.origin + offset
        let end = Self.origin + 220
        var live = Animator(spec: spec, fps: Self.fps, tick: Self.origin - 10)
        let all = try Self.run(&live, script: Self.script, ticks: Self.origin...end)
        var interrupted = Animator(spec: spec, fps: Self.fps, tick: Self.origin - 10)
        _ = try Self.run(&interrupted, script: Self.script, ticks: Self.origin...stop)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let stored = try JSONDecoder().decode(BoardState.self, from: encoder.encode(interrupted.state))
        var restored = try Animator(spec: spec, fps: Self.fps, state: stored)
        let rest = try Self.run(&restored, script: Self.script.filter { $0.tick > stop + 1 }, ticks: (stop + 1)...end)
        for tick in (stop + 1)...end { #expect(rest[tick] == all[tick], "tick \(tick) after a snapshot at +\(offset)") }
    }

    @Test func aStoredWaveOfAnotherKind_isRefusedNamingTheKey() throws {
        var animator = Animator(spec: try WidgetBoardTests.spec(), fps: Self.fps, tick: Self.origin - 10)
        try animator.accept(.ring("status", RingUpdate(text: "Go")), at: Self.origin + 1, now: Self.origin)
        _ = animator.frames(at: Self.origin + 5)
        var state = animator.state
        state.rings["move"] = BoardState.Ring(wave: state.rings["status"]?.wave)
        let error = #expect(throws: BoardStateError.self) {
            try Animator(spec: try WidgetBoardTests.spec(), fps: Self.fps, state: state)
        }
        #expect(error?.key == "rings.move.wave")
    }
}

/// The largest values the API accepts for widgets are stored, restored and served again (a write that is stored
/// must load).
@Suite struct WidgetLimitsTests {
    @Test func theLargestAcceptedWidgetValues_storeRestoreAndComposeTheSameFrames() throws {
        let colors = (0..<8).map { "\"#" + String(format: "%02x", $0 * 30) + "0000\"" }.joined(separator: ",")
        let body = """
            {"rings":[{"id":"big","kind":"counter","value":-1e12,"digits":13,"decimals":3,"sign":true,"grouping":", ",
              "unit":"sixteen-chars-ok"},{"id":"mood","kind":"gradient","colors":[\(colors)]},
              {"id":"status","kind":"text","text":"thirty-two characters of text!!","waveWidth":64}]}
            """
        let spec = try RequestDecoder.decode(BoardDefinition.self, from: Array(body.utf8)).spec(named: "edge", maximumRings: 255)
        let origin: Int64 = 1_795_000_000 * 60
        var live = Animator(spec: spec, fps: 60, tick: origin - 10)
        let eight = (0..<8).map { RGBAColor(red: Double($0) / 7, green: 1, blue: 0) }
        try live.accept(
            .patch(
                BoardPatch(rings: [
                    "big": RingPatch(value: 1e12), "mood": RingPatch(colors: eight),
                    "status": RingPatch(text: "another thirty-two characters!!!", waveWidth: 64),
                ])),
            at: origin + 1, now: origin)
        _ = live.frames(at: origin + 20)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let stored = try JSONDecoder().decode(BoardState.self, from: encoder.encode(live.state))
        var restored = try Animator(spec: spec, fps: 60, state: stored)
        for tick in (origin + 21)...(origin + 120) {
            #expect(try FrameEncoder.json(restored.frames(at: tick).frame) == FrameEncoder.json(live.frames(at: tick).frame))
        }
        guard case .counter(let value, let sign, let digits) = live.frames(at: origin + 900).frame.rings[0].widget else {
            Issue.record("no counter")
            return
        }
        #expect(value == 1e12 && sign == "+" && digits.count == 16, "\(String(describing: value)) \(sign) \(digits.count)")
    }
}
