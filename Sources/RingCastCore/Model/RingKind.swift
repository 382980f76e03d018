/// What a board entry is and what drives it (DESIGN §3, §12). The first three are rings; the rest are the
/// other widgets of seed 003, laid out in a ring's cell, stored, replayed and listed exactly like rings.
public enum RingKind: Sendable, Hashable, Codable {
    /// Progress pushed through the API.
    case plain
    /// In every frame, the mean of the displayed progress of the rings in `sources` (the seeds' "Overall");
    /// read-only through the API.
    case derived(sources: [String])
    /// The board's countdown: 0 → 1 linearly over N seconds once started (`Board.startCountdown`), the label
    /// showing whole seconds left; read-only through the ring API.
    case countdown
    /// Seed 003's rolling counter: a pushed number whose digit columns roll like an odometer.
    case counter(CounterFormat)
    /// Seed 003's wave text: a pushed text whose characters swell as a wave passes over them.
    case text(waveWidth: Double)
    /// Seed 003's percentage indicator: a dashed arc from 3 o'clock and a truncated `N %` label.
    case indicator
    /// Seed 003's animatable gradient: a rounded rectangle filled with 2 to 8 pushed colours.
    case gradient

    /// The kind as the protocol names it.
    public var name: String {
        switch self {
        case .plain: "plain"
        case .derived: "derived"
        case .countdown: "countdown"
        case .counter: "counter"
        case .text: "text"
        case .indicator: "indicator"
        case .gradient: "gradient"
        }
    }

    /// A ring (plain, derived or countdown), as opposed to another widget: only rings join concentric groups,
    /// and only rings' frames keep the shape they had before widgets existed.
    public var isRing: Bool {
        switch self {
        case .plain, .derived, .countdown: true
        case .counter, .text, .indicator, .gradient: false
        }
    }

    /// Whether the API pushes values to it (every kind but derived and countdown rings, which the server
    /// computes).
    public var takesPushes: Bool {
        switch self {
        case .derived, .countdown: false
        case .plain, .counter, .text, .indicator, .gradient: true
        }
    }

    /// The names the API accepts for `kind`.
    public static let names = ["plain", "derived", "countdown", "counter", "text", "indicator", "gradient"]
}
