import RingCastCore
import RingCastTransport

/// One row of the router's table: a method and path, who may call it, its label in logs and
/// metrics, and what answers it.
struct Route {
    /// Who may call a route.
    enum Access {
        /// Anyone: liveness and readiness probes.
        case open
        /// The read token, when one is configured.
        case read
        /// A write: the full pipeline (origin, write token, rate limit, idempotency, If-Match, store).
        case write
    }

    /// What answers the route.
    enum Action {
        /// A read, answered at once.
        case read((RouteRequest) throws(APIError) -> HTTPResponse)
        /// A write to one board (the route's `:board`): decodes the body into the handler that,
        /// given the board, says what changes.
        case write((RouteRequest) throws(APIError) -> BoardEdit)
    }

    let method: String
    let pattern: RoutePattern
    /// A low-cardinality name for logs and metrics.
    let label: String
    let access: Access
    let action: Action

    var writes: Bool { access == .write }
}

/// A decoded write, waiting for its board's precondition (If-Match) to be checked: the handler
/// that turns it into a change of the board.
struct BoardEdit {
    let change: (LiveBoard) throws(APIError) -> Animator.Change
}
