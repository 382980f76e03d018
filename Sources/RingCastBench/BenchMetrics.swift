/// A few counters from the server's `GET /metrics` (Prometheus text), for before/after deltas.
struct BenchMetrics: Sendable {
    var framesSkipped: Double?
    var viewersEvicted: Double?
    /// `ringcast_frames_total{board="B"}`: frames the server composed for the board.
    var framesPublished: Double?
    /// `ringcast_tick_lateness_seconds`, a histogram of how late each tick ran: its cumulative
    /// buckets by upper bound (seconds) and its count. Empty and nil when the server does not export it.
    var tickLatenessBuckets: [Double: Double] = [:]
    var ticks: Double?

    private static let tickLateness = "ringcast_tick_lateness_seconds"

    init(prometheusText text: String, board: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            let name = line[..<space]
            switch name {
            case "ringcast_frames_skipped_total": framesSkipped = value
            case "ringcast_viewers_evicted_total": viewersEvicted = value
            case "ringcast_frames_total{board=\"\(board)\"}": framesPublished = value
            case "\(Self.tickLateness)_count": ticks = value
            default:
                if name.hasPrefix("\(Self.tickLateness)_bucket{"), let bound = Self.upperBound(in: name) {
                    tickLatenessBuckets[bound] = value
                }
            }
        }
    }

    /// `after − before` for each counter both scrapes had.
    static func delta(_ before: BenchMetrics, _ after: BenchMetrics) -> BenchResult.MetricsDelta {
        func difference(_ key: KeyPath<BenchMetrics, Double?>) -> Int? {
            guard let old = before[keyPath: key], let new = after[keyPath: key] else { return nil }
            return Int(new - old)
        }
        return BenchResult.MetricsDelta(
            framesSkipped: difference(\.framesSkipped),
            viewersEvicted: difference(\.viewersEvicted),
            framesPublished: difference(\.framesPublished)
        )
    }

    /// Ticks that ran more than `threshold` seconds late between the two scrapes: the histogram's
    /// count minus its cumulative bucket at the smallest bound of at least `threshold`. Nil when
    /// either scrape lacks the histogram (the report then says the server does not export it).
    static func lateTicks(_ before: BenchMetrics, _ after: BenchMetrics, threshold: Double) -> BenchLateTicks? {
        guard let bound = after.tickLatenessBuckets.keys.filter({ $0 >= threshold - 1e-9 }).min(),
            let ticksBefore = before.ticks, let ticksAfter = after.ticks,
            let onTimeBefore = before.tickLatenessBuckets[bound], let onTimeAfter = after.tickLatenessBuckets[bound]
        else { return nil }
        let ticks = Int(ticksAfter - ticksBefore)
        return BenchLateTicks(
            thresholdMilliseconds: BenchRun.round(bound * 1000, 3),
            late: ticks - Int(onTimeAfter - onTimeBefore),
            ticks: ticks
        )
    }

    /// The `le` label of a bucket line, `+Inf` included.
    private static func upperBound(in name: Substring) -> Double? {
        guard let start = name.range(of: "le=\"") else { return nil }
        let rest = name[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let label = rest[..<end]
        return label == "+Inf" ? .infinity : Double(label)
    }
}
