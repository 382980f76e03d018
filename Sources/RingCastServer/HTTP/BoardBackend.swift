import RingCastCore
import RingCastStorage
import RingCastTLS
import RingCastTransport

/// Where writes are committed, chosen once when the server is built (`Application`): the embedded store of one
/// server (`BoardWriter`) or Redis, shared by a cluster's nodes (`ClusterNode`). `Pipeline` runs every write
/// through the same steps in the same order, whatever the backend, and asks it only for what differs between
/// one process and many: where the rate limit and the Idempotency-Key's answers are kept, whether writes to a
/// board wait for each other, the tick a write starts at, and how a write is made durable.
///
/// Touched only on the service thread.
protocol BoardBackend: PlaylistBackend {
    /// Why writes are refused now, or nil when they are taken: what `/readyz` says.
    var problem: String? { get }

    /// The embedded store's figures, for `/metrics`; nil in cluster mode.
    var storeStatistics: StorageStatistics? { get }

    /// The earliest tick a write accepted when the grid is at `now` may start at: the next one for a process on
    /// its own, `now` + the lead in a cluster (every node must have the update before its tick).
    func earliestStart(now: Int64) -> Int64

    /// Step 4 and 5 before the body is read: the client's write rate (429) and a repeated Idempotency-Key (its
    /// first answer again, 422 for another request under it, 409 while it is still being applied). A backend
    /// that checks both atomically with the write itself (Redis's script) proceeds here.
    func admit(_ write: WriteIntent) throws(APIError) -> Admission

    /// Runs `body` once this backend may take the next write of `board`; `body` calls its argument when the
    /// write is answered. In a cluster in the order the writes came, each computed on the board as this node's writes
    /// before it will leave it (`projection(of:)`) when it is `chainable` (it has no precondition), else once they are
    /// answered (`WriteLane`); at once otherwise.
    func serialize(board: String, chainable: Bool, _ body: @escaping (@escaping () -> Void) -> Void)

    /// The board the write being computed for `board` is computed on when it is not the one this process holds (a
    /// cluster node's writes still in Redis's hands will change it); nil: the one held.
    func projection(of board: String) -> LiveBoard?

    /// Step 9: makes `prepared` durable and applies it, then calls `completion` on the service thread. `attempt`
    /// counts the times the write was computed again after `.again`.
    func commit(_ prepared: PreparedWrite, of write: WriteIntent, attempt: Int, completion: @escaping (CommitOutcome) -> Void)

    /// The points of one ring's history that are kept now within `query`'s times, oldest first, each `tick` in
    /// milliseconds since the Unix epoch (issue 33); `completion` runs on the service thread. Read off it: the
    /// embedded store on a thread of its own, a cluster from Redis.
    func history(_ query: HistoryQuery, completion: @escaping (Result<[HistoryPoint], APIError>) -> Void)

    /// Step 10: the write was answered with `response` (or, nil, refused before its commit), for `admit`'s
    /// replays.
    func finished(_ write: WriteIntent, with response: HTTPResponse?)

    /// Takes the reloadable settings of `configuration` for the writes that follow; the configured boards are
    /// now `configuration.boards`, of which `added` are new.
    func apply(_ configuration: RingCastConfiguration, added: [LiveBoard])

    // MARK: Life

    /// This process's name in a cluster; nil when it serves alone.
    var nodeName: String? { get }

    /// Names the node once its port is bound, when the configuration gave it no name; nothing alone.
    func name(_ name: String)

    /// Connects the backend to the running loop (`queue`) and to `broadcaster`, which it tells of every change it
    /// applies; called once before the loop starts.
    func attach(queue: any ServiceQueue, broadcaster: Broadcaster)

    /// Ends what runs beside the loop (cluster mode's subscription and Redis worker). Any thread, once the loop
    /// has stopped.
    func stop()

    /// Hands every board's snapshot that its log has outgrown to the store (the embedded store's `ChangeLog`; Redis
    /// keeps its own). Once the loop has stopped, before the store closes.
    func writeSnapshots()
}

/// What `BoardBackend.admit` decided.
enum Admission {
    case proceed
    /// Answered without going on: a replay of the key's first answer.
    case answered(HTTPResponse)
}

/// How a commit ended.
enum CommitOutcome {
    /// The answer to send: the write's own (durable), or why it was not applied.
    case answered(HTTPResponse)
    /// The board changed elsewhere before this write got in (another node's write; Redis's history replaced):
    /// the write is computed again against the board as it is now, and committed again.
    case again
}

/// One write as it arrived, checked for what needs no board: the request, how to decode it, its
/// Idempotency-Key and If-Match.
struct WriteIntent {
    let request: RouteRequest
    /// Whether the board must exist (every write but creating or deleting one).
    let needsBoard: Bool
    let decode: (RouteRequest) throws(APIError) -> BoardEdit
    let idempotency: Idempotency?
    let precondition: IfMatch
    /// `If-None-Match: *`: the write may only create its board (412 when the board exists).
    let createOnly: Bool
    /// `Prefer: return=minimal`: answered without the board.
    let returning: ReturnPreference

    struct Idempotency {
        let key: String
        /// SHA-256 of the method, path and body: the same key with another request is refused.
        let digest: SHA256Digest
    }

    var board: String { request.parameter("board") }
    var http: HTTPRequest { request.http }
}

/// A write computed against the board as this process holds it, on a copy: nothing has changed yet.
struct PreparedWrite {
    enum Kind {
        /// A change of `board`, whose animator becomes `after`.
        case change(LiveBoard, Animator.Change, after: Animator)
        /// A new board of `spec`, with `animator`.
        /// `then`: the write that created the board (push-to-create), applied with it at its first tick.
        case create(BoardSpec, Animator, then: Animator.Change?)
        /// `board` goes.
        case delete(LiveBoard)
    }

    let kind: Kind
    let name: String
    /// The revision the write follows, and its own is `base + 1`.
    let base: Int64
    /// The tick it starts at.
    let start: Int64
    /// The state afterwards, or a deletion's tombstone: what a snapshot of the board holds once the write started,
    /// computed only where one is written (a creation, a deletion, a cluster's write).
    let state: () -> BoardState
    /// `state` with the animations finished by its last change's start dropped: what every cluster node compares
    /// (by digest) once it applied the write, whichever frames it composed.
    let settled: () -> BoardState
    /// The answer once the write is durable, from the board as it is then (the created one, for a creation).
    let answer: (LiveBoard) -> HTTPResponse
    /// The answer as computed before the commit, from a copy of the board with the write (a cluster stores it in
    /// Redis for replays, before anything is applied here).
    let preview: () -> HTTPResponse
    /// The request body, as a cluster update carries it to the other nodes.
    let body: [UInt8]
}

/// `If-Match`: the revision its ETag names, `*`, or a tag of another run or cluster history (which matches
/// nothing). An ETag is `"REVISION-NONCE"` (`Boards.etag`).
enum IfMatch: CustomStringConvertible {
    case none
    case any
    case revision(Int64, tag: String)
    case stale(String)

    init(_ header: String?, nonce: String) {
        guard let header else {
            self = .none
            return
        }
        if header == "*" {
            self = .any
            return
        }
        let inner = header.hasPrefix("\"") && header.hasSuffix("\"") && header.count >= 2 ? header.dropFirst().dropLast() : ""
        guard let dash = inner.firstIndex(of: "-"), let revision = Int64(inner[..<dash]),
            inner[inner.index(after: dash)...] == nonce
        else {
            self = .stale(header)
            return
        }
        self = .revision(revision, tag: header)
    }

    var revision: Int64? {
        if case .revision(let revision, _) = self { return revision }
        return nil
    }

    var description: String {
        switch self {
        case .none: "no If-Match"
        case .any: "*"
        case .revision(_, let tag), .stale(let tag): tag
        }
    }
}
