/// One thing wrong with how a board's arrangement places its rings and texts, found by `LayoutCheck`.
public struct LayoutProblem: Sendable, Hashable, CustomStringConvertible {
    /// The arrangement's name: `landscape` or `portrait`.
    public var arrangement: String
    /// The rings involved, in the board's order: one, or two.
    public var rings: [String]
    /// What is wrong, naming the rings: `ring "task1"'s title overlaps ring "task2"'s label`.
    public var message: String

    public init(arrangement: String, rings: [String], message: String) {
        self.arrangement = arrangement
        self.rings = rings
        self.message = message
    }

    /// `landscape: ring "task1"'s title overlaps ring "task2"'s label`.
    public var description: String { "\(arrangement): \(message)" }
}
