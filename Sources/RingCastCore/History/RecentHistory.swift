/// The newest points of each ring whose label reads its history (the `rate` and `eta` formats, issue 33) or that has a
/// sparkline, as ticks on the grid, and what they make: how fast the ring moves (`12 %/min`), when it will be done
/// (`~4 min left`, then `done`), by tqdm's estimator (`ProgressRate`), and the sparkline.
///
/// Kept like `Freshness`: recorded as each accepted change applies at its start tick, stored with the board's state
/// and compared in a cluster's digest, so a restart and every node hold the same points. The text at a tick is a pure
/// function of the points and the tick, read at the start of the tick's second (or at the newest point, if later):
/// it changes at most once a second, at ticks `nextChange(after:in:fps:)` computes, and is the same on every node.
public struct RecentHistory: Sendable, Equatable {
    /// Per ring id, its newest points, oldest first: `ProgressRate.window` of them, or with a sparkline its span's
    /// (`kept(_:of:fps:)`).
    public private(set) var rings: [String: [HistoryPoint]]

    public init(rings: [String: [HistoryPoint]] = [:]) {
        self.rings = rings
    }

    /// The widest texts a `rate` and an `eta` label show, for the layout's check.
    public static let widestRate = "-99.9 %/min"
    public static let widestETA = "~59 min left"

    /// Whether a ring of `spec` has a label that reads its history: without, nothing is recorded or marked.
    static func watches(_ spec: BoardSpec) -> Bool {
        spec.rings.contains(where: reads)
    }

    /// Whether `ring` shows a `rate` or `eta` label or a sparkline (plain and derived rings).
    static func reads(_ ring: RingSpec) -> Bool {
        ring.kind.isRing && ring.kind.keepsHistory && (ring.label.readsHistory || ring.sparkline != nil)
    }

    /// The most points a ring with a sparkline keeps before its older ones are thinned (`Downsampling.m4`) to half.
    static let sparklineMemory = 512
    /// The most points a sparkline draws.
    public static let sparklinePoints = 64

    /// Notes what `history` adds at `tick` for the rings of `spec` that read it; drops the rings that no longer do.
    mutating func record(_ history: ChangeHistory, on spec: BoardSpec, at tick: Int64, fps: Int) {
        for point in history.points {
            guard let ring = spec.ring(withID: point.ring), Self.reads(ring) else { continue }
            var points = rings[point.ring] ?? []
            points.append(HistoryPoint(tick: tick, value: point.value))
            rings[point.ring] = Self.kept(points, of: ring, fps: fps)
        }
        if !rings.isEmpty {
            rings = rings.filter { id, _ in spec.ring(withID: id).map(Self.reads) ?? false }
        }
    }

    /// What `ring` keeps of `points` (oldest first): the newest `ProgressRate.window` for a rate or time to done, and
    /// with a sparkline every point of its span back from the newest, the older ones thinned to half by M4 once there
    /// are more than `sparklineMemory` (the same points in, the same points kept, on every node).
    static func kept(_ points: [HistoryPoint], of ring: RingSpec, fps: Int) -> [HistoryPoint] {
        guard let sparkline = ring.sparkline, let newest = points.last else {
            return Array(points.suffix(ProgressRate.window))
        }
        let oldest = newest.tick - Int64(sparkline.seconds) * Int64(fps)
        let first = points.firstIndex { $0.tick >= oldest } ?? points.count
        var kept = Array(points[min(first, max(0, points.count - ProgressRate.window))...])
        if kept.count > sparklineMemory {
            let recent = kept.suffix(ProgressRate.window)
            let older = Downsampling.m4(kept.dropLast(ProgressRate.window), limit: sparklineMemory / 2)
            kept = older + recent
        }
        return kept
    }

    // MARK: Sparklines

    /// `ring`'s sparkline at `tick` (`RingFrame.spark`): its points of its span up to `tick`, thinned to
    /// `sparklinePoints`, the newest at `shown` (the progress the frame shows; nil: the newest target); nil without a
    /// sparkline or with fewer than two points.
    public func sparkline(of ring: RingSpec, at tick: Int64, shown: Double?, fps: Int) -> [Double]? {
        guard let sparkline = ring.sparkline, let all = rings[ring.id] else { return nil }
        let upToNow = all.prefix { $0.tick <= tick }
        guard let newest = upToNow.last else { return nil }
        let oldest = newest.tick - Int64(sparkline.seconds) * Int64(fps)
        let span = upToNow.drop { $0.tick < oldest }
        guard span.count >= 2, let first = span.first else { return nil }
        let points = Downsampling.m4(span, limit: Self.sparklinePoints)
        let scale = max(1, points.map(\.value).max() ?? 1, shown ?? 0)
        let width = Double(newest.tick - first.tick)
        var line: [Double] = []
        line.reserveCapacity(points.count * 2)
        for (index, point) in points.enumerated() {
            let value = index == points.count - 1 ? shown ?? point.value : point.value
            line.append(Self.rounded(width > 0 ? Double(point.tick - first.tick) / width : 1))
            line.append(Self.rounded(min(1, max(0, value / scale))))
        }
        return line
    }

    /// To a thousandth: the page draws at most a few hundred pixels wide.
    static func rounded(_ value: Double) -> Double {
        (value * 1_000).rounded() / 1_000
    }

    // MARK: Texts

    /// The instant the text at `tick` is read at: the start of the tick's second, or the newest point up to `tick`
    /// if it is later (a push shows at once).
    static func instant(of tick: Int64, points: [HistoryPoint], fps: Int) -> Int64 {
        let second = tick - ((tick % Int64(fps)) + Int64(fps)) % Int64(fps)
        let newest = points.last { $0.tick <= tick }?.tick ?? second
        return max(second, newest)
    }

    /// `ring`'s `rate` or `eta` text at `tick`; `—` with fewer than two points (or no progress, for `eta`).
    public func text(of ring: RingSpec, at tick: Int64, fps: Int) -> String {
        let points = rings[ring.id] ?? []
        let at = Self.instant(of: tick, points: points, fps: fps)
        let none = PercentLabel.string(for: nil)
        if ring.label == .eta, let newest = points.last(where: { $0.tick <= at }), newest.value >= 1 {
            return RateLabel.done
        }
        guard let rate = ProgressRate.estimate(points, now: at, fps: fps, target: 1) else { return none }
        switch ring.label {
        case .rate:
            return RateLabel.rate(perSecond: rate.perSecond, maximum: ring.maximum)
        case .eta:
            guard let left = rate.secondsLeft else { return none }
            return left <= 0 ? RateLabel.done : RateLabel.timeLeft(seconds: left)
        case .percent, .fraction, .value, .text:
            return none
        }
    }

    /// Each reading ring's text at `tick` set as its label in `frame` (composed for `spec`, in its ring order), and
    /// each sparkline.
    func mark(_ frame: inout Frame, spec: BoardSpec, at tick: Int64, fps: Int) {
        for (index, ring) in zip(frame.rings.indices, spec.rings) where Self.reads(ring) {
            if ring.label.readsHistory {
                frame.rings[index].label = text(of: ring, at: tick, fps: fps)
            }
            if ring.sparkline != nil {
                frame.rings[index].spark = sparkline(of: ring, at: tick, shown: frame.rings[index].p, fps: fps)
            }
        }
    }

    /// Each reading ring's text at `tick` set as its `text` in `snapshot` (of `spec`, in its ring order).
    func mark(_ snapshot: inout BoardSnapshot, spec: BoardSpec, at tick: Int64, fps: Int) {
        for (index, ring) in zip(snapshot.rings.indices, spec.rings) where Self.reads(ring) {
            snapshot.rings[index].text = text(of: ring, at: tick, fps: fps)
        }
    }

    /// The first tick after `tick` at which a text may change while nothing is written: the start of the next second
    /// while a reading ring has an estimate and is not done; nil when none will.
    func nextChange(after tick: Int64, in spec: BoardSpec, fps: Int) -> Int64? {
        guard !rings.isEmpty else { return nil }
        let moving = spec.rings.contains { ring in
            guard ring.label.readsHistory, Self.reads(ring), let points = rings[ring.id], points.count >= 2 else {
                return false
            }
            return (points.last?.value ?? 0) < 1 || ring.label == .rate
        }
        guard moving else { return nil }
        return (tick / Int64(fps) + 1) * Int64(fps)
    }

    // MARK: Stored

    /// As stored (`BoardState.recent`): nil when no ring has points, so boards without such labels keep their bytes.
    var stored: [String: [HistoryPoint]]? {
        rings.isEmpty ? nil : rings
    }

    /// The points `state` stored, their ticks moved to a grid of `fps` as the caller moves the epoch, only for rings
    /// of `spec` that read them. Throws, naming the key, for a tick outside what a state may hold, a value that is not
    /// finite, or more points than a ring keeps.
    init(restoring state: BoardState, fps: Int, spec: BoardSpec) throws(BoardStateError) {
        var rings: [String: [HistoryPoint]] = [:]
        for (id, points) in (state.recent ?? [:]).sorted(by: { $0.key < $1.key }) {
            let key = "recent.\(id)"
            guard points.count <= Self.sparklineMemory else {
                throw BoardStateError(key: key, message: "holds at most \(Self.sparklineMemory) points, got \(points.count)")
            }
            var moved: [HistoryPoint] = []
            for point in points {
                guard (0...BoardState.maximumInteger).contains(point.tick) else {
                    throw BoardStateError(
                        key: key, message: "must hold ticks from 0 to \(BoardState.maximumInteger), got \(point.tick)")
                }
                guard point.value.isFinite else {
                    throw BoardStateError(key: key, message: "must hold finite values, got \(point.value)")
                }
                let tick =
                    state.fps == fps ? point.tick : Int64((Double(point.tick) * Double(fps) / Double(state.fps)).rounded())
                moved.append(HistoryPoint(tick: tick, value: point.value))
            }
            if let ring = spec.ring(withID: id), Self.reads(ring) { rings[id] = moved }
        }
        self.init(rings: rings)
    }
}

/// The texts of the `rate` and `eta` label formats.
public enum RateLabel {
    public static let done = "done"

    /// `12 %/min` (progress, for a ring whose maximum is 100) or `3.5/min` (its own units), per second, minute or hour:
    /// the first at which the number is at least 1. One decimal below 10.
    public static func rate(perSecond: Double, maximum: Double) -> String {
        let percent = maximum == RingSpec.defaultMaximum
        let perSecond = perSecond * (percent ? 100 : maximum)
        guard perSecond.isFinite else { return PercentLabel.string(for: nil) }
        let unit = percent ? " %" : ""
        if perSecond == 0 { return "0\(unit)/min" }
        for (scale, name) in [(1.0, "s"), (60.0, "min")] where abs(perSecond * scale) >= 1 {
            return number(perSecond * scale) + "\(unit)/\(name)"
        }
        return number(perSecond * 3_600) + "\(unit)/h"
    }

    /// `~45 s left`, `~4 min left`, `~3 h left`, `~2 d left` (rounded; whole seconds up).
    public static func timeLeft(seconds: Double) -> String {
        guard seconds.isFinite else { return PercentLabel.string(for: nil) }
        if seconds < 60 { return "~\(Int(seconds.rounded(.up))) s left" }
        if seconds < 3_600 { return "~\(Int((seconds / 60).rounded())) min left" }
        if seconds < 48 * 3_600 { return "~\(Int((seconds / 3_600).rounded())) h left" }
        let days = (seconds / 86_400).rounded()
        return days > 999 ? "~999+ d left" : "~\(Int(days)) d left"
    }

    /// One decimal below 10 (without a trailing `.0`), a grouped integer from there.
    static func number(_ value: Double) -> String {
        if abs(value) < 10 {
            let tenths = Int((value * 10).rounded())
            let sign = tenths < 0 ? "-" : ""
            let magnitude = abs(tenths)
            return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
        }
        return ValueLabel.integer(value)
    }
}
