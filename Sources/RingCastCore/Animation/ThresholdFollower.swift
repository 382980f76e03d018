/// Where a thresholds-coloured ring's colours continue from: the last change that touched the ring's value or
/// colouring (a push, a countdown, a new board structure), and the colours' motion as it stood then. Before
/// `since` the ring's value may have moved otherwise (a push retargets it), so the follower never looks there.
struct ThresholdTrail: Sendable, Hashable {
    /// Board time of the change: the follower's first sample.
    var since: Double
    /// The gradient's start and end as they moved just before `since`: at rest, or in the transitions of
    /// crossings shortly before it (each ends at most `ThresholdFollower.transitionSeconds` after `since`).
    var colors: [AnimatedColor]
}

/// How a ring coloured by thresholds follows its displayed value (docs/ANIMATION.md, "Threshold colours").
///
/// The value is sampled every `step` seconds from the trail's `since` (from board time 0 without a trail). At
/// each sample whose band colours differ from where the colours are heading, a transition to them starts there
/// (`transition`, blending from the colours shown, as any colour push does). The colours at time t are those
/// transitions evaluated at t: a pure function of the board's state and t, so every process, every node and a
/// board restored mid-crossing compose the same bytes, whichever frames each one composed before.
///
/// The work is bounded. A transition has surely finished `settling` samples after it started, so wherever the
/// band colours have held for that many samples the colours are at rest in that band, and following starts
/// there. Looking back from t, the follower stops at the first such place, at the trail's start, or after
/// `reach` samples, where it assumes rest: only a value that crosses thresholds faster than a transition lasts,
/// for longer than `reach` samples, is followed approximately (still the same bytes everywhere).
enum ThresholdFollower {
    /// What a crossing starts: the default colour animation, easeInOut over 1 s.
    static let transition = Animation.default
    static let transitionSeconds = 1.0
    /// The value is sampled 60 times a second, whatever the board's fps.
    static let step = 1.0 / 60
    /// Samples after its start by which a transition has surely finished: 1 s and one more sample.
    static let settling = Int((transitionSeconds / step).rounded(.up)) + 1
    /// The most samples the follower looks back over.
    static let reach = 4 * settling
    /// How far back in board time the follower may read a ring's value: the board keeps finished animations of
    /// its values this long (`Board.settle(at:)`), so that reading them in the past gives what they showed.
    static let memory = Double(reach + settling + 2) * step

    /// The colours' motion once the samples up to `time` (`including` it, or only those before it) are followed.
    /// `value` is the displayed value at a board time; `isMoving` whether it still changes at a board time (once
    /// false, false at every later time).
    static func motion(
        of thresholds: Thresholds,
        trail: ThresholdTrail?,
        through time: Double,
        including: Bool,
        value: (Double) -> Double?,
        isMoving: (Double) -> Bool
    ) -> [AnimatedColor] {
        let origin = trail?.since ?? 0
        func sample(_ index: Int) -> Double { origin + Double(index) * step }
        func band(_ index: Int) -> [RGBAColor] { thresholds.colors(for: value(sample(index))) }
        let first = trail == nil ? Int.min : 0
        var last = lastSample(atMost: time, origin: origin)
        if !including, sample(last) == time { last -= 1 }
        guard last >= first else { return trail?.colors ?? band(0).map(AnimatedColor.init) }
        if isAtRest(last: last, first: first, sample: sample, isMoving: isMoving) {
            return band(last).map(AnimatedColor.init)
        }
        // Looking back: the newest sample from which on the colours are known at rest (its band held for
        // `settling` samples up to it, all at or after the trail's start).
        let lowest = first == Int.min ? last - reach : max(first, last - reach)
        var bands: [[RGBAColor]] = [band(last)]
        var top = last
        var restingFrom: Int?
        var index = last
        while index > lowest {
            index -= 1
            let colors = band(index)
            bands.append(colors)
            if colors != bands[bands.count - 2] { top = index }
            if top - index >= settling {
                restingFrom = top
                break
            }
        }
        bands.reverse()
        // `bands[k]` is the band of sample `index + k`.
        let start = restingFrom ?? index
        var current: [AnimatedColor]
        if restingFrom == nil, index == first, let trail {
            current = trail.colors
            follow(bands[0], into: &current, at: sample(index))
        } else {
            current = bands[start - index].map(AnimatedColor.init)
        }
        var next = start + 1
        while next <= last {
            follow(bands[next - index], into: &current, at: sample(next))
            next += 1
        }
        return current
    }

    /// Whether the colours rest at `time` in the band of the value there: nothing has moved them for `settling`
    /// samples. The board animates while they do not.
    static func isAtRest(trail: ThresholdTrail?, at time: Double, isMoving: (Double) -> Bool) -> Bool {
        let origin = trail?.since ?? 0
        return isAtRest(
            last: lastSample(atMost: time, origin: origin), first: trail == nil ? Int.min : 0,
            sample: { origin + Double($0) * step }, isMoving: isMoving)
    }

    private static func isAtRest(last: Int, first: Int, sample: (Int) -> Double, isMoving: (Double) -> Bool) -> Bool {
        // The value has not moved since `settling` samples ago, so no band was entered since then, and the
        // trail's own transitions (which end within a second of its start) have finished.
        last - settling >= first && !isMoving(sample(last - settling))
    }

    /// Starts a transition toward `band` at `time` where the colours head elsewhere.
    private static func follow(_ band: [RGBAColor], into colors: inout [AnimatedColor], at time: Double) {
        for position in colors.indices where position < band.count {
            colors[position].animate(to: band[position], with: transition, at: time)
        }
    }

    /// The index of the last sample `origin + k·step` at or before `time`.
    private static func lastSample(atMost time: Double, origin: Double) -> Int {
        let estimate = ((time - origin) / step).rounded(.down)
        // Board times stay far below the range where this could overflow; clamp anyway.
        var index = Int(max(min(estimate, 1e15), -1e15))
        while origin + Double(index + 1) * step <= time { index += 1 }
        while origin + Double(index) * step > time { index -= 1 }
        return index
    }
}
