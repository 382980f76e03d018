/// What `GET` shows of stale data (DESIGN §13), for scripts: each `staleAfter`, when the newest write arrived
/// and, while stale, the text the frames carry.
extension BoardSnapshot {
    /// Sets the stale data of the board and its rings at `tick` on a grid of `fps` ticks a second.
    mutating func mark(_ freshness: Freshness, spec: BoardSpec, at tick: Int64, fps: Int) {
        staleAfter = spec.staleAfter
        updatedAt = freshness.board.map { Self.isoTime(tick: $0, fps: fps) }
        if let seconds = spec.staleAfter, let board = freshness.board, tick &- board >= Int64(seconds) * Int64(fps) {
            stale = StaleLabel.string(elapsed: tick &- board, fps: fps)
        }
        for (index, ring) in zip(rings.indices, spec.rings) where rings[index].id == ring.id {
            rings[index].staleAfter = ring.staleAfter
            rings[index].updatedAt = freshness.lastWrite(ofRing: ring.id, in: spec).map { Self.isoTime(tick: $0, fps: fps) }
            rings[index].stale = freshness.staleText(of: ring, in: spec, at: tick, fps: fps)
        }
    }

    /// Tick `tick` as UTC ISO 8601 with milliseconds (`2026-11-27T19:11:00.016Z`), truncated to the millisecond.
    static func isoTime(tick: Int64, fps: Int) -> String {
        let milliseconds = max(tick, 0) * 1000 / Int64(max(fps, 1))
        let days = milliseconds / 86_400_000
        let inDay = milliseconds % 86_400_000
        // Howard Hinnant's civil_from_days (chrono-Compatible Low-Level Date Algorithms), for days ≥ 0.
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let time = [inDay / 3_600_000, inDay / 60_000 % 60, inDay / 1000 % 60].map { padded($0, 2) }.joined(separator: ":")
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(time).\(padded(inDay % 1000, 3))Z"
    }
}
