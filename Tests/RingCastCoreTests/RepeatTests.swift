import Foundation
import Testing

@testable import RingCastCore

/// Repeating animations (issue 22 item 7): values at chosen instants against the formulas of docs/ANIMATION.md
/// written out again here, the request forms, the stored form, and seeded random pushes against invariants.
@Suite("Repeating animations")
struct RepeatTests {
    static let from = 0.2
    static let to = 0.8

    /// A value at `from` that starts `animation` toward `to` at `start`.
    static func value(_ animation: Animation, start: Double = 10) -> AnimatedValue {
        var value = AnimatedValue(from)
        value.animate(to: to, with: animation, at: start)
        return value
    }

    /// The independent formula for timing passes: pass k = ⌊e/d⌋, u = e/d − k, f = curve(u), or curve(1 − u) on odd
    /// passes when autoreversing; the value is from + f·(to − from).
    static func expectedTiming(
        _ curve: TimingCurve, duration: Double, autoreverses: Bool, elapsed: Double
    ) -> Double {
        let k = (elapsed / duration).rounded(.down)
        let u = elapsed / duration - k
        let reversed = autoreverses && Int(k) % 2 == 1
        return from + curve.progress(at: reversed ? 1 - u : u) * (to - from)
    }

    // MARK: Timing curves

    @Test(arguments: [TimingCurve.linear, .easeInOut, .easeOut])
    func repeatThree_replaysTheCurveFromTheStartValueEachPass(curve: TimingCurve) {
        let value = Self.value(Animation.timing(curve, duration: 0.5).repeatCount(3, autoreverses: false))
        for elapsed in [0, 0.125, 0.25, 0.5, 0.625, 0.875, 1.0, 1.125, 1.375, 1.4375] {
            let expected = Self.expectedTiming(curve, duration: 0.5, autoreverses: false, elapsed: elapsed)
            #expect(abs(value.value(at: 10 + elapsed) - expected) < 1e-12, "elapsed \(elapsed)")
        }
        // Each pass starts again at the start value: a jump back, as SwiftUI's repeatCount(autoreverses: false).
        #expect(value.value(at: 10.5) == Self.from)
        #expect(value.isAnimating(at: 11.499))
        // After 3 × 0.5 s the value rests at the target.
        #expect(value.value(at: 11.5) == Self.to)
        #expect(!value.isAnimating(at: 11.5))
    }

    @Test func repeatTwoAutoreversing_runsBackThenRestsAtTheTarget() {
        let curve = TimingCurve.easeIn
        let value = Self.value(Animation.timing(curve, duration: 0.5).repeatCount(2, autoreverses: true))
        for elapsed in [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 0.9375] {
            let expected = Self.expectedTiming(curve, duration: 0.5, autoreverses: true, elapsed: elapsed)
            #expect(abs(value.value(at: 10 + elapsed) - expected) < 1e-12, "elapsed \(elapsed)")
        }
        // The turn is seamless: the target at the end of pass 0 and the start of pass 1.
        #expect(value.value(at: 10.5) == Self.to)
        // Pass 1 ends back at the start value; then, as SwiftUI's model value, the target.
        #expect(abs(value.value(at: 10.999_999) - Self.from) < 1e-6)
        #expect(value.value(at: 11) == Self.to)
        #expect(!value.isAnimating(at: 11))
    }

    @Test(arguments: [0.3, 0.5, 1.0 / 3, 0.017])
    func forever_atAThousandPassesAndAQuarter_isStillOnTheCurve(duration: Double) {
        let curve = TimingCurve.easeInOut
        let start = 1234.5
        var value = Self.value(Animation.timing(curve, duration: duration).repeatForever(autoreverses: true), start: start)
        // Pass 1000 runs forwards, pass 1001 backwards.
        let forward = start + 1000 * duration + 0.25 * duration
        let backward = start + 1001 * duration + 0.25 * duration
        let expectedForward = Self.from + curve.progress(at: 0.25) * (Self.to - Self.from)
        let expectedBackward = Self.from + curve.progress(at: 0.75) * (Self.to - Self.from)
        // The instants themselves round; the slope of the curve (at most 2 here) bounds what that moves.
        #expect(abs(value.value(at: forward) - expectedForward) < 1e-9)
        #expect(abs(value.value(at: backward) - expectedBackward) < 1e-9)
        #expect(value.isAnimating(at: start + 1e7))
        // Settling drops nothing: the next frames are the same.
        let before = (0..<5).map { value.value(at: forward + Double($0) / 60) }
        value.settle(at: forward)
        #expect((0..<5).map { value.value(at: forward + Double($0) / 60) } == before)
        #expect(value.runningAnimationCount == 1)
    }

    // MARK: Springs

    /// The critically damped spring from rest, written out: x(t) = x₀·e^(−ω₀t)·(1 + ω₀t).
    static func critical(_ x0: Double, after t: Double, response: Double) -> Double {
        let omega = 2 * Double.pi / response
        return x0 * exp(-omega * t) * (1 + omega * t)
    }

    @Test func repeatedSpring_replaysEachPassFromRestForItsSettlingTime() {
        let spring = Spring(response: 0.5, dampingFraction: 1)
        let value = Self.value(Animation.spring(spring).repeatCount(3, autoreverses: true))
        let pass = spring.settlingTime(displacement: Self.from - Self.to, velocity: 0)
        // Pass 0: from → to; pass 1 (reversed): to → from; pass 2: from → to; then the target.
        let checks: [(Double, Double)] = [
            (10 + 0.1, Self.to + Self.critical(Self.from - Self.to, after: 0.1, response: 0.5)),
            (10 + pass + 0.1, Self.from + Self.critical(Self.to - Self.from, after: 0.1, response: 0.5)),
            (10 + pass + 0.3, Self.from + Self.critical(Self.to - Self.from, after: 0.3, response: 0.5)),
            (10 + 2 * pass + 0.2, Self.to + Self.critical(Self.from - Self.to, after: 0.2, response: 0.5)),
        ]
        for (time, expected) in checks {
            #expect(abs(value.value(at: time) - expected) < 1e-9, "t \(time)")
        }
        #expect(value.isAnimating(at: 10 + 3 * pass - 0.01))
        #expect(value.value(at: 10 + 3 * pass + 0.001) == Self.to)
        #expect(!value.isAnimating(at: 10 + 3 * pass + 0.001))
    }

    @Test func repeatedSpringTakingOverAMovingValue_keepsItsVelocityOnlyInTheFirstPass() {
        let spring = Spring(response: 0.4, dampingFraction: 0.7)
        var value = AnimatedValue(0)
        value.animate(to: 1, with: .timing(.linear, duration: 1), at: 0)
        let before = value.value(at: 0.5)
        value.animate(to: 0.2, with: Animation.spring(spring).repeatForever(autoreverses: false), at: 0.5)
        #expect(value.value(at: 0.5) == before)
        #expect(value.velocity(at: 0.5) == 1)
        let first = spring.settlingTime(displacement: before - 0.2, velocity: 1)
        let later = spring.settlingTime(displacement: before - 0.2, velocity: 0)
        let x = spring.state(after: 0.05, displacement: before - 0.2, velocity: 0).displacement
        for pass in [1.0, 2, 50] {
            let time = 0.5 + first + (pass - 1) * later + 0.05
            #expect(abs(value.value(at: time) - (0.2 + x)) < 1e-9, "pass \(pass)")
        }
        #expect(value.isAnimating(at: 1e6))
    }

    // MARK: Colours

    @Test func colours_repeatAllFourComponentsTogether() {
        let white = RGBAColor(red: 1, green: 1, blue: 1)
        let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        var color = AnimatedColor(white)
        color.animate(to: red, with: Animation.timing(.linear, duration: 2).repeatCount(4, autoreverses: true), at: 0)
        // Pass 1 runs backwards: a quarter into it, three quarters of the way from white to red.
        let shown = color.value(at: 2.5)
        #expect(abs(shown.green - 0.25) < 1e-12)
        #expect(abs(shown.alpha - 0.625) < 1e-12)
        #expect(color.isAnimating(at: 7.9))
        #expect(color.value(at: 8) == red)
        #expect(!color.isAnimating(at: 8))
    }

    @Test func aColourPushedAgainWithAnotherAnimation_endsItsRepeatingSpring() {
        let white = RGBAColor(red: 1, green: 1, blue: 1)
        // Only green and blue change: red and alpha have nothing to replay.
        let red = RGBAColor(red: 1, green: 0, blue: 0)
        var color = AnimatedColor(white)
        color.animate(to: red, with: Animation.spring(.bouncy).repeatForever(autoreverses: true), at: 0)
        #expect(color.isAnimating(at: 1e5))
        let before = color.value(at: 3.3)
        color.animate(to: red, with: .timing(.linear, duration: 0.5), at: 3.3)
        #expect(color.value(at: 3.3) == before)
        #expect(color.value(at: 3.8) == red)
        #expect(!color.isAnimating(at: 3.8))
    }

    /// Widgets take repeats too: a text widget's wave (seed 003's pct, 0 → 1 over the animation) pulses forever,
    /// back and forth, and its scales follow the seed's formula at pct = the pass's fraction.
    @Test func aTextWidgetsWave_repeatsForever() throws {
        let origin = WidgetMotionTests.origin
        var animator = Animator(spec: try WidgetBoardTests.spec(), fps: 60, tick: origin - 10)
        let pulse = Animation.timing(.linear, duration: 2).repeatForever(autoreverses: true)
        try animator.accept(.ring("status", RingUpdate(animation: pulse, text: "Deployed")), at: origin + 1, now: origin)
        // Ticks after the start: pass 5 (backwards) a quarter in, pass 6 (forwards) a quarter in, pass 60 at its half.
        for (ticks, pct): (Int64, Double) in [(630, 0.75), (750, 0.25), (7260, 0.5)] {
            guard case .text(_, let scales) = animator.frames(at: origin + 1 + ticks).frame.rings[2].widget else {
                Issue.record("no text frame")
                return
            }
            let expected = (0..<8).map {
                1 + WidgetMotionTests.seedValueInCurve(pct: pct, total: 8, x: Double($0) / 8, waveWidth: 6)
            }
            for (a, b) in zip(scales, expected) { #expect(abs(a - b) < 1e-9, "tick +\(ticks)") }
        }
        #expect(animator.isAnimating(at: origin + 1 + 7260))
    }

    // MARK: Pushes during a repetition

    @Test func theSamePushAgain_changesNothing_anotherAnimationEndsTheRepetitionWithoutAJump() {
        let forever = Animation.timing(.linear, duration: 1).repeatForever(autoreverses: true)
        var value = Self.value(forever)
        let running = value
        value.animate(to: Self.to, with: forever, at: 13.25)
        #expect(value == running)
        // The same target with a plain curve: it blends from the repetition to the target and ends it.
        let before = value.value(at: 13.25)
        value.animate(to: Self.to, with: .timing(.easeOut, duration: 0.5), at: 13.25)
        #expect(value.value(at: 13.25) == before)
        #expect(value.isAnimating(at: 13.7))
        #expect(value.value(at: 13.75) == Self.to)
        #expect(!value.isAnimating(at: 13.75))
        value.settle(at: 13.75)
        #expect(value.runningAnimationCount == 0)
    }

    @Test func aRepetitionStartsFromTheCurrentPresentation_andReplacesWhatRuns() {
        var value = AnimatedValue(0)
        value.animate(to: 1, with: .timing(.easeIn, duration: 1), at: 0)
        value.animate(to: 0.5, with: .timing(.easeOut, duration: 1), at: 0.3)
        let start = value.value(at: 0.6)
        value.animate(to: 0.9, with: Animation.timing(.linear, duration: 0.4).repeatForever(autoreverses: true), at: 0.6)
        #expect(value.value(at: 0.6) == start)
        #expect(value.runningAnimationCount == 1)
        // Pass 1 backwards, half-way: half-way between the start and the target.
        #expect(abs(value.value(at: 0.6 + 0.6) - (start + 0.5 * (0.9 - start))) < 1e-12)
        #expect(abs(value.value(at: 0.6 + 400 * 0.4 + 0.1) - (start + 0.25 * (0.9 - start))) < 1e-9)
    }

    // MARK: Requests

    static let animationsDecoded: [(json: String, animation: Animation)] = [
        (
            #"{"curve":"linear","duration":0.5,"repeat":3}"#,
            .repeating(.timing(.linear, duration: 0.5), Repetition(count: .times(3), autoreverses: false))
        ),
        (
            #"{"repeat":"forever","autoreverse":true}"#,
            .repeating(.default, Repetition(count: .forever, autoreverses: true))
        ),
        (
            #"{"spring":{"duration":0.5,"bounce":0.3},"repeat":2,"autoreverse":false}"#,
            .repeating(.spring(.bouncy), Repetition(count: .times(2), autoreverses: false))
        ),
        (
            #"{"curve":"easeIn","repeat":1000}"#,
            .repeating(.timing(.easeIn, duration: 1), Repetition(count: .times(1000), autoreverses: false))
        ),
        (#"{"repeat":1,"autoreverse":true}"#, .default),
        (#"{"repeat":1.0}"#, .default),
        (#"{"autoreverse":true}"#, .default),
    ]

    @Test(arguments: animationsDecoded)
    func goodAnimationObjects_decode(json: String, animation: Animation) throws {
        let update = try RequestDecoder.decode(RingUpdate.self, from: Array(#"{"progress":0.5,"animation":\#(json)}"#.utf8))
        #expect(update.animation == animation)
    }

    static let refused: [RefusedBody] = [
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":0}}"#, 422, "out_of_range", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":1001}}"#, 422, "out_of_range", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":-1}}"#, 422, "out_of_range", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":2.5}}"#, 422, "out_of_range", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":1e300}}"#, 422, "out_of_range", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":"sometimes"}}"#, 422, "invalid_value", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":"Forever"}}"#, 422, "invalid_value", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":true}}"#, 422, "invalid_value", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":null}}"#, 422, "invalid_value", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":[2]}}"#, 422, "invalid_value", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"spring":{},"repeat":0}}"#, 422, "out_of_range", "animation.repeat"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeat":2,"autoreverse":"yes"}}"#, 400, "malformed", "animation.autoreverse"),
        RefusedBody(#"{"progress":0.5,"animation":{"repeats":2}}"#, 400, "unknown_field", "animation.repeats"),
    ]

    @Test(arguments: refused)
    func badRepeatValues_areRefusedNamingTheField(refused: RefusedBody) {
        let error = #expect(throws: APIError.self) {
            try RequestDecoder.decode(RingUpdate.self, from: Array(refused.body.utf8))
        }
        #expect(error?.status == refused.status)
        #expect(error?.code == refused.code)
        #expect(error?.field == refused.field)
    }

    @Test func inAPatch_theFieldPathNamesTheRing() {
        let error = #expect(throws: APIError.self) {
            try RequestDecoder.decode(
                BoardPatch.self, from: Array(#"{"rings":{"move":{"progress":1,"animation":{"repeat":0}}}}"#.utf8))
        }
        #expect(error?.field == "rings.move.animation.repeat")
        let top = #expect(throws: APIError.self) {
            try RequestDecoder.decode(BoardPatch.self, from: Array(#"{"rings":{"move":1},"animation":{"repeat":"x"}}"#.utf8))
        }
        #expect(top?.field == "animation.repeat")
    }

    @Test func aRepetitionBuiltInCode_isCheckedByTheSameLimits_andARefusedOneChangesNothing() throws {
        var animator = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        let state = animator.state
        let zero = Animation.repeating(.timing(.linear, duration: 1), Repetition(count: .times(0), autoreverses: false))
        let error = #expect(throws: APIError.self) {
            try animator.accept(.ring("move", RingUpdate(progress: 0.5, animation: zero)), at: 1001, now: 1000)
        }
        #expect(error?.code == "out_of_range")
        #expect(error?.field == "animation.repeat")
        let none = Animation.repeating(.none, Repetition(count: .forever, autoreverses: false))
        let noneError = #expect(throws: APIError.self) {
            try animator.accept(.ring("move", RingUpdate(progress: 0.5, animation: none)), at: 1001, now: 1000)
        }
        #expect(noneError?.code == "invalid_value")
        #expect(animator.state == state)
        // The builders never make those: a count of 1 is the animation itself, `.none` stays `.none`.
        #expect(Animation.default.repeatCount(1, autoreverses: true) == .default)
        #expect(Animation.none.repeatForever(autoreverses: true) == .none)
    }

    @Test func aBackgroundsDuration_timesTheRepeatedPasses() throws {
        let update = try RequestDecoder.decode(
            BackgroundUpdate.self,
            from: Array(##"{"color":"#2ecc71","duration":0.25,"animation":{"curve":"linear","repeat":"forever"}}"##.utf8))
        #expect(
            update.layerAnimation
                == .repeating(.timing(.linear, duration: 0.25), Repetition(count: .forever, autoreverses: false)))
    }

    // MARK: Stored state

    /// Every kind of repetition on one board: a forever autoreversing curve, a repeated spring, repeating
    /// colours and label colour, and a splash that repeats.
    static let script: [(tick: Int64, change: Animator.Change)] = [
        (
            AnimatorTests.origin + 1,
            AnimatorTests.ring("move", 0.9, Animation.timing(.easeInOut, duration: 0.7).repeatForever(autoreverses: true))
        ),
        (
            AnimatorTests.origin + 3,
            AnimatorTests.ring("task1", 0.6, Animation.spring(.bouncy).repeatCount(5, autoreverses: true))
        ),
        (
            AnimatorTests.origin + 7,
            AnimatorTests.patch(
                [
                    "stand": RingPatch(progress: 0.4, colors: [RGBAColor(hex: "#2ecc71")!, RGBAColor(hex: "#3498db")!]),
                    "exercise": RingPatch(labelColor: RGBAColor(hex: "#ff0000")!),
                ],
                Animation.timing(.linear, duration: 0.45).repeatCount(7, autoreverses: false))
        ),
        (
            AnimatorTests.origin + 11,
            .background(
                BackgroundUpdate(
                    color: RGBAColor(hex: "#4533c9")!, transition: .circle,
                    animation: Animation.timing(.easeOut, duration: 0.6).repeatForever(autoreverses: true)))
        ),
        (AnimatorTests.origin + 90, AnimatorTests.ring("task2", 0.3, .timing(.easeIn, duration: 0.5))),
        (
            AnimatorTests.origin + 130,
            AnimatorTests.ring(
                "move", 0.2, Animation.spring(Spring(response: 0.3, dampingFraction: 0.5)).repeatForever(autoreverses: false))
        ),
    ]

    @Test func snapshotMidRepetition_restoresToByteIdenticalFrames() throws {
        let origin = AnimatorTests.origin
        var first = AnimatorTests.animator()
        var second = AnimatorTests.animator()
        let middle = origin + 100
        let a = try AnimatorTests.run(&first, script: Self.script, ticks: origin...middle)
        let b = try AnimatorTests.run(&second, script: Self.script, ticks: origin...middle)
        #expect(a == b)
        // A restart at `middle`: store, load, continue.
        let stored = first.state
        #expect(stored.rings["move"]?.progress?.segments.first?.repetition?.forever == true)
        var restored = try Animator(spec: Fixtures.board, fps: AnimatorTests.fps, state: try AnimatorTests.roundTrip(stored))
        let later = (middle + 1)...(middle + 400)
        let uninterrupted = try AnimatorTests.run(&first, script: Self.script, ticks: later)
        let resumed = try AnimatorTests.run(&restored, script: Self.script, ticks: later)
        for tick in later { #expect(uninterrupted[tick] == resumed[tick], "tick \(tick)") }
        #expect(first.isAnimating(at: later.upperBound))
        // Still moving a day of ticks later, and the same in both.
        let farAway = middle + 86_400 * 60
        #expect(first.isAnimating(at: farAway))
        let far = try AnimatorTests.run(&first, script: [], ticks: farAway...(farAway + 3))
        let farResumed = try AnimatorTests.run(&restored, script: [], ticks: farAway...(farAway + 3))
        #expect(far == farResumed)
        #expect(first.nextTick(after: farAway) == farAway + 1)
    }

    /// Stored by a build before repetitions: no `repetition` key anywhere. It loads, and what this build
    /// stores for a plain animation has no `repetition` key either, so older builds read it too.
    @Test func aStateStoredBeforeRepetitions_stillLoads() throws {
        let json = #"""
            {"format":2,"board":"main","fps":60,"epoch":1000,"revision":3,
             "rings":{"move":{"progress":{"target":0.8,"rest":0.1,"segments":[
                {"start":0,"duration":1,"curve":[0.42,0,0.58,1],"target":0.8}]}},
              "stand":{"progress":{"target":0.3,"spring":{"response":0.5,"dampingFraction":0.825,"start":0,
                "from":0,"velocity":0,"target":0.3},"segments":[]}}},
             "background":{"base":[0,0,0,1],"layers":[]}}
            """#
        let state = try JSONDecoder().decode(BoardState.self, from: Data(json.utf8))
        var animator = try Animator(spec: Fixtures.board, fps: 60, state: state)
        #expect(animator.isAnimating(at: 1030))
        #expect(!animator.isAnimating(at: 1060))
        _ = animator.frames(at: 1030)
        let encoder = JSONEncoder()
        let written = String(decoding: try encoder.encode(animator.state), as: UTF8.self)
        #expect(!written.contains("repetition"))
    }

    @Test func aStoredRepetitionOutOfRange_isRefusedNamingTheKey() throws {
        var animator = AnimatorTests.animator()
        try animator.accept(
            AnimatorTests.ring("move", 0.7, Animation.timing(.linear, duration: 1).repeatCount(3, autoreverses: true)),
            at: AnimatorTests.origin + 1, now: AnimatorTests.origin)
        try animator.accept(
            AnimatorTests.ring("task1", 0.7, Animation.spring(Spring()).repeatForever(autoreverses: true)),
            at: AnimatorTests.origin + 1, now: AnimatorTests.origin)
        let good = animator.state
        _ = try Animator(spec: Fixtures.board, fps: 60, state: good)

        var count = good
        count.rings["move"]?.progress?.segments[0].repetition?.count = 1001
        let countError = #expect(throws: BoardStateError.self) { try Animator(spec: Fixtures.board, fps: 60, state: count) }
        #expect(countError?.key == "rings.move.progress.segments.0.repetition.count")
        var both = good
        both.rings["task1"]?.progress?.spring?.repetition?.count = 2
        let bothError = #expect(throws: BoardStateError.self) { try Animator(spec: Fixtures.board, fps: 60, state: both) }
        #expect(bothError?.key == "rings.task1.progress.spring.repetition")
        var neither = good
        neither.rings["task1"]?.progress?.spring?.repetition?.forever = nil
        #expect(throws: BoardStateError.self) { try Animator(spec: Fixtures.board, fps: 60, state: neither) }
    }

    // MARK: Seeded random pushes

    static let curves: [TimingCurve] = [.linear, .easeIn, .easeOut, .easeInOut]

    static func randomAnimation(_ generator: inout ArrangerTests.SeededGenerator) -> Animation {
        let pass: Animation
        switch Int.random(in: 0..<7, using: &generator) {
        case 0: return .none
        case 1, 2, 3:
            pass = .timing(
                curves.randomElement(using: &generator)!, duration: [0.05, 0.3, 1, 2.5].randomElement(using: &generator)!)
        default:
            pass = .spring(
                Spring(
                    response: [0.2, 0.5, 1].randomElement(using: &generator)!,
                    dampingFraction: [0.3, 0.825, 1, 2].randomElement(using: &generator)!))
        }
        let autoreverses = Bool.random(using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return pass
        case 1: return pass.repeatForever(autoreverses: autoreverses)
        default: return pass.repeatCount(Int.random(in: 1...6, using: &generator), autoreverses: autoreverses)
        }
    }

    /// Invariants after every push: the value does not jump at the push (unless it is `"none"`), the stored form
    /// restores to the same values, settling changes no value, the held animations stay bounded, the target is
    /// the last push's, and once nothing repeats or runs the value is exactly the target.
    @Test(arguments: [1 as UInt64, 7, 42, 2026])
    func randomPushesWithRepeats_keepTheInvariants(seed: UInt64) throws {
        var generator = ArrangerTests.SeededGenerator(state: seed)
        var value = AnimatedValue(0)
        var time = 0.0
        var previousTarget = 0.0
        for push in 0..<400 {
            time += [0, 1.0 / 60, 0.1, 0.5, 3, 70].randomElement(using: &generator)!
            let target = Double(Int.random(in: 0...20, using: &generator)) / 20
            let animation = Self.randomAnimation(&generator)
            let before = value.value(at: time)
            value.animate(to: target, with: animation, at: time)
            let context = "seed \(seed) push \(push) \(animation)"
            if animation != .none {
                #expect(value.value(at: time) == before, "\(context)")
            }
            #expect(value.target == target, "\(context)")
            let probes = [0, 0.01, 0.37, 1.5, 4, 61, 1e4].map { time + $0 }
            let values = probes.map { value.value(at: $0) }
            #expect(values.allSatisfy { $0.isFinite && (-2...3).contains($0) }, "\(context) \(values)")
            let restored = try AnimatedValue(state: value.state, key: "v", targets: 0...1)
            #expect(probes.map { restored.value(at: $0) } == values, "\(context)")
            var settled = value
            settled.settle(at: time)
            #expect(probes.map { settled.value(at: $0) } == values, "\(context)")
            #expect(value.runningAnimationCount <= 130, "\(context)")
            if !value.isAnimating(at: time + 1e4) {
                #expect(value.value(at: time + 1e4) == target, "\(context)")
            }
            // A forever repetition toward a new target keeps the value moving.
            if animation.repetition?.count == .forever, target != previousTarget, abs(before - target) > 0.01 {
                #expect(value.isAnimating(at: time + 1e4), "\(context)")
            }
            previousTarget = target
        }
    }

    /// Two animators fed the same random pushes with repeats, one restarted from its stored state every 97
    /// ticks, compose the same bytes at every tick: keyframes always, deltas from the second tick after a
    /// restart on (a restarted server greets its viewers with a keyframe; the stored state already holds a
    /// change accepted for the first tick, so the base it would compose for that tick's delta is not the old one).
    @Test(arguments: [3 as UInt64, 99])
    func randomPushesThroughTwoEngines_withRestarts_giveTheSameBytes(seed: UInt64) throws {
        var generator = ArrangerTests.SeededGenerator(state: seed)
        let origin = AnimatorTests.origin
        var script: [(tick: Int64, change: Animator.Change)] = []
        var tick = origin
        for _ in 0..<40 {
            tick += Int64.random(in: 1...40, using: &generator)
            let ring = ["move", "stand", "task3"].randomElement(using: &generator)!
            let target = Double(Int.random(in: 0...10, using: &generator)) / 10
            script.append((tick, AnimatorTests.ring(ring, target, Self.randomAnimation(&generator))))
        }
        var steady = AnimatorTests.animator()
        var restarted = AnimatorTests.animator()
        let end = tick + 200
        var start = origin
        while start <= end {
            let ticks = start...min(start + 96, end)
            let a = try AnimatorTests.run(&steady, script: script, ticks: ticks)
            let b = try AnimatorTests.run(&restarted, script: script, ticks: ticks)
            #expect(
                try FrameEncoder.json(steady.frame(at: ticks.upperBound)) == FrameEncoder.json(restarted.frame(at: ticks.upperBound)))
            for tick in ticks.dropFirst() { #expect(a[tick] == b[tick], "seed \(seed) tick \(tick)") }
            restarted = try Animator(
                spec: Fixtures.board, fps: AnimatorTests.fps, state: try AnimatorTests.roundTrip(restarted.state))
            start = ticks.upperBound + 1
        }
    }
}
