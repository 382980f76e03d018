/// A few counters from the server's `GET /metrics` (Prometheus text), for before/after deltas.
struct BenchMetrics: Sendable {
    var framesSkipped: Double?
    var viewersEvicted: Double?
    /// `ringcast_frames_total{board="B"}`: frames the server composed for the board.
    var framesPublished: Double?

    init(prometheusText text: String, board: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            switch line[..<space] {
            case "ringcast_frames_skipped_total": framesSkipped = value
            case "ringcast_viewers_evicted_total": viewersEvicted = value
            case "ringcast_frames_total{board=\"\(board)\"}": framesPublished = value
            default: break
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
}
