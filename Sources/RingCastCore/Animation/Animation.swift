/// How a value moves from its current presentation to a new target (DESIGN §4).
public enum Animation: Sendable, Hashable {
    /// Jump to the target at once.
    case none
    /// Follow `curve` over `duration` seconds.
    case timing(TimingCurve, duration: Double)
    /// Move as a damped spring, keeping the value's current velocity; ends once the spring has settled.
    case spring(Spring)
    /// A timing curve or spring played in passes (SwiftUI's `repeatCount` and `repeatForever`); see
    /// `Repetition` and docs/ANIMATION.md. Build one with `repeatCount(_:autoreverses:)` or
    /// `repeatForever(autoreverses:)`, which never wrap `.none` or a repetition.
    indirect case repeating(Animation, Repetition)

    /// The seeds' choice: `.easeInOut(duration: 1.0)`.
    public static let `default`: Animation = .timing(.easeInOut, duration: 1.0)

    /// SwiftUI's `repeatCount(_:autoreverses:)`: `count` passes; 1 is the animation itself, `.none` stays
    /// `.none`, and a repeating animation gets the new repetition instead of its own.
    public func repeatCount(_ count: Int, autoreverses: Bool) -> Animation {
        repeated(Repetition(count: .times(count), autoreverses: autoreverses))
    }

    /// SwiftUI's `repeatForever(autoreverses:)`: passes without end.
    public func repeatForever(autoreverses: Bool) -> Animation {
        repeated(Repetition(count: .forever, autoreverses: autoreverses))
    }

    /// The animation one pass plays, without its repetition.
    public var pass: Animation {
        if case .repeating(let base, _) = self { return base.pass }
        return self
    }

    /// The repetition, nil for an animation that plays once.
    public var repetition: Repetition? {
        if case .repeating(_, let repetition) = self { return repetition }
        return nil
    }

    private func repeated(_ repetition: Repetition) -> Animation {
        let base = pass
        if case .none = base { return .none }
        if repetition.count == .times(1) { return base }
        return .repeating(base, repetition)
    }
}

/// How often an animation plays and whether every other pass runs backwards (SwiftUI's `repeatCount` and
/// `repeatForever`). A pass is the animation from its start value to its target; with `autoreverses`, odd
/// passes (0-based) run it from the target back to the start value. After the last pass the value rests at
/// the target, so with `autoreverses` and an even count it goes back to the target at the end, as SwiftUI's
/// model value does.
public struct Repetition: Sendable, Hashable {
    public enum Count: Sendable, Hashable {
        /// This many passes, from 1 (`Limits.repeatCounts`).
        case times(Int)
        /// Passes without end: the value never finishes animating.
        case forever
    }

    public var count: Count
    public var autoreverses: Bool

    public init(count: Count, autoreverses: Bool) {
        self.count = count
        self.autoreverses = autoreverses
    }

    /// The number of passes, nil for `forever`.
    var passes: Int? {
        if case .times(let count) = count { return count }
        return nil
    }

    /// Pass k runs backwards: an odd pass of an autoreversing repetition.
    func isReversed(pass k: Int) -> Bool {
        autoreverses && k % 2 == 1
    }
}
