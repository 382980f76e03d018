/// How a value moves from its current presentation to a new target.
///
/// Springs (DESIGN §4) come in a later issue as another case; `AnimatedValue` keeps each running
/// animation as a segment so a spring segment can join the timing-curve ones.
public enum Animation: Sendable, Hashable {
    /// Jump to the target at once.
    case none
    /// Follow `curve` over `duration` seconds.
    case timing(TimingCurve, duration: Double)

    /// The seeds' choice: `.easeInOut(duration: 1.0)`.
    public static let `default`: Animation = .timing(.easeInOut, duration: 1.0)
}
