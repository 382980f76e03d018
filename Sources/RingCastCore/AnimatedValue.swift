/// One animatable scalar: the `target` last asked for and the presentation value at any instant.
///
/// Time is monotonic seconds fed in by the caller, so tests move time by hand. The value is a base plus an
/// ordered list of running segments, each blending toward its own target the way SwiftUI combines
/// non-merging animations (DESIGN §4): the newest segment interpolates from the output of all older ones,
/// which keep running toward their old targets, P(t) = P_old(t) + f_new(t − t₀)·(target − P_old(t)).
/// A retarget therefore never makes the value jump.
///
/// A later spring animation becomes another kind of segment; `value(at:)` and `settle(at:)` only ask a
/// segment for its eased fraction and whether it has finished.
public struct AnimatedValue: Sendable, Hashable {
    /// One running timing-curve animation.
    private struct Segment: Sendable, Hashable {
        let start: Double
        let duration: Double
        /// `start + duration`, computed once so "finished" means the same thing everywhere.
        let end: Double
        let curve: TimingCurve
        let target: Double

        /// The blend `value + f·(target − value)`, exactly `target` once the segment has finished.
        func blend(_ value: Double, at time: Double) -> Double {
            guard time < end else { return target }
            let fraction = curve.progress(at: (time - start) / duration)
            // progress(at:) is exactly 1 at the end, but value + 1·(target − value) may miss target by an ulp.
            return fraction >= 1 ? target : value + fraction * (target - value)
        }
    }

    /// The value before every running segment; the target of the last segment that finished.
    private var base: Double
    /// Running segments, oldest first.
    private var segments: [Segment] = []

    /// The value the presentation ends on once every running animation has finished.
    public private(set) var target: Double

    /// A value at rest.
    public init(_ value: Double) {
        base = value
        target = value
    }

    /// Starts animating toward `target` at `time`. `.none` jumps at once and cancels running animations; a
    /// timing curve blends from the current presentation. Asking again for the current target changes nothing,
    /// so a repeated push does not restart its animation.
    public mutating func animate(to target: Double, with animation: Animation, at time: Double) {
        animate(to: target, with: animation, at: time, evenIfUnchanged: false)
    }

    /// `animate(to:with:at:)`, optionally adding a segment even toward the current target: a colour animates
    /// all four components when any one of them changes, as SwiftUI animates a colour's whole vector.
    mutating func animate(to target: Double, with animation: Animation, at time: Double, evenIfUnchanged: Bool) {
        switch animation {
        case .none:
            jump(to: target)
        case .timing(let curve, let duration):
            guard duration.isFinite, duration > 0 else {
                jump(to: target)
                return
            }
            settle(at: time)
            guard target != self.target || evenIfUnchanged else { return }
            segments.append(
                Segment(start: time, duration: duration, end: time + duration, curve: curve, target: target)
            )
            self.target = target
        }
    }

    /// The presentation value at `time`; exactly `target` once every running animation has finished.
    public func value(at time: Double) -> Double {
        // v = base; v = v + f_i(t − start_i)·(target_i − v) for each segment in order (DESIGN §4).
        segments.reduce(base) { value, segment in segment.blend(value, at: time) }
    }

    /// Whether any animation is still running at `time`.
    public func isAnimating(at time: Double) -> Bool {
        segments.contains { time < $0.end }
    }

    /// Drops segments that have finished by `time`: once segment j has finished, everything up to and
    /// including j has collapsed into its target. The value at any later time is unchanged.
    public mutating func settle(at time: Double) {
        guard let last = segments.lastIndex(where: { time >= $0.end }) else { return }
        base = segments[last].target
        segments.removeFirst(last + 1)
    }

    /// How many animations are still held; bounded by the pushes of the last `Animation.maximumDuration` seconds.
    public var runningAnimationCount: Int { segments.count }

    private mutating func jump(to target: Double) {
        base = target
        segments.removeAll()
        self.target = target
    }
}
