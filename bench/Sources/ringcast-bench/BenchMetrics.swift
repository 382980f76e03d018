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
    /// The `node` label of `ringcast_cluster_node_info`: the node's name in cluster mode.
    var clusterNode: String?
    /// Cluster mode: updates that arrived for a tick already sent, catch-ups from Redis, and
    /// states whose digest differed from the published one.
    var lateUpdates: Double?
    var catchUps: Double?
    var digestMismatches: Double?

    private static let tickLateness = "ringcast_tick_lateness_seconds"
    private static let clusterNodeInfo = "ringcast_cluster_node_info{"

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
            case "ringcast_cluster_late_updates_total": lateUpdates = value
            case "ringcast_cluster_catchups_total": catchUps = value
            case "ringcast_cluster_digest_mismatches_total": digestMismatches = value
            default:
                if name.hasPrefix("\(Self.tickLateness)_bucket{"), let bound = Self.upperBound(in: name) {
                    tickLatenessBuckets[bound] = value
                } else if name.hasPrefix(Self.clusterNodeInfo) {
                    clusterNode = Self.label("node", in: name)
                }
            }
        }
    }

    /// Several nodes' scrapes as one: each counter and bucket summed over the nodes that have it
    /// (frames, ticks and skips of every node together); nil when there is none.
    static func summed(_ parts: [BenchMetrics]) -> BenchMetrics? {
        guard var total = parts.first else { return nil }
        total.clusterNode = nil
        for part in parts.dropFirst() {
            func add(_ key: WritableKeyPath<BenchMetrics, Double?>) {
                total[keyPath: key] = total[keyPath: key].flatMap { sum in part[keyPath: key].map { sum + $0 } }
            }
            add(\.framesSkipped)
            add(\.viewersEvicted)
            add(\.framesPublished)
            add(\.ticks)
            total.tickLatenessBuckets = total.tickLatenessBuckets.filter { part.tickLatenessBuckets[$0.key] != nil }
                .reduce(into: [:]) { $0[$1.key] = $1.value + part.tickLatenessBuckets[$1.key]! }
        }
        return total
    }

    /// `after − before` for each counter both scrapes had.
    static func delta(_ before: BenchMetrics, _ after: BenchMetrics) -> BenchResult.MetricsDelta {
        BenchResult.MetricsDelta(
            framesSkipped: difference(before, after, \.framesSkipped),
            viewersEvicted: difference(before, after, \.viewersEvicted),
            framesPublished: difference(before, after, \.framesPublished)
        )
    }

    /// `after − before` for one counter; nil when either scrape lacks it.
    static func difference(_ before: BenchMetrics, _ after: BenchMetrics, _ key: KeyPath<BenchMetrics, Double?>) -> Int? {
        guard let old = before[keyPath: key], let new = after[keyPath: key] else { return nil }
        return Int(new - old)
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
        guard let label = label("le", in: name) else { return nil }
        return label == "+Inf" ? .infinity : Double(label)
    }

    /// The value of label `key` in a sample's name, `name{key="value",…}`.
    private static func label(_ key: String, in name: Substring) -> String? {
        guard let start = name.range(of: "\(key)=\"") else { return nil }
        let rest = name[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
