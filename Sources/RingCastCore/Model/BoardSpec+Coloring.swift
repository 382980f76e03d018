extension BoardSpec {
    /// The first way a ring's defined status or thresholds break what the API accepts (only rings and the
    /// indicator take them, one of the two, thresholds within `Limits`), as the key under the ring and why; nil
    /// when they are fine. `check(_:key:)` refuses a stored board with one, as the API and the configuration do.
    static func coloringProblem(_ ring: RingSpec) -> (key: String, message: String)? {
        guard ring.status != nil || ring.thresholds != nil else { return nil }
        guard Board.takesColoring(ring.kind) else {
            return (ring.status != nil ? "status" : "thresholds", "a \(ring.kind.name) widget takes no status or thresholds")
        }
        if let thresholds = ring.thresholds {
            guard ring.status == nil else { return ("thresholds", "a ring is coloured by a status or thresholds, not both") }
            if let problem = thresholds.problem {
                return ("thresholds" + (problem.key.map { ".\($0)" } ?? ""), problem.message)
            }
        }
        return nil
    }
}
