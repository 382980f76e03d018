/// What drives a ring's progress (DESIGN §3).
public enum RingKind: Sendable, Hashable, Codable {
    /// Progress pushed through the API.
    case plain
    /// In every frame, the mean of the displayed progress of the rings in `sources` (the seeds' "Overall");
    /// read-only through the API.
    case derived(sources: [String])
    /// The board's countdown: 0 → 1 linearly over N seconds once started (`Board.startCountdown`), the label
    /// showing whole seconds left; read-only through the ring API.
    case countdown

    /// The kind as the protocol names it: "plain", "derived" or "countdown".
    public var name: String {
        switch self {
        case .plain: "plain"
        case .derived: "derived"
        case .countdown: "countdown"
        }
    }
}
