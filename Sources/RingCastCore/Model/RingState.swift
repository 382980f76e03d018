/// What a board holds of one plain ring or widget beyond its spec: every animated property a push can set, in one place,
/// so that a new animated property is added, stored, settled and dropped with its ring here and nowhere else.
struct RingState: Sendable, Equatable {
    /// The progress, once the ring has received one (nil: no data); a counter's number.
    var progress: AnimatedValue?
    /// The gradient's start and end (a gradient widget's 2 to 8 colours), once a push set them (nil: the spec's
    /// colours).
    var gradient: [AnimatedColor]?
    /// The label colour, once a push set it (seed 003's animated text colour; nil: the spec's or automatic).
    var labelColor: AnimatedColor?
    /// A text widget's wave, running from 0 to 1 (seed 003's `pct`), once a push started one.
    var wave: AnimatedValue?
    /// The status whose colours the last push set `gradient` to (nil: `colors` set them, or none).
    var status: RingStatus?
    /// Thresholds a push set: they colour the ring instead of `gradient` (`Board.thresholds(ofRing:)`).
    var thresholds: Thresholds?
    /// Where the colours of a ring coloured by thresholds (pushed or defined) continue from.
    var trail: ThresholdTrail?

    /// Nothing was pushed (or all of it was cleared): the board need not keep the entry.
    var isEmpty: Bool {
        progress == nil && gradient == nil && labelColor == nil && wave == nil && status == nil && thresholds == nil
            && trail == nil
    }

    func isAnimating(at time: Double) -> Bool {
        progress?.isAnimating(at: time) == true
            || gradient?.contains { $0.isAnimating(at: time) } == true
            || labelColor?.isAnimating(at: time) == true
            || wave?.isAnimating(at: time) == true
    }

    /// How many animations its values hold (`AnimatedValue.runningAnimationCount`).
    var heldAnimations: Int {
        (progress?.runningAnimationCount ?? 0) + (wave?.runningAnimationCount ?? 0)
            + (gradient ?? []).reduce(0) { $0 + $1.runningAnimationCount }
            + (labelColor?.runningAnimationCount ?? 0)
    }

    /// Keeps the motion of the values a push moves most at `time` (`AnimatedValue.prime(at:)`).
    mutating func prime(at time: Double) {
        progress?.prime(at: time)
        wave?.prime(at: time)
    }

    /// Drops the animations that have finished by `time` (frames before it are never composed again); the
    /// progress's only by `valuesTime`, when a threshold follower may still read it back to then. A trail's colours
    /// are kept as they are: the follower replays them from the trail's start.
    mutating func settle(at time: Double, valuesAt valuesTime: Double) {
        progress?.settle(at: valuesTime)
        if var colors = gradient {
            for index in colors.indices { colors[index].settle(at: time) }
            gradient = colors
        }
        labelColor?.settle(at: time)
        wave?.settle(at: time)
    }
}
