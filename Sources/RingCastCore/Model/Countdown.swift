/// A running countdown (seed 004's `CircleProgressView`): the ring's stroke goes 0 → 1 linearly over `seconds`
/// from `start`, and the label shows the whole seconds left.
///
/// What a ring shows of it also depends on the ring's `CountdownOptions`: the label may show tenths, and at 0
/// the ring rests full (`rest`), shows no data (`cancel`) or starts again (`restart`: cycle k runs from
/// start + k·N, forever). Every value is a pure function of the time, so the same countdown gives the same
/// frames and the same end events in every process.
public struct Countdown: Sendable, Hashable {
    /// N, the length of the countdown.
    public var seconds: Double
    /// When it started, in the board's monotonic seconds.
    public var start: Double
    /// Seed 004's `setProgress(_:duration:animated:)`: true, the stroke fills continuously; false, it jumps once
    /// per whole second, showing the whole seconds left as the label does (`1 − ⌈remaining⌉ / N`).
    public var animated: Bool

    public init(seconds: Double, start: Double, animated: Bool = true) {
        self.seconds = seconds
        self.start = start
        self.animated = animated
    }

    /// When it first reaches 0 (p = 1).
    public var end: Double { start + seconds }

    /// Whether it still moves at `time`; from `end` on it rests at p = 1, `0s`.
    public func isRunning(at time: Double) -> Bool {
        time < end
    }

    /// Whether a ring that does `then` at 0 still moves at `time`: until `end`, and forever when it restarts.
    public func isRunning(at time: Double, then: CountdownOptions.Then) -> Bool {
        then == .restart || isRunning(at: time)
    }

    /// How many times it has reached 0 by `time` for a ring that does `then` at 0: 0 before `end`; from `end` on
    /// 1, or for `restart` ⌊(t − start) / N⌋ (at least 1). An end event is due at every tick where this grows.
    public func completions(at time: Double, then: CountdownOptions.Then) -> Int64 {
        guard !isRunning(at: time) else { return 0 }
        guard then == .restart else { return 1 }
        let cycles = ((time - start) / seconds).rounded(.down)
        guard cycles.isFinite, cycles < 1e15 else { return Int64(1e15) }
        return max(1, Int64(cycles))
    }

    /// When the cycle running at `time` started: `start`, or for `restart` start + k·N once k cycles ended.
    private func cycleStart(at time: Double, then: CountdownOptions.Then) -> Double {
        guard then == .restart else { return start }
        return start + Double(completions(at: time, then: then)) * seconds
    }

    /// p = clamp((t − start) / N, 0, 1): seed 004's `strokeEnd` from 0 to 1 over the duration, linearly
    /// (CABasicAnimation with no timing function), exactly 1 from `end` on.
    public func progress(at time: Double) -> Double {
        progress(at: time, then: .rest) ?? 1
    }

    /// The progress a ring that does `then` at 0 shows at `time`; nil (no data) for `cancel` from `end` on.
    /// Not `animated`: 1 − ⌈remaining⌉ / N, clamped to 0…1, so the stroke steps when the whole seconds do.
    public func progress(at time: Double, then: CountdownOptions.Then) -> Double? {
        if then == .cancel, !isRunning(at: time) { return nil }
        let remaining = remaining(at: time, then: then)
        guard animated else {
            return min(max(1 - remaining.rounded(.up) / seconds, 0), 1)
        }
        guard then == .restart || isRunning(at: time) else { return 1 }
        return min(max((time - cycleStart(at: time, then: then)) / seconds, 0), 1)
    }

    /// Seconds left: N − elapsed, between N (before the start) and 0 (from `end` on).
    public func remaining(at time: Double) -> Double {
        remaining(at: time, then: .rest)
    }

    /// Seconds left of the cycle running at `time` (`restart`), else as `remaining(at:)`.
    public func remaining(at time: Double, then: CountdownOptions.Then) -> Double {
        guard then == .restart || isRunning(at: time) else { return 0 }
        return min(max(seconds - (time - cycleStart(at: time, then: then)), 0), seconds)
    }

    /// Whole seconds left, rounded up, with seed 004's `"\(duration)s"` suffix: for N = 10, `10s` at the start,
    /// `9s` once a second has passed, `1s` in the last second and `0s` at and after the end.
    public func label(at time: Double) -> String {
        label(at: time, options: .standard)
    }

    /// The label of a ring with `options` at `time`: whole seconds left (`9s`) or, with `tenths`, tenths of
    /// seconds left rounded up to the next tenth (`9.5s`; 9.95 s left shows `10.0s`, 0.01 s shows `0.1s`,
    /// 0 shows `0.0s`); `—` for a cancelled (`then: cancel`) ring from the end on.
    public func label(at time: Double, options: CountdownOptions) -> String {
        if options.then == .cancel, !isRunning(at: time) { return PercentLabel.string(for: nil) }
        let remaining = remaining(at: time, then: options.then)
        guard options.tenths else {
            let whole = remaining.rounded(.up)
            guard whole.isFinite, whole < 1e15 else { return "—" }
            return "\(Int64(whole))s"
        }
        // A billionth of a tenth below the next one counts as that one: 10 − 0.1 is 9.9 in decimal but
        // 9.900000000000000355 in binary, which must show 9.9s, not 10.0s.
        let tenths = (remaining * 10 - 1e-9).rounded(.up)
        guard tenths.isFinite, tenths < 1e15 else { return "—" }
        let count = max(Int64(tenths), 0)
        return "\(count / 10).\(count % 10)s"
    }
}
