import Foundation
import RingCastCore
import Testing

@Suite struct SpringTests {
    static let pi = Double.pi

    /// Spring, and by hand: stiffness k = (2π/response)², damping c = 4π·ζ/response, ζ.
    @Test(arguments: [
        // .spring(): response 0.5, ζ 0.825 → k = (4π)² = 16π² ≈ 157.914, c = 4π·0.825/0.5 = 6.6π ≈ 20.735.
        (Spring(), 16 * pi * pi, 6.6 * pi, 0.825),
        // .smooth: duration 0.5, bounce 0 → ζ = 1 − 0 = 1; k = 16π², c = 4π/0.5 = 8π ≈ 25.133.
        (Spring.smooth, 16 * pi * pi, 8 * pi, 1.0),
        // .snappy: bounce 0.15 → ζ = 0.85; c = 8π·0.85 = 6.8π ≈ 21.363.
        (Spring.snappy, 16 * pi * pi, 6.8 * pi, 0.85),
        // .bouncy: bounce 0.3 → ζ = 0.7; c = 8π·0.7 = 5.6π ≈ 17.593.
        (Spring.bouncy, 16 * pi * pi, 5.6 * pi, 0.7),
        // duration 1, bounce −0.5 → ζ = 1/(1 − 0.5) = 2 (overdamped); k = (2π)² = 4π² ≈ 39.478, c = 4π·2 = 8π.
        (Spring(duration: 1, bounce: -0.5), 4 * pi * pi, 8 * pi, 2.0),
        // duration 2, bounce 0.5 → ζ = 0.5; k = π² ≈ 9.870, c = 4π·0.5/2 = π.
        (Spring(duration: 2, bounce: 0.5), pi * pi, pi, 0.5),
        // duration 0.25, bounce −0.2 → ζ = 1/0.8 = 1.25; k = (8π)² = 64π², c = 4π·1.25/0.25 = 20π.
        (Spring(duration: 0.25, bounce: -0.2), 64 * pi * pi, 20 * pi, 1.25),
    ])
    func conversions_matchApplesFormulas(spring: Spring, stiffness: Double, damping: Double, dampingFraction: Double) {
        #expect(abs(spring.dampingFraction - dampingFraction) < 1e-15)
        #expect(abs(spring.stiffness - stiffness) < 1e-9)
        #expect(abs(spring.damping - damping) < 1e-12)
        // And back: response = 2π/√k, ζ = c/(2√k).
        let back = Spring(stiffness: spring.stiffness, damping: spring.damping)
        #expect(abs(back.response - spring.response) < 1e-15)
        #expect(abs(back.dampingFraction - spring.dampingFraction) < 1e-14)
    }

    @Test(arguments: [0.0, 0.15, 0.3, 0.99, -0.2, -0.5, -0.9])
    func bounce_roundTripsThroughTheDampingFraction(bounce: Double) {
        let spring = Spring(duration: 0.7, bounce: bounce)
        #expect(spring.response == 0.7 && spring.duration == 0.7)
        #expect(abs(spring.bounce - bounce) < 1e-15)
    }

    @Test func defaults_areSwiftUIs() {
        #expect(Spring() == Spring(response: 0.5, dampingFraction: 0.825))
        #expect(Spring.smooth == Spring(response: 0.5, dampingFraction: 1))
        #expect(Spring.smooth.response == 0.5 && Spring.bouncy.response == 0.5 && Spring.snappy.response == 0.5)
    }

    // MARK: Closed forms

    /// (spring, x0, v0): under-, critically and over-damped, from rest and with a push either way.
    static let motions: [(Spring, Double, Double)] = [
        (Spring(response: 0.5, dampingFraction: 0.3), -1, 0),
        (Spring.bouncy, 0.8, -3),
        (Spring(), -1, 6),
        (Spring.smooth, -1, 0),
        (Spring.smooth, 0.5, 4),
        (Spring(response: 1, dampingFraction: 1), 0, -2),
        (Spring(duration: 1, bounce: -0.5), -1, 0),
        (Spring(response: 0.3, dampingFraction: 4), 2, 10),
        (Spring(response: 0.5, dampingFraction: 1.0001), -1, 1),
        (Spring(response: 0.5, dampingFraction: 0.9999), -1, 1),
    ]

    @Test(arguments: motions)
    func closedForm_startsAtItsInitialState_andSolvesTheODE(spring: Spring, x0: Double, v0: Double) {
        let start = spring.state(after: 0, displacement: x0, velocity: v0)
        #expect(abs(start.displacement - x0) < 1e-15)
        #expect(abs(start.velocity - v0) < 1e-12)
        let (k, c) = (spring.stiffness, spring.damping)
        let h = 1e-5
        let scale = max(abs(x0) * k, abs(v0) * c, 1)
        for step in 1...40 {
            let t = Double(step) * 0.025
            let now = spring.state(after: t, displacement: x0, velocity: v0)
            let before = spring.state(after: t - h, displacement: x0, velocity: v0)
            let after = spring.state(after: t + h, displacement: x0, velocity: v0)
            // v is x′, by a central difference …
            let slope = (after.displacement - before.displacement) / (2 * h)
            #expect(abs(slope - now.velocity) < 1e-6 * scale, "x′ at \(t)")
            // … and x″ + c·x′ + k·x = 0.
            let acceleration = (after.velocity - before.velocity) / (2 * h)
            let residual = acceleration + c * now.velocity + k * now.displacement
            #expect(abs(residual) < 1e-5 * scale, "ODE residual at \(t): \(residual)")
        }
    }

    @Test func bouncy_overshoots_andSmoothDoesNot() {
        func peak(_ spring: Spring) -> Double {
            var value = AnimatedValue(0)
            value.animate(to: 1, with: .spring(spring), at: 0)
            return (0...180).map { value.value(at: Double($0) / 60) }.max() ?? 0
        }
        // The first overshoot of a spring from rest is e^(−ζπ/√(1−ζ²)): 0.046 for ζ = 0.7.
        #expect(abs(peak(.bouncy) - 1.046) < 0.001)
        #expect(peak(.smooth) <= 1)
        #expect(peak(.snappy) > 1)
    }

    // MARK: Settling

    /// From displacement 1 at rest, hand-computed instants at which √(x² + (v/ω₀)²) falls below 1e-4:
    /// .spring() 0.924 s, .snappy 0.864 s, .bouncy 1.022 s, .smooth 0.962 s, duration 1 bounce −0.5: 5.536 s.
    @Test(arguments: [
        (Spring(), 0.9243), (Spring.snappy, 0.8638), (Spring.bouncy, 1.0224), (Spring.smooth, 0.9621),
        (Spring(duration: 1, bounce: -0.5), 5.5356),
    ])
    func settlingTime_isTheFirstInstantTheAmplitudeIsBelowEpsilon(spring: Spring, expected: Double) {
        let settle = spring.settlingTime(displacement: 1, velocity: 0)
        #expect(abs(settle - expected) < 1e-4)
        let epsilon = Spring.settleEpsilon
        let at = spring.state(after: settle, displacement: 1, velocity: 0)
        #expect(abs(at.displacement) < epsilon && abs(at.velocity) < epsilon * spring.angularFrequency)
        let justBefore = spring.state(after: settle - 1e-9, displacement: 1, velocity: 0)
        #expect(spring.amplitude(displacement: justBefore.displacement, velocity: justBefore.velocity) >= epsilon * 0.999_999)
        // Once settled it stays settled.
        for step in 0...200 {
            let later = spring.state(after: settle + Double(step) * 0.01, displacement: 1, velocity: 0)
            #expect(spring.amplitude(displacement: later.displacement, velocity: later.velocity) < epsilon)
        }
    }

    /// ζ < 1 from x0 = 1 at rest: x = e^(−at)(cos ω_d t + B sin ω_d t) and v/ω₀ = −e^(−at)·D·sin ω_d t, with
    /// B = ζω₀/ω_d, D = ω₀/ω_d. So amplitude² = e^(−2at)·q(θ) for a quadratic form q with eigenvalues λ± of
    /// [[1, B], [B, B² + D²]], and e^(−at)√λ₋ ≤ amplitude ≤ e^(−at)√λ₊: the settle time lies between
    /// ln(√λ₋/ε)/a and ln(√λ₊/ε)/a.
    @Test(arguments: [Spring(), .snappy, .bouncy, Spring(response: 0.8, dampingFraction: 0.2)])
    func underdampedSettlingTime_liesInsideTheAnalyticEnvelope(spring: Spring) {
        let omega = spring.angularFrequency
        let zeta = spring.dampingFraction
        let a = zeta * omega
        let damped = omega * (1 - zeta * zeta).squareRoot()
        let b = zeta * omega / damped
        let d = omega / damped
        let trace = 1 + b * b + d * d
        let determinant = d * d
        let spread = (trace * trace - 4 * determinant).squareRoot()
        let (low, high) = ((trace - spread) / 2, (trace + spread) / 2)
        let epsilon = Spring.settleEpsilon
        let earliest = log(low.squareRoot() / epsilon) / a
        let latest = log(high.squareRoot() / epsilon) / a
        let settle = spring.settlingTime(displacement: 1, velocity: 0)
        #expect(settle >= earliest && settle <= latest, "\(earliest) ≤ \(settle) ≤ \(latest)")
        // |x| ≤ e^(−ζω₀t)·√(1 + B²) everywhere (the textbook envelope).
        for step in 0...120 {
            let t = Double(step) / 60
            let x = spring.state(after: t, displacement: 1, velocity: 0).displacement
            #expect(abs(x) <= exp(-a * t) * (1 + b * b).squareRoot() + 1e-15)
        }
    }

    /// ζ = 1 from x0 = 1 at rest: amplitude = e^(−u)·√((1 + u)² + u²) with u = ω₀t, exactly. ζ > 1: the slow
    /// mode c₁e^(r₁t) dominates, so the settle time is within a hair of ln(|c₁|·√(1 + (r₁/ω₀)²)/ε)/(−r₁).
    @Test func criticalAndOverdampedSettlingTimes_matchTheirClosedForms() {
        let smooth = Spring.smooth
        let u = smooth.settlingTime(displacement: 1, velocity: 0) * smooth.angularFrequency
        #expect(abs(exp(-u) * ((1 + u) * (1 + u) + u * u).squareRoot() - Spring.settleEpsilon) < 1e-12)

        let over = Spring(duration: 1, bounce: -0.5)
        let omega = over.angularFrequency
        let root = (over.dampingFraction * over.dampingFraction - 1).squareRoot()
        let slow = -omega * (over.dampingFraction - root)
        let fast = -omega * (over.dampingFraction + root)
        let c1 = -fast / (slow - fast)
        let predicted = log(abs(c1) * (1 + (slow / omega) * (slow / omega)).squareRoot() / Spring.settleEpsilon) / -slow
        #expect(abs(over.settlingTime(displacement: 1, velocity: 0) - predicted) < 1e-6)
    }

    @Test func aSpringStartingSettled_finishesAtOnce() {
        #expect(Spring.bouncy.settlingTime(displacement: 5e-5, velocity: 0) == 0)
        var value = AnimatedValue(0.5)
        value.animate(to: 0.50005, with: .spring(.bouncy), at: 3)
        #expect(!value.isAnimating(at: 3))
        #expect(value.value(at: 3) == 0.50005)
    }
}
