/// How a value moves from its current presentation to a new target (DESIGN §4).
public enum Animation: Sendable, Hashable {
    /// Jump to the target at once.
    case none
    /// Follow `curve` over `duration` seconds.
    case timing(TimingCurve, duration: Double)
    /// Move as a damped spring, keeping the value's current velocity; ends once the spring has settled.
    case spring(Spring)

    /// The seeds' choice: `.easeInOut(duration: 1.0)`.
    public static let `default`: Animation = .timing(.easeInOut, duration: 1.0)
}
