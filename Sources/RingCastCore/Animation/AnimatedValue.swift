/// One animatable scalar: the `target` last asked for and the presentation value at any instant.
///
/// Time is monotonic seconds fed in by the caller, so tests move time by hand. The value is a root motion —
/// a value at rest or one running spring — followed by an ordered list of timing-curve segments, each blending
/// toward its own target the way SwiftUI combines non-merging animations (DESIGN §4): the newest segment
/// interpolates from the output of everything before it, which keeps running toward its old target,
/// P(t) = P_old(t) + f_new(t − t₀)·(target − P_old(t)).
///
/// A spring merges instead (SwiftUI's springs retarget): it takes the current value and velocity of
/// everything running and becomes the new root, dropping the segments. Neither kind of retarget makes the
/// value jump; a spring keeps the velocity too.
public struct AnimatedValue: Sendable, Hashable {
    /// One running timing-curve animation, played once or in passes (`repetition`).
    struct Segment: Sendable, Hashable {
        let start: Double
        /// One pass.
        let duration: Double
        /// `start + passes·duration` (+∞ for `forever`), computed once so "finished" means the same thing everywhere.
        let end: Double
        let curve: TimingCurve
        let target: Double
        /// nil: one pass.
        let repetition: Repetition?

        init(start: Double, duration: Double, curve: TimingCurve, target: Double, repetition: Repetition? = nil) {
            self.start = start
            self.duration = duration
            self.curve = curve
            self.target = target
            self.repetition = repetition
            switch repetition?.count {
            case nil: end = start + duration
            case .times(let passes): end = start + Double(passes) * duration
            case .forever: end = .infinity
            }
        }

        /// What a push of this segment's animation asked for.
        var animation: Animation {
            let pass = Animation.timing(curve, duration: duration)
            return repetition.map { .repeating(pass, $0) } ?? pass
        }

        /// The blend `value + f·(target − value)` and its derivative `velocity·(1 − f) + f′·(target − value)`
        /// (the product rule on DESIGN §4's formula); exactly `target` and 0 once the segment has finished.
        /// Repeated, f is the curve at the fraction of the running pass, run backwards on odd passes when
        /// autoreversing: f = curve(1 − u), f′ = −curve′(1 − u)/d.
        func blend(_ motion: Motion, at time: Double) -> Motion {
            guard time < end else { return Motion(value: target, velocity: 0) }
            var fraction = (time - start) / duration
            var direction = 1.0
            if let repetition {
                let pass = Passes.locate(time - start, length: duration)
                if let passes = repetition.passes, pass.index >= Double(passes) {
                    // `end` rounds start + n·d; an instant just before it may land on pass n: the last one is done.
                    fraction = 1
                    direction = repetition.isReversed(pass: passes - 1) ? -1 : 1
                } else {
                    fraction = pass.into / duration
                    direction = pass.index.truncatingRemainder(dividingBy: 2) == 1 && repetition.autoreverses ? -1 : 1
                }
                if direction < 0 { fraction = 1 - fraction }
            }
            let eased = curve.progress(at: fraction)
            // progress(at:) is exactly 1 at the end, but value + 1·(target − value) may miss target by an ulp.
            guard eased < 1 else { return Motion(value: target, velocity: 0) }
            let gap = target - motion.value
            return Motion(
                value: motion.value + eased * gap,
                velocity: motion.velocity * (1 - eased) + direction * curve.slope(at: fraction) / duration * gap
            )
        }
    }

    /// A running spring toward `target`, started at `start` with displacement `x0` and velocity `v0`; repeated,
    /// pass 0 is that spring and every later pass replays it from the pass's start value (`initial`, or `target`
    /// on a reversed pass) with zero velocity.
    struct SpringMotion: Sendable, Hashable {
        let spring: Spring
        let start: Double
        /// When the spring has settled (`Spring.settlingTime`) or, repeated, the last pass has: from then on the
        /// value is exactly `target`. +∞ for `forever`.
        let end: Double
        /// When pass 0 has settled; later passes last `passLength` each.
        let firstEnd: Double
        let passLength: Double
        /// The value it started from, returned as is at `start` (target + (value − target) may differ by an ulp).
        let initial: Double
        let x0: Double
        let v0: Double
        let target: Double
        /// nil: one pass.
        let repetition: Repetition?

        init(spring: Spring, start: Double, from motion: Motion, target: Double, repetition: Repetition? = nil) {
            self.spring = spring
            self.start = start
            initial = motion.value
            x0 = motion.value - target
            v0 = motion.velocity
            self.target = target
            firstEnd = start + spring.settlingTime(displacement: x0, velocity: v0)
            // A pass from rest settles in the same time forwards (displacement x0) and backwards (−x0).
            passLength = repetition == nil ? 0 : spring.settlingTime(displacement: x0, velocity: 0)
            // With nothing to replay (the start value within ε of the target) the passes after the first are empty.
            self.repetition = passLength > 0 ? repetition : nil
            switch self.repetition?.count {
            case nil: end = firstEnd
            case .times(let passes): end = firstEnd + Double(max(passes - 1, 0)) * passLength
            case .forever: end = .infinity
            }
        }

        /// What a push of this spring asked for.
        var animation: Animation {
            repetition.map { .repeating(.spring(spring), $0) } ?? .spring(spring)
        }

        func motion(at time: Double) -> Motion {
            guard time < end else { return Motion(value: target, velocity: 0) }
            guard time > start else { return Motion(value: initial, velocity: v0) }
            guard let repetition, time >= firstEnd else {
                let state = spring.state(after: time - start, displacement: x0, velocity: v0)
                return Motion(value: target + state.displacement, velocity: state.velocity)
            }
            let pass = Passes.locate(time - firstEnd, length: passLength)
            // Passes after the first: k = 1 + ⌊(t − firstEnd)/L⌋.
            if let passes = repetition.passes, pass.index + 1 >= Double(passes) {
                return Motion(value: target, velocity: 0)
            }
            if repetition.autoreverses && pass.index.truncatingRemainder(dividingBy: 2) == 0 {
                // Odd pass k = index + 1: from the target back to the start value.
                let state = spring.state(after: pass.into, displacement: target - initial, velocity: 0)
                return Motion(value: initial + state.displacement, velocity: state.velocity)
            }
            let state = spring.state(after: pass.into, displacement: x0, velocity: 0)
            return Motion(value: target + state.displacement, velocity: state.velocity)
        }
    }

    /// What runs under the segments.
    enum Root: Sendable, Hashable {
        case rest(Double)
        case spring(SpringMotion)

        func motion(at time: Double) -> Motion {
            switch self {
            case .rest(let value): Motion(value: value, velocity: 0)
            case .spring(let spring): spring.motion(at: time)
            }
        }
    }

    /// A value and its rate of change per second.
    struct Motion: Sendable {
        var value: Double
        var velocity: Double
    }

    var root: Root
    /// Running timing-curve segments, oldest first.
    var segments = Segments()

    /// The value the presentation ends on once every running animation has finished.
    public internal(set) var target: Double

    /// The motion at `time` of the root and the segments numbered below `through`, kept by `prime(at:)` so that
    /// reading the value again at that instant blends only the segments appended since: a push's answer and a
    /// frame read a board thousands of segments deep at the instant they were primed for (issue 32). The same
    /// bits as blending them all, since blending is the same fold, step by step; not part of the value (`==`).
    private var folded: Folded?

    private struct Folded: Sendable {
        let time: Double
        let through: Int
        let motion: Motion
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.root == rhs.root && lhs.segments == rhs.segments && lhs.target == rhs.target
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(segments)
        hasher.combine(target)
    }

    /// A value at rest.
    public init(_ value: Double) {
        root = .rest(value)
        target = value
    }

    /// Starts animating toward `target` at `time`. `.none` jumps at once and cancels running animations; a
    /// timing curve blends from the current presentation; a spring continues from the current value and
    /// velocity; a repeating animation plays its passes between the current presentation and `target`, replacing
    /// what runs (the value does not jump). Asking again for the current target changes nothing, so a repeated
    /// push does not restart its animation — unless a repetition still runs and the push brings another
    /// animation: then that animation takes the value to the same target and the repetition ends with it. An
    /// animation whose numbers cannot run (a duration or response that is not positive and finite, ζ ≤ 0, fewer
    /// than one pass) jumps; the API never lets one through.
    public mutating func animate(to target: Double, with animation: Animation, at time: Double) {
        animate(to: target, with: animation, at: time, evenIfUnchanged: false)
    }

    /// `animate(to:with:at:)`, optionally animating even toward the current target: a colour animates all four
    /// components when any one of them changes, as SwiftUI animates a colour's whole vector.
    mutating func animate(to target: Double, with animation: Animation, at time: Double, evenIfUnchanged: Bool) {
        let repetition = animation.repetition
        if let passes = repetition?.passes, passes < 1 {
            jump(to: target)
            return
        }
        switch animation.pass {
        case .none:
            jump(to: target)
        case .timing(let curve, let duration):
            guard duration.isFinite, duration > 0 else {
                jump(to: target)
                return
            }
            settle(at: time)
            guard target != self.target || evenIfUnchanged || endsRepetition(with: animation, at: time) else { return }
            if repetition != nil {
                // Passes run between one fixed start value and the target: the current presentation, at rest below.
                root = .rest(value(at: time))
                segments.removeAll()
                folded = nil
            }
            segments.append(
                Segment(start: time, duration: duration, curve: curve, target: target, repetition: repetition)
            )
            self.target = target
        case .spring(let spring):
            guard spring.response.isFinite, spring.response > 0, spring.dampingFraction.isFinite,
                spring.dampingFraction > 0
            else {
                jump(to: target)
                return
            }
            settle(at: time)
            guard target != self.target || evenIfUnchanged || endsRepetition(with: animation, at: time) else { return }
            // The spring takes over whatever runs, with its value and velocity; older motion is folded into it.
            root = .spring(
                SpringMotion(spring: spring, start: time, from: motion(at: time), target: target, repetition: repetition)
            )
            segments.removeAll()
            folded = nil
            self.target = target
        case .repeating:
            // `pass` never is one; a repetition of a repetition cannot run.
            jump(to: target)
        }
    }

    /// Whether a push of `animation` toward the current target should still animate: a repetition runs at
    /// `time` (one not hidden by a finished segment above it) and the newest animation is not `animation`, so
    /// the push stops the repetition. A push of the same animation again changes nothing, as for any push.
    func endsRepetition(with animation: Animation, at time: Double) -> Bool {
        // Every segment after the newest finished one still runs.
        let finished = segments.lastFinished(at: time)
        var repeating = segments.hasRepetition(after: finished ?? -1)
        var newest = finished == segments.count - 1 ? nil : segments.last?.animation
        if finished == nil, case .spring(let spring) = root, time < spring.end {
            repeating = repeating || spring.repetition != nil
            newest = newest ?? spring.animation
        }
        return repeating && newest != animation
    }

    /// The presentation value at `time`; exactly `target` once every running animation has finished.
    public func value(at time: Double) -> Double {
        motion(at: time).value
    }

    /// The rate of change of `value(at:)` per second at `time` (0 at rest), from the curves' and springs'
    /// derivatives rather than differences of frames.
    public func velocity(at time: Double) -> Double {
        motion(at: time).velocity
    }

    /// Whether the value still changes at `time`: a segment that has finished hides everything before it.
    public func isAnimating(at time: Double) -> Bool {
        // Every segment after the newest finished one still runs; with none finished, every one does.
        if let last = segments.lastFinished(at: time) { return last < segments.count - 1 }
        if case .spring(let spring) = root, time < spring.end { return true }
        return !segments.isEmpty
    }

    /// Drops what has finished by `time`: once segment j has finished, everything up to and including j, the
    /// root included, has collapsed into its target; a settled spring becomes a value at rest. The value at any
    /// later time is unchanged.
    public mutating func settle(at time: Double) {
        if let last = segments.lastFinished(at: time) {
            root = .rest(segments[last].target)
            segments.removeFirst(last + 1)
        }
        if case .spring(let spring) = root, time >= spring.end {
            root = .rest(spring.target)
        }
        // A fold at or after `time` through the dropped segments ended on the last one's target at rest, which is
        // what the root now gives: it still holds unless it was taken earlier or covers fewer segments.
        if let fold = folded, fold.time < time || fold.through < segments.first || segments.isEmpty { folded = nil }
    }

    /// Keeps the motion at `time` of everything held (`folded`), so that reading the value at `time` again costs
    /// only the segments appended after this call. Blends only the segments appended since the last call when it
    /// was for the same instant.
    public mutating func prime(at time: Double) {
        guard !segments.isEmpty else { return }
        folded = Folded(time: time, through: segments.next, motion: motion(at: time))
    }

    /// How many animations are still held; bounded by the timing-curve pushes of the last
    /// `Limits.maximumDuration` seconds plus one spring.
    public var runningAnimationCount: Int {
        if case .spring = root { return segments.count + 1 }
        return segments.count
    }

    /// v = root(t); v = v + f_i(t − start_i)·(target_i − v) for each segment in order (DESIGN §4), with the
    /// velocity carried along.
    private func motion(at time: Double) -> Motion {
        var motion: Motion
        let position: Int
        if let folded, folded.time == time, folded.through >= segments.first {
            motion = folded.motion
            position = folded.through - segments.first
        } else {
            motion = root.motion(at: time)
            position = 0
        }
        segments.forEach(from: position) { motion = $0.blend(motion, at: time) }
        return motion
    }

    private mutating func jump(to target: Double) {
        root = .rest(target)
        segments.removeAll()
        folded = nil
        self.target = target
    }
}
