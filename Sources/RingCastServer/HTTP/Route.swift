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
        /// A write whose board need not exist (it creates or deletes one).
        case writeAnyBoard
        /// A write of something other than a board (a playlist): the origin and the write token, then its handler,
        /// which answers once the write is durable.
        case writeOther
    }

    /// What answers the route.
    enum Action {
        /// A read, answered at once.
        case read((RouteRequest) throws(APIError) -> HTTPResponse)
        /// A read whose answer is made off the service thread (an SVG): the handler answers through its second
        /// argument, exactly once, now or later on the service thread; what it throws is answered at once.
        case readLater((RouteRequest, @escaping (HTTPResponse) -> Void) throws(APIError) -> Void)
        /// A write to one board (the route's `:board`): decodes the body into the handler that,
        /// given the board, says what changes.
        case write((RouteRequest) throws(APIError) -> BoardEdit)
        /// A write of something other than a board (`writeOther`): the handler checks and commits it, and answers
        /// through its second argument, exactly once, once durable; what it throws is answered at once.
        case commit((RouteRequest, @escaping (HTTPResponse) -> Void) throws(APIError) -> Void)
    }

    let method: String
    let pattern: RoutePattern
    /// A low-cardinality name for logs and metrics.
    let label: String
    let access: Access
    let action: Action
    /// The token access the route needs (`TokenPolicy`) when it is not its access's own (`needs`).
    var permission: AccessToken.Access? = nil
    /// Whether a write here may create its board (`autoCreate`): then, to a board that does not exist, it needs admin.
    var autoCreates = false

    var writes: Bool { access == .write || access == .writeAnyBoard || access == .writeOther }

    /// The token access the route needs, nil for an open one: `read` for reads, `write` for writes to a board
    /// (its rings added and deleted included), `admin` for creating, replacing and deleting boards and for
    /// playlists, unless the route says otherwise.
    var needs: AccessToken.Access? {
        if let permission { return permission }
        switch access {
        case .open: return nil
        case .read: return .read
        case .write: return .write
        case .writeAnyBoard, .writeOther: return .admin
        }
    }
}

/// A decoded write, waiting for its board's precondition (If-Match) to be checked: the handler
/// that says what it does to the board (nil when no board has the name: only routes that create
/// one see that).
struct BoardEdit {
    let write: (LiveBoard?) throws(APIError) -> BoardWrite
}

/// What a write does to its board.
enum BoardWrite {
    /// A change of the board, answered once durable with `answer`.
    case change(Animator.Change, answer: WriteAnswer = .board)
    /// A new board (201, with its snapshot); with `then` (push-to-create), the write that asked for it, applied at
    /// the board's first tick as part of the same write.
    case create(BoardSpec, then: Animator.Change? = nil)
    /// The board goes (204).
    case delete
}

/// The answer to a durable write.
enum WriteAnswer {
    /// 200 with the board as a GET shows it, and its ETag.
    case board
    /// 201 with the ring as `GET …/rings/{ring}` shows it, and its Location.
    case createdRing(String)
    /// 204, no body.
    case noContent
}
