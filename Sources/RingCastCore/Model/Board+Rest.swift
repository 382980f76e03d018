/// The board as a reduced-motion viewer sees it (DESIGN §13, PROTOCOL.md "Reduced motion"): every animation
/// already at its end — a push shows its end state on its first tick — while a countdown still counts, its
/// stroke stepping once per label change instead of filling continuously. A pure function of the board, so
/// every node shows reduced-motion viewers the same frames.
extension Board {
    public var atRest: Board {
        var board = self
        board.backdrop = backdrop.atRest
        for (id, state) in rings { board.rings[id] = state.atRest }
        board.countdown?.animated = false
        return board
    }
}

extension RingState {
    /// Every animated property at the value it ends on; properties a later change adds keep what they hold.
    var atRest: RingState {
        var state = self
        state.progress = progress?.atRest
        state.gradient = gradient?.map(\.atRest)
        state.labelColor = labelColor?.atRest
        state.wave = wave?.atRest
        // Thresholds colour a ring at rest by its value's band at once: no transition left to follow.
        state.trail = nil
        return state
    }
}

extension Background {
    /// The colour the newest layer ends on, with no layer growing.
    var atRest: Background { Background(target) }
}

extension AnimatedValue {
    /// `target`, at rest.
    var atRest: AnimatedValue { AnimatedValue(target) }
}

extension AnimatedColor {
    /// `target`, at rest.
    var atRest: AnimatedColor { AnimatedColor(target) }
}
