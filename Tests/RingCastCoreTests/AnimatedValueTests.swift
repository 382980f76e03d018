import RingCastCore
import Testing

@Suite struct AnimatedValueTests {
    /// Frames at 60 fps from `start` to `end`.
    static func frames(from start: Double, to end: Double) -> [Double] {
        stride(from: 0, through: Int(((end - start) * 60).rounded()), by: 1).map { start + Double($0) / 60 }
    }

    /// The largest slope of a curve, dy/dx, sampled finely.
    static func peakSpeed(of curve: TimingCurve) -> Double {
        let steps = 10_000
        return (1...steps).map { step in
            (curve.progress(at: Double(step) / Double(steps)) - curve.progress(at: Double(step - 1) / Double(steps)))
                * Double(steps)
        }.max() ?? 0
    }

    @Test func newValue_isAtRest() {
        let value = AnimatedValue(0.3)
        #expect(value.value(at: 0) == 0.3)
        #expect(value.target == 0.3)
        #expect(!value.isAnimating(at: 0))
    }

    @Test func animationNone_jumpsAtOnce() {
        var value = AnimatedValue(0)
        value.animate(to: 0.8, with: .timing(.linear, duration: 1), at: 0)
        value.animate(to: 0.4, with: Animation.none, at: 0.5)
        #expect(value.value(at: 0.5) == 0.4)
        #expect(!value.isAnimating(at: 0.5))
        #expect(value.runningAnimationCount == 0)
    }

    @Test func timingAnimation_followsItsCurveBetweenOldAndNewValue() {
        var value = AnimatedValue(0.2)
        value.animate(to: 0.6, with: .timing(.easeIn, duration: 2), at: 10)
        #expect(value.value(at: 10) == 0.2)
        let expected = 0.2 + TimingCurve.easeIn.progress(at: 0.25) * 0.4
        #expect(abs(value.value(at: 10.5) - expected) < 1e-15)
        #expect(value.isAnimating(at: 11.999))
        #expect(!value.isAnimating(at: 12))
    }

    @Test(arguments: [0.1, 0.7, 1.0 / 3, 0.123456789, 9.87654321, 0])
    func finalValue_equalsTargetExactly_evenAfterRetargets(target: Double) {
        var value = AnimatedValue(0.1)
        value.animate(to: 0.7, with: .default, at: 0.1)
        value.animate(to: 0.3, with: .timing(.easeOut, duration: 0.45), at: 0.3)
        value.animate(to: target, with: .timing(.easeIn, duration: 0.7), at: 0.35)
        // 0.35 + 0.7 is the instant the last animation ends, computed as the animation computes it.
        let end = max(0.1 + 1.0, 0.35 + 0.7)
        #expect(value.value(at: end) == target)
        #expect(value.value(at: end + 1 / 60) == target)
        #expect(value.value(at: 1e9) == target)
        #expect(!value.isAnimating(at: end))
    }

    @Test func retarget_isContinuousAtTheRetargetInstant() {
        var value = AnimatedValue(0)
        value.animate(to: 1, with: .default, at: 0)
        let before = value.value(at: 0.4)
        value.animate(to: 0.2, with: .default, at: 0.4)
        #expect(value.value(at: 0.4) == before)
    }

    @Test(arguments: [TimingCurve.linear, .easeIn, .easeOut, .easeInOut])
    func retarget_neverJumpsMoreThanTheCurvesPeakSpeedAllows(curve: TimingCurve) {
        var value = AnimatedValue(0)
        value.animate(to: 1, with: .timing(curve, duration: 1), at: 0)
        let retargetAt = 0.4
        var samples = Self.frames(from: 0, to: retargetAt).map { value.value(at: $0) }
        value.animate(to: 0.2, with: .timing(curve, duration: 1), at: retargetAt)
        samples += Self.frames(from: retargetAt, to: 2).dropFirst().map { value.value(at: $0) }
        // |P′| ≤ |P_old′|·(1 − f) + |f′|·|T − P_old| ≤ peak·1 + peak·0.8 per second for these two animations.
        let peak = Self.peakSpeed(of: curve)
        let allowed = peak * (1 + 0.8) / 60 + 1e-9
        for (previous, next) in zip(samples, samples.dropFirst()) {
            #expect(abs(next - previous) <= allowed)
        }
        #expect(samples.last == 0.2)
    }

    /// A curve after a curve, or after a spring that keeps running toward its old target as P_old.
    @Test(arguments: [Animation.default, .spring(.bouncy)])
    func retarget_blendsFromTheOldAnimationsOutputLikeSwiftUI(old animation: Animation) {
        var old = AnimatedValue(0)
        old.animate(to: 1, with: animation, at: 0)
        var value = old
        value.animate(to: 0.2, with: .timing(.easeOut, duration: 0.5), at: 0.4)
        for time in [0.4, 0.45, 0.6, 0.85, 0.9, 1.0, 1.2] {
            let pOld = old.value(at: time)
            // P(t) = P_old(t) + f_new(t − t₀)·(target − P_old(t)) (DESIGN §4).
            let expected = time >= 0.9 ? 0.2 : pOld + TimingCurve.easeOut.progress(at: (time - 0.4) / 0.5) * (0.2 - pOld)
            #expect(abs(value.value(at: time) - expected) < 1e-15)
        }
        // Once the newest animation has finished, nothing under it can move the value.
        #expect(old.isAnimating(at: 0.9) && !value.isAnimating(at: 0.9))
    }

    @Test func pushingTheCurrentTargetAgain_doesNotRestartTheAnimation() {
        var value = AnimatedValue(0)
        value.animate(to: 1, with: .default, at: 0)
        value.animate(to: 1, with: .default, at: 0.5)
        #expect(value.runningAnimationCount == 1)
        #expect(!value.isAnimating(at: 1))
    }

    @Test func settle_dropsFinishedAnimations_withoutChangingAnyValue() {
        var value = AnimatedValue(0)
        value.animate(to: 1, with: .timing(.easeInOut, duration: 0.3), at: 0)
        value.animate(to: 0.5, with: .timing(.easeIn, duration: 1), at: 0.1)
        value.animate(to: 0.8, with: .timing(.linear, duration: 0.3), at: 0.2)
        #expect(value.runningAnimationCount == 3)
        let times = Self.frames(from: 0.4, to: 1.5)
        let unsettled = times.map { value.value(at: $0) }
        var settled = value
        // At 0.4 only the first animation has finished.
        settled.settle(at: 0.4)
        #expect(settled.runningAnimationCount == 2)
        #expect(times.map { settled.value(at: $0) } == unsettled)
        // At 0.5 the newest has finished too: its target is the value from then on, whatever runs before it.
        settled.settle(at: 0.5)
        #expect(settled.runningAnimationCount == 0)
        #expect(settled.value(at: 0.5) == 0.8)
        #expect(value.value(at: 0.5) == 0.8)
    }

    @Test func manyPushes_keepOnlyRunningAnimations() {
        var value = AnimatedValue(0)
        for push in 0..<1000 {
            value.animate(to: Double(push % 7) / 7, with: .timing(.linear, duration: 0.5), at: Double(push) * 0.1)
        }
        #expect(value.runningAnimationCount <= 6)
    }

    @Test func animatedColor_mixesComponentsWithTheSameCurve() {
        var color = AnimatedColor(Palette.lightRed)
        color.animate(to: Palette.lightBlue, with: .timing(.linear, duration: 1), at: 0)
        let middle = color.value(at: 0.5)
        let expected = Palette.lightRed.mixed(with: Palette.lightBlue, fraction: 0.5)
        #expect(abs(middle.red - expected.red) < 1e-15)
        #expect(abs(middle.green - expected.green) < 1e-15)
        #expect(abs(middle.blue - expected.blue) < 1e-15)
        #expect(color.value(at: 1) == Palette.lightBlue)
        #expect(color.target == Palette.lightBlue)
        #expect(!color.isAnimating(at: 1))
    }

    // MARK: Springs

    /// Every kind of animation the API can produce: the four curves and five springs (bouncy to overdamped).
    static let animations: [Animation] = [
        .timing(.linear, duration: 1), .timing(.easeIn, duration: 1), .timing(.easeOut, duration: 0.6),
        .timing(.easeInOut, duration: 1), .spring(Spring()), .spring(.smooth), .spring(.snappy), .spring(.bouncy),
        .spring(Spring(duration: 1, bounce: -0.5)),
    ]

    static let animationPairs: [(Animation, Animation)] = animations.flatMap { first in animations.map { (first, $0) } }

    /// An upper bound of |P′| for `animation` running from `value` (with `velocity`) to `target`, where the
    /// motion it starts from moves at most `underneath` and differs from `target` by at most `gap`: a spring's
    /// speed never exceeds √(v0² + ω₀²x0²) (its energy only decreases); a curve blend's is
    /// |P_old′| + |f′|·|target − P_old|.
    static func speedBound(
        _ animation: Animation, value: Double, velocity: Double, target: Double, underneath: Double, gap: Double
    ) -> Double {
        switch animation {
        case .none: return 0
        case .timing(let curve, let duration): return underneath + peakSpeed(of: curve) / duration * gap
        case .spring(let spring):
            let x0 = value - target
            return (velocity * velocity + spring.stiffness * x0 * x0).squareRoot()
        // None of `animations` repeats; RepeatTests checks repetitions.
        case .repeating: return .infinity
        }
    }

    @Test(arguments: animationPairs)
    func retarget_neverJumps_forAnyPairOfCurvesAndSprings(first: Animation, second: Animation) {
        var value = AnimatedValue(0)
        value.animate(to: 1, with: first, at: 0)
        let old = value
        let retargetAt = 0.4
        let before = Self.frames(from: 0, to: retargetAt).map { old.value(at: $0) }
        let firstBound = Self.speedBound(first, value: 0, velocity: 0, target: 1, underneath: 0, gap: 1)
        for (previous, next) in zip(before, before.dropFirst()) {
            #expect(abs(next - previous) <= firstBound / 60 + 1e-12)
        }

        let (p0, v0) = (old.value(at: retargetAt), old.velocity(at: retargetAt))
        value.animate(to: 0.2, with: second, at: retargetAt)
        #expect(value.value(at: retargetAt) == p0)
        if case .spring = second {
            // A spring keeps the velocity of whatever ran.
            #expect(abs(value.velocity(at: retargetAt) - v0) < 1e-12)
        }
        var times: [Double] = []
        var time = retargetAt
        while value.isAnimating(at: time), time < 30 {
            times.append(time)
            time += 1.0 / 60
        }
        times.append(time)
        let after = times.map { value.value(at: $0) }
        let gap = times.map { abs(0.2 - old.value(at: $0)) }.max() ?? 0
        let secondBound = Self.speedBound(second, value: p0, velocity: v0, target: 0.2, underneath: firstBound, gap: gap)
        for (previous, next) in zip(after, after.dropFirst()) {
            #expect(abs(next - previous) <= secondBound / 60 + 1e-12)
        }
        #expect(after.last == 0.2)
        #expect(!value.isAnimating(at: time))
    }

    @Test func spring_takesOverTheVelocityOfARunningCurveBlend() {
        var value = AnimatedValue(0)
        value.animate(to: 1, with: .timing(.easeIn, duration: 1), at: 0)
        value.animate(to: 0.3, with: .timing(.easeOut, duration: 0.5), at: 0.3)
        // The analytic derivative of the two-segment blend agrees with a central difference …
        let h = 1e-6
        let difference = (value.value(at: 0.5 + h) - value.value(at: 0.5 - h)) / (2 * h)
        #expect(abs(value.velocity(at: 0.5) - difference) < 1e-6)
        // … and the spring starts with it.
        let (p0, v0) = (value.value(at: 0.5), value.velocity(at: 0.5))
        value.animate(to: 0.8, with: .spring(.bouncy), at: 0.5)
        #expect(value.value(at: 0.5) == p0)
        #expect(value.velocity(at: 0.5) == v0)
        #expect(value.runningAnimationCount == 1)
        let expected = Spring.bouncy.state(after: 0.2, displacement: p0 - 0.8, velocity: v0)
        #expect(abs(value.value(at: 0.7) - (0.8 + expected.displacement)) < 1e-15)
    }

    @Test func spring_replacesTheRunningSpring_keepingValueAndVelocity() {
        var value = AnimatedValue(0)
        value.animate(to: 1, with: .spring(.bouncy), at: 0)
        let (p0, v0) = (value.value(at: 0.25), value.velocity(at: 0.25))
        value.animate(to: 0.4, with: .spring(.snappy), at: 0.25)
        #expect(value.runningAnimationCount == 1)
        #expect(value.value(at: 0.25) == p0 && value.velocity(at: 0.25) == v0)
        let expected = Spring.snappy.state(after: 0.5, displacement: p0 - 0.4, velocity: v0)
        #expect(abs(value.value(at: 0.75) - (0.4 + expected.displacement)) < 1e-15)
        #expect(value.target == 0.4)
    }

    @Test func springAnimation_endsExactlyOnItsTarget_whenSettled() {
        var value = AnimatedValue(0.1)
        value.animate(to: 0.9, with: .spring(.bouncy), at: 2)
        let settle = Spring.bouncy.settlingTime(displacement: -0.8, velocity: 0)
        #expect(value.isAnimating(at: 2 + settle * 0.999))
        #expect(!value.isAnimating(at: 2 + settle + 1e-9))
        #expect(value.value(at: 2 + settle + 1e-9) == 0.9)
        #expect(abs(value.value(at: 2 + settle * 0.999) - 0.9) < Spring.settleEpsilon)
        var settled = value
        settled.settle(at: 2 + settle + 1e-9)
        #expect(settled.runningAnimationCount == 0)
        #expect(settled.value(at: 100) == 0.9)
    }

    @Test func manyMixedPushes_keepMemoryBounded_andSettleChangesNoValue() {
        var value = AnimatedValue(0)
        for push in 0..<600 {
            let animation = Self.animations[push % Self.animations.count]
            let time = Double(push) * 0.05
            value.animate(to: Double(push % 5) / 4, with: animation, at: time)
            // A spring folds everything into itself; curves pile up only for their duration (≤ 1 s here).
            #expect(value.runningAnimationCount <= 22)
            var settled = value
            settled.settle(at: time + 0.02)
            #expect(settled.value(at: time + 0.03) == value.value(at: time + 0.03))
        }
    }

    @Test func animatedColor_springsEveryComponent() {
        var color = AnimatedColor(Palette.lightRed)
        color.animate(to: Palette.lightBlue, with: .spring(.bouncy), at: 0)
        #expect(color.isAnimating(at: 0.5))
        #expect(!color.isAnimating(at: 2))
        #expect(color.value(at: 2) == Palette.lightBlue)
    }
}
