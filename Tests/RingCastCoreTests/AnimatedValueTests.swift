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

    @Test func retarget_blendsFromTheOldAnimationsOutputLikeSwiftUI() {
        var old = AnimatedValue(0)
        old.animate(to: 1, with: .default, at: 0)
        var value = old
        value.animate(to: 0.2, with: .timing(.easeOut, duration: 0.5), at: 0.4)
        for time in [0.45, 0.6, 0.85, 0.9, 1.0, 1.2] {
            let pOld = old.value(at: time)
            // P(t) = P_old(t) + f_new(t − t₀)·(target − P_old(t)) (DESIGN §4).
            let expected = time >= 0.9 ? 0.2 : pOld + TimingCurve.easeOut.progress(at: (time - 0.4) / 0.5) * (0.2 - pOld)
            #expect(abs(value.value(at: time) - expected) < 1e-15)
        }
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
}
