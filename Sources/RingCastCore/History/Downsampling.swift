/// A ring's history thinned to at most a number of points for a chart or a sparkline (issue 33), by M4 aggregation
/// (Jugel et al., "M4: A Visualization-Oriented Time Series Data Aggregation", VLDB 2014): the time span is cut into
/// equal buckets and each keeps its first, lowest, highest and last point, in time order.
///
/// Why M4 and not largest-triangle-three-buckets: a line through the first, lowest, highest and last point of each
/// column is the line through every point, so a drop to 0 and back, or a single spike, always shows, and the newest
/// point is always the last one. LTTB picks one point a bucket by area and may drop both. M4 is also a pure function
/// of the points (no tie broken by anything but tick order), so every node returns the same bytes.
public enum Downsampling {
    /// At most `limit` (≥ 2) of `points` (in tick order), as M4 keeps them in `limit / 4` buckets over the span; every
    /// point when there are no more than `limit`. Below 4 a bucket cannot hold its four: the first and the last, and
    /// with 3 the most extreme point between them.
    public static func m4(_ points: some RandomAccessCollection<HistoryPoint>, limit: Int) -> [HistoryPoint] {
        let points = Array(points)
        guard points.count > limit else { return points }
        guard let first = points.first, let last = points.last else { return [] }
        if limit < 4 {
            guard limit >= 2 else { return [last] }
            guard limit == 3, points.count > 2 else { return [first, last] }
            let inner = points[1..<(points.count - 1)]
            let mean = points.reduce(0) { $0 + $1.value } / Double(points.count)
            let extreme = inner.max { abs($0.value - mean) < abs($1.value - mean) }!
            return [first, extreme, last]
        }
        let buckets = limit / 4
        let span = Double(last.tick - first.tick) + 1
        var kept: [HistoryPoint] = []
        kept.reserveCapacity(limit)
        var start = 0
        for bucket in 0..<buckets {
            // Points whose tick falls in this bucket's share of the span (the last bucket takes the rest).
            let end =
                bucket == buckets - 1
                ? points.count
                : points[start...].firstIndex {
                    Double($0.tick - first.tick) >= span * Double(bucket + 1) / Double(buckets)
                } ?? points.count
            if end > start {
                let slice = points[start..<end]
                var indices = [start, end - 1]
                indices.append(slice.indices.min { points[$0].value < points[$1].value }!)
                indices.append(slice.indices.max { points[$0].value < points[$1].value }!)
                for index in Set(indices).sorted() { kept.append(points[index]) }
            }
            start = end
        }
        return kept
    }
}
