import RingCastCore

/// The rule that a countdown ring's webhook fires at most once a second: an end is POSTed only when the ring's
/// last POSTed end is at least `fps` ticks (one second) before it; the ends between are skipped (counted as
/// `throttled`). A `"then":"restart"` countdown of 0.001 s ends on every tick; its webhook still fires once a
/// second. A pure value, fed tick numbers.
struct WebhookPace {
    let fps: Int
    /// Per board, per ring: the tick of the last end admitted.
    private var lastAdmitted: [String: [String: Int64]] = [:]

    init(fps: Int) {
        self.fps = max(1, fps)
    }

    /// Whether `end` is POSTed; if so it is the ring's last admitted end from now on.
    mutating func admit(_ end: CountdownEnd) -> Bool {
        if let last = lastAdmitted[end.board]?[end.ring], end.tick - last < Int64(fps), end.tick >= last {
            return false
        }
        lastAdmitted[end.board, default: [:]][end.ring] = end.tick
        return true
    }

    /// The board is gone: a board of that name starts afresh.
    mutating func forget(_ board: String) {
        lastAdmitted[board] = nil
    }
}
