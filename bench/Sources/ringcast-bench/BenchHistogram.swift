/// Durations in a fixed number of buckets, so a run records every push, join or frame gap without
/// keeping the samples: exact below 512 µs, then 256 buckets per power of two (within 0.4 %), up
/// to 2^36 µs. Histograms of several threads merge by adding their buckets.
///
/// A value type; each thread keeps its own and they are merged at the end.
struct BenchHistogram: Sendable {
    /// Values below this many µs get a bucket each.
    private static let linear = 512
    /// Buckets per power of two above `linear` (`linear` / 2).
    private static let perOctave = 256
    private static let largestMicroseconds: UInt64 = 1 << 36

    private var buckets: [Int]
    private(set) var count = 0
    private var smallest: UInt64 = .max
    private var largest: UInt64 = 0

    init() {
        buckets = Array(repeating: 0, count: Self.index(of: Self.largestMicroseconds) + 1)
    }

    /// Records a duration in nanoseconds (negative durations, from clock skew, count as 0).
    mutating func record(nanoseconds: Int64) {
        let microseconds = min(UInt64(max(0, nanoseconds)) / 1000, Self.largestMicroseconds)
        buckets[Self.index(of: microseconds)] += 1
        count += 1
        smallest = min(smallest, microseconds)
        largest = max(largest, microseconds)
    }

    /// Records the time from `start` to `end`, BenchSystem.now() nanoseconds.
    mutating func record(from start: UInt64, to end: UInt64) {
        record(nanoseconds: Int64(bitPattern: end &- start))
    }

    mutating func merge(_ other: BenchHistogram) {
        for index in buckets.indices { buckets[index] += other.buckets[index] }
        count += other.count
        smallest = min(smallest, other.smallest)
        largest = max(largest, other.largest)
    }

    /// Nearest-rank percentile in milliseconds: the middle of the bucket the rank falls in, kept
    /// within the smallest and largest value recorded.
    func percentile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = min(count, max(1, Int((fraction * Double(count)).rounded(.up))))
        var seen = 0
        for (index, tally) in buckets.enumerated() where tally > 0 {
            seen += tally
            if seen >= rank {
                let (low, width) = Self.bounds(of: index)
                let middle = Double(low) + Double(width - 1) / 2
                return min(max(middle, Double(smallest)), Double(largest)) / 1000
            }
        }
        return Double(largest) / 1000
    }

    /// p50, p99, min and max in milliseconds, as the results carry them.
    var percentiles: BenchResult.Percentiles {
        BenchResult.Percentiles(
            count: count,
            p50: percentile(0.5).map { BenchRun.round($0, 2) },
            p99: percentile(0.99).map { BenchRun.round($0, 2) },
            max: count > 0 ? BenchRun.round(Double(largest) / 1000, 2) : nil,
            min: count > 0 ? BenchRun.round(Double(smallest) / 1000, 2) : nil
        )
    }

    private static func index(of microseconds: UInt64) -> Int {
        guard microseconds >= UInt64(linear) else { return Int(microseconds) }
        // The top 9 bits of the value: 256…511 shifted left by `shift`.
        let shift = (UInt64.bitWidth - microseconds.leadingZeroBitCount) - 9
        return linear + (shift - 1) * perOctave + Int(microseconds >> UInt64(shift)) - perOctave
    }

    /// The lowest value in µs a bucket holds, and how many values it spans.
    private static func bounds(of index: Int) -> (low: UInt64, width: UInt64) {
        guard index >= linear else { return (UInt64(index), 1) }
        let shift = (index - linear) / perOctave + 1
        let mantissa = UInt64((index - linear) % perOctave + perOctave)
        return (mantissa << UInt64(shift), 1 << UInt64(shift))
    }
}
