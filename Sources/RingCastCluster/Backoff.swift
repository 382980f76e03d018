/// Capped exponential delays between reconnect attempts, with jitter so that many nodes that lost
/// Redis together do not come back in lockstep.
///
/// Attempt n (from 0) waits `min(initial × multiplier^n, maximum)`, of which a random fraction of
/// at most `jitter` is taken off (0.05 s, 0.1 s, 0.2 s … 2 s with the defaults, each up to 20 %
/// shorter). `reset()` after a success starts again at `initial`. The randomness comes from a
/// seeded generator (SplitMix64), so a test with a fixed seed sees fixed delays.
public struct Backoff: Sendable {
    public let initial: Duration
    public let maximum: Duration
    public let multiplier: Double
    /// 0…1: the largest fraction of a delay that jitter may take off.
    public let jitter: Double
    private var attempt = 0
    private var state: UInt64

    public init(
        initial: Duration = .milliseconds(50),
        maximum: Duration = .seconds(2),
        multiplier: Double = 2,
        jitter: Double = 0.2,
        seed: UInt64 = UInt64.random(in: 0...UInt64.max)
    ) {
        precondition(initial > .zero && maximum >= initial && multiplier >= 1 && (0...1).contains(jitter))
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = jitter
        self.state = seed
    }

    /// How many delays were handed out since the last reset.
    public var attempts: Int { attempt }

    /// The delay before the next attempt.
    public mutating func next() -> Duration {
        let initialSeconds = Self.seconds(initial)
        let maximumSeconds = Self.seconds(maximum)
        var base = initialSeconds
        // Doubling step by step (not pow) and stopping at the cap keeps huge attempt counts finite.
        var step = 0
        while step < attempt, base < maximumSeconds {
            base *= multiplier
            step += 1
        }
        base = min(base, maximumSeconds)
        attempt += 1
        let delay = base * (1 - jitter * nextUnit())
        return .nanoseconds(Int64((delay * 1e9).rounded()))
    }

    /// Back to `initial`, after a successful connection.
    public mutating func reset() {
        attempt = 0
    }

    /// A uniform value in [0, 1) from SplitMix64 (Steele, Lea & Flood, "Fast splittable
    /// pseudorandom number generators", 2014).
    private mutating func nextUnit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
