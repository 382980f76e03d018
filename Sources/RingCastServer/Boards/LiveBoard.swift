import RingCastCore

/// One configured board as the server holds it while running: its animator, the newest state the
/// store has committed, and its ETag. The request side changes it; the stream side reads it.
/// Touched only on the service thread.
final class LiveBoard {
    var animator: Animator
    /// The board as of the newest write the store has committed: what a failed write reverts to.
    var durable: Durable
    /// Writes logged since the board's last snapshot was handed to the store (`ChangeLog`).
    var changesSinceSnapshot = 0
    /// The ETag of the board with every accepted write.
    var etag: String
    /// Created through the API and not yet durable: a store failure removes it again.
    var isNew = false

    /// The spec the board is served with when its stored state has none of its own (one not shaped
    /// through the API): the configured one. What a revert goes back to, with `durable`.
    var configured: BoardSpec

    init(animator: Animator, etag: String) {
        self.animator = animator
        self.configured = animator.spec
        self.etag = etag
        self.durable = .animator(animator)
    }

    /// What a failed write reverts to: the animator that accepted the newest committed write (kept as it is, a copy
    /// on write, so a write computes nothing for it) or a state read back.
    enum Durable {
        case animator(Animator)
        case state(BoardState)

        var state: BoardState {
            switch self {
            case .animator(let animator): animator.state
            case .state(let state): state
            }
        }
    }

    var name: String { animator.spec.name }
    var spec: BoardSpec { animator.spec }

    /// The tick a change accepted when the grid is at `now` starts at: the next one, and never one
    /// the board has already composed (should the clock have stepped back).
    func startTick(now: Int64) -> Int64 {
        self.now(now) + 1
    }

    /// `now`, or the newest tick the board composed if that is later: frames only go forward.
    func now(_ now: Int64) -> Int64 {
        max(now, animator.composedThrough ?? .min)
    }
}

@available(*, unavailable)
extension LiveBoard: Sendable {}
