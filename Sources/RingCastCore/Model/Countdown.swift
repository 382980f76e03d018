/// A running countdown (seed 004's `CircleProgressView`): the ring's stroke goes 0 → 1 linearly over `seconds`
/// from `start`, and the label shows the whole seconds left.
public struct Countdown: Sendable, Hashable {
    /// N, the length of the countdown.
    public var seconds: Double
    /// When it started, in the board's monotonic seconds.
    public var start: Double

    public init(seconds: Double, start: Double) {
        self.seconds = seconds
        self.start = start
    }

    /// When it reaches 1.
    public var end: Double { start + seconds }

    /// Whether it still moves at `time`; from `end` on it rests at p = 1, `0s`.
    public func isRunning(at time: Double) -> Bool {
        time < end
    }

    /// p = clamp((t − start) / N, 0, 1): seed 004's `strokeEnd` from 0 to 1 over the duration, linearly
    /// (CABasicAnimation with no timing function), exactly 1 from `end` on.
    public func progress(at time: Double) -> Double {
        guard isRunning(at: time) else { return 1 }
        return min(max((time - start) / seconds, 0), 1)
    }

    /// Seconds left: N − elapsed, between N (before the start) and 0 (from `end` on).
    public func remaining(at time: Double) -> Double {
        guard isRunning(at: time) else { return 0 }
        return min(max(seconds - (time - start), 0), seconds)
    }

    /// Whole seconds left, rounded up, with seed 004's `"\(duration)s"` suffix: for N = 10, `10s` at the start,
    /// `9s` once a second has passed, `1s` in the last second and `0s` at and after the end.
    public func label(at time: Double) -> String {
        let whole = remaining(at: time).rounded(.up)
        guard whole.isFinite, whole < 1e15 else { return "—" }
        return "\(Int64(whole))s"
    }
}
