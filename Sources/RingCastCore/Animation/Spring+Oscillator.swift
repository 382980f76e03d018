import Foundation

extension Spring {
    /// ε of the settle rule, in the animated value's own units: 1e-4 of a turn for progress (0.14 px on a
    /// 220-unit ring, 0.01 % on the label) and 1e-4 per colour component (1/40 of an 8-bit step).
    public static let settleEpsilon = 1e-4

    /// Displacement x from the target and velocity v `elapsed` seconds after the spring started with
    /// displacement `x0` and velocity `v0`: the closed-form solution of x″ + c·x′ + k·x = 0 with
    /// a = ζω₀ (any textbook on the damped harmonic oscillator, e.g. Thornton & Marion §3.5):
    ///
    /// - ζ < 1, ω_d = ω₀√(1 − ζ²): x = e^(−at)·(x0·cos ω_d t + (v0 + a·x0)/ω_d · sin ω_d t);
    /// - ζ = 1: x = e^(−ω₀t)·(x0 + (v0 + ω₀·x0)·t);
    /// - ζ > 1, r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)): x = c₁e^(r₁t) + c₂e^(r₂t), c₁ = (v0 − r₂x0)/(r₁ − r₂), c₂ = x0 − c₁;
    ///
    /// and v = dx/dt of each.
    public func state(
        after elapsed: Double,
        displacement x0: Double,
        velocity v0: Double
    ) -> (displacement: Double, velocity: Double) {
        let t = elapsed
        let omega = angularFrequency
        let zeta = dampingFraction
        if zeta < 1 {
            // Underdamped: x = e^(−at)(x0 cos ω_d t + B sin ω_d t), v = e^(−at)(v0 cos ω_d t − (a·v0 + ω₀²x0)/ω_d sin ω_d t).
            let decay = zeta * omega
            let damped = omega * ((1 - zeta) * (1 + zeta)).squareRoot()
            let envelope = exp(-decay * t)
            let cosine = cos(damped * t)
            let sine = sin(damped * t)
            let b = (v0 + decay * x0) / damped
            return (
                envelope * (x0 * cosine + b * sine),
                envelope * (v0 * cosine - (decay * v0 + omega * omega * x0) / damped * sine)
            )
        }
        if zeta == 1 {
            // Critically damped: x = e^(−ω₀t)(x0 + B·t), v = e^(−ω₀t)(v0 − ω₀·B·t), B = v0 + ω₀x0.
            let envelope = exp(-omega * t)
            let b = v0 + omega * x0
            return (envelope * (x0 + b * t), envelope * (v0 - omega * b * t))
        }
        // Overdamped: r₁ = −ω₀/(ζ + √(ζ² − 1)) is −ω₀(ζ − √(ζ² − 1)) without the cancellation; r₁r₂ = ω₀².
        let root = ((zeta - 1) * (zeta + 1)).squareRoot()
        let slow = -omega / (zeta + root)
        let fast = -omega * (zeta + root)
        let c1 = (v0 - fast * x0) / (slow - fast)
        let c2 = x0 - c1
        let e1 = exp(slow * t)
        let e2 = exp(fast * t)
        return (c1 * e1 + c2 * e2, c1 * slow * e1 + c2 * fast * e2)
    }

    /// √(x² + (v/ω₀)²) = √(2E/k), the oscillator's energy E = v²/2 + k·x²/2 expressed as a displacement.
    /// It never grows, since dE/dt = v·(−c·v − k·x) + k·x·v = −c·v² ≤ 0.
    public func amplitude(displacement x: Double, velocity v: Double) -> Double {
        let scaled = v / angularFrequency
        return (x * x + scaled * scaled).squareRoot()
    }

    /// Seconds after the start until the spring has settled: the first instant at which
    /// `amplitude` < `settleEpsilon`, which makes |x| < ε and |v| < ε·ω₀ both hold, and keep holding, since the
    /// amplitude never grows again. 0 when the spring starts settled. Found by doubling from `response` and
    /// bisection, since the amplitude decreases monotonically.
    public func settlingTime(displacement x0: Double, velocity v0: Double) -> Double {
        func settled(_ elapsed: Double) -> Bool {
            let state = state(after: elapsed, displacement: x0, velocity: v0)
            return amplitude(displacement: state.displacement, velocity: state.velocity) < Self.settleEpsilon
        }
        guard !settled(0) else { return 0 }
        var low = 0.0
        var high = response
        var doublings = 0
        while !settled(high) {
            low = high
            high *= 2
            doublings += 1
            // A spring with ζ near 0 rings for ages; 2⁶⁴ responses is "never" for any server.
            if doublings >= 64 || !high.isFinite { return high }
        }
        while true {
            let middle = low + (high - low) / 2
            guard middle > low, middle < high else { return high }
            if settled(middle) { high = middle } else { low = middle }
        }
    }
}
