/// Holds back a log line that repeats: the first line of a kind (its `key`) is written, then at most one per
/// `interval` seconds, each saying how many like it were held back since the one before. A pure value, fed
/// explicit times; its owner keeps it under its own lock.
///
/// Keys are forgotten once their interval has passed with nothing held back, so a stream of distinct keys
/// (webhook URLs) holds at most the keys of the last `interval`.
struct RepeatedLog {
    /// What to do with one line.
    enum Verdict: Equatable {
        /// Write it, adding that `heldBack` lines like it were not written since the last one (0: none).
        case write(heldBack: Int)
        /// Hold it back; it is counted in the next line written for its key.
        case holdBack
    }

    let interval: Double
    private var entries: [String: (writtenAt: Double, heldBack: Int)] = [:]

    init(interval: Double = 60) {
        self.interval = interval
    }

    /// The verdict on a line of kind `key` at `now` (seconds, from any clock that does not go back).
    mutating func admit(_ key: String, at now: Double) -> Verdict {
        if let entry = entries[key], now - entry.writtenAt < interval {
            entries[key]?.heldBack += 1
            return .holdBack
        }
        let heldBack = entries[key]?.heldBack ?? 0
        entries[key] = (now, 0)
        if entries.count > 256 { forgetQuiet(at: now) }
        return .write(heldBack: heldBack)
    }

    /// The keys whose interval has passed with nothing held back: the next line of theirs is written anyway.
    private mutating func forgetQuiet(at now: Double) {
        entries = entries.filter { now - $0.value.writtenAt < interval || $0.value.heldBack > 0 }
    }

    /// What a written line adds for the lines held back before it: `" (3 more like it in the last 60 s)"`,
    /// or nothing.
    func suffix(_ verdict: Verdict) -> String {
        guard case .write(let heldBack) = verdict, heldBack > 0 else { return "" }
        return " (\(heldBack) more like it since the last such line, at most one a \(Int(interval)) s)"
    }
}
