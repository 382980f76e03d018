/// The text a stale ring or widget shows under its label (DESIGN §13, "stale data"): how long ago its last write
/// arrived, in whole units, so that it changes at most once a minute and every process computes the same words
/// from the same ticks.
///
/// - under a minute: `updated under 1 min ago`
/// - 1 to 119 minutes: `updated 12 min ago`
/// - 2 to 47 hours: `updated 5 h ago`
/// - 2 days and more: `updated 3 d ago`
///
/// Each count is truncated (59 s is under a minute, 61 min is `61 min`), so the text changes exactly when the time
/// since the write crosses a whole minute (an hour past two hours, a day past two days).
public enum StaleLabel {
    /// The text after `elapsed` ticks of `fps` since the last write (0 or more).
    public static func string(elapsed: Int64, fps: Int) -> String {
        let (count, unit) = shown(elapsed: elapsed, fps: fps)
        return count == 0 ? "updated under 1 min ago" : "updated \(count) \(unit.name) ago"
    }

    /// The number of ticks since the write at which the text next changes, after `elapsed` ticks: the next
    /// whole minute below two hours, the next whole hour below two days, then the next whole day.
    public static func nextChange(after elapsed: Int64, fps: Int) -> Int64 {
        let (count, unit) = shown(elapsed: elapsed, fps: fps)
        return (count + 1) * unit.seconds * Int64(fps)
    }

    /// A unit the text counts in: its name, its length in seconds, and from how many of it on it is used.
    private struct Unit {
        var name: String
        var seconds: Int64
        var from: Int64
    }

    /// Largest first; minutes are used below the others.
    private static let units = [
        Unit(name: "d", seconds: 86_400, from: 2), Unit(name: "h", seconds: 3_600, from: 2),
        Unit(name: "min", seconds: 60, from: 0),
    ]

    /// The count and the unit shown after `elapsed` ticks: the largest unit of which at least its `from` have
    /// passed.
    private static func shown(elapsed: Int64, fps: Int) -> (count: Int64, unit: Unit) {
        let seconds = max(elapsed, 0) / Int64(max(fps, 1))
        let unit = units.first { seconds / $0.seconds >= $0.from } ?? units[units.count - 1]
        return (seconds / unit.seconds, unit)
    }
}
