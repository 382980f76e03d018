/// How fast a ring moves and when it will be done, from its history (issue 33's `rate` and `eta` label formats): a
/// pure function of the points and the tick, so every node shows the same text.
///
/// The estimator is tqdm's: the changes of value and the time between points are each smoothed exponentially
/// (factor `smoothing`, 0.3, with tqdm's correction of the bias towards the start), and the rate is their ratio. Now
/// counts as a last sample with no change, so a ring that stopped moving slows its rate and lengthens its time to
/// done as it waits, rather than promising what its last push did.
public struct ProgressRate: Sendable, Equatable {
    /// Units (of progress, or of the ring's value) a second; negative while it goes back.
    public var perSecond: Double
    /// Seconds until `target` at that rate; nil when it does not move towards it.
    public var secondsLeft: Double?

    /// tqdm's `smoothing`.
    public static let smoothing = 0.3
    /// The newest points up to now the estimate reads.
    public static let window = 20

    /// The rate at tick `now` of a ring whose history is `points` (in tick order) on a grid of `fps`, heading for
    /// `target`; nil with fewer than two points, or none before `now`.
    public static func estimate(
        _ points: some BidirectionalCollection<HistoryPoint>, now: Int64, fps: Int, target: Double
    ) -> ProgressRate? {
        let recent = Array(points.prefix { $0.tick <= now }.suffix(window))
        guard recent.count >= 2, fps > 0 else { return nil }
        var change = Smoothed()
        var time = Smoothed()
        for (earlier, later) in zip(recent, recent.dropFirst()) {
            change.add(later.value - earlier.value)
            time.add(Double(later.tick - earlier.tick) / Double(fps))
        }
        let newest = recent[recent.count - 1]
        if now > newest.tick {
            change.add(0)
            time.add(Double(now - newest.tick) / Double(fps))
        }
        guard time.value > 0 else { return nil }
        let perSecond = change.value / time.value
        let remaining = target - newest.value
        let secondsLeft: Double?
        if remaining <= 0 {
            secondsLeft = 0
        } else if perSecond > 0 {
            secondsLeft = remaining / perSecond
        } else {
            secondsLeft = nil
        }
        return ProgressRate(perSecond: perSecond, secondsLeft: secondsLeft)
    }

    /// tqdm's `EMA`.
    private struct Smoothed {
        var last = 0.0
        /// (1 − smoothing) to the power of the samples taken.
        var decay = 1.0

        mutating func add(_ sample: Double) {
            last = ProgressRate.smoothing * sample + (1 - ProgressRate.smoothing) * last
            decay *= 1 - ProgressRate.smoothing
        }

        var value: Double { decay == 1 ? last : last / (1 - decay) }
    }
}
