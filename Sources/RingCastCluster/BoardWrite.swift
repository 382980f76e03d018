/// One write to a board, as `WriteScript.run` sends it to Redis.
public struct BoardWrite: Sendable, Equatable {
    /// An Idempotency-Key and the digest of the request that carried it (e.g. SHA-256 of method,
    /// path and body). Neither may be empty: the script reads an empty digest as "no key".
    public struct Idempotency: Sendable, Equatable {
        public var key: String
        public var requestDigest: [UInt8]

        public init(key: String, requestDigest: [UInt8]) {
            precondition(!key.isEmpty && !requestDigest.isEmpty, "an Idempotency-Key needs a key and a request digest")
            self.key = key
            self.requestDigest = requestDigest
        }
    }

    public var board: String
    /// Whose rate bucket the write counts against (e.g. the client's address or token).
    public var client: String
    /// Writes per minute per client and board, a token bucket of this size refilled evenly over a
    /// minute on Redis's clock; 0 for no limit.
    public var rateLimitPerMinute: Int
    public var idempotency: Idempotency?
    /// The bytes the answers kept for Idempotency-Keys may take in Redis, all boards together
    /// (`limits.idempotencyCacheBytes`); the oldest go first. 0 keeps no answers.
    public var idempotencyBytes: Int
    /// If-Match: the revision the client expects the board to have, or nil.
    public var ifMatch: Int64?
    /// If-None-Match: `*`: the write creates the board only if it is absent, i.e. nothing was written to it since
    /// `baseRevision` (at which the writing node saw it absent: no state, or a deletion's).
    public var ifNoneMatch: Bool
    /// The revision the update was computed against (compare-and-set); 0 for a board without state.
    /// An applied write's revision is always `baseRevision + 1`, so the answer can be made before.
    public var baseRevision: Int64
    /// The grid tick at which every node applies the update.
    public var startTick: Int64
    /// The digest of the board's whole state after the update (stored and published as hex).
    public var stateDigest: [UInt8]
    /// The update itself, as nodes apply it.
    public var update: [UInt8]
    /// The answer to keep for replays of the same Idempotency-Key (ignored without one).
    public var answer: [UInt8]
    /// The cluster's id (`rc:cluster`) the writing node's ETags carry, or nil not to check it: a write computed
    /// under another id (the id was replaced since, or Redis lost it) is refused with `.clusterChanged`.
    public var clusterID: String?
    /// This write's id, unique in the cluster (e.g. the node's name, its start and a count): the board's state hash keeps
    /// the newest write's, for `after`.
    public var id: String
    /// The id of the write this one was computed after, still in Redis's hands when it was sent (a node chains its own
    /// writes to a board: `ClusterNode`'s write lanes), or nil when it was computed on the revision the node holds. The
    /// script applies a write with one only if the board's newest write is that one, so a write never lands on a state
    /// it was not computed on: when the one before did not land, or another node's got in between, it is a `conflict`.
    public var after: String?
    /// The points the write adds to its rings' history, all of one millisecond (issue 33).
    public var history: [RingHistory.Point] = []
    /// The rings whose history goes with the write (rings it removed; every ring of a deleted board).
    public var removedHistory: [String] = []
    /// What the board keeps of each ring's history (its own `history`, or the server's); nil: the script's.
    public var historyBound: RingHistory.Bound?

    public init(
        board: String, client: String = "", rateLimitPerMinute: Int = 0, idempotency: Idempotency? = nil,
        idempotencyBytes: Int = 4 << 20, ifMatch: Int64? = nil, ifNoneMatch: Bool = false, baseRevision: Int64, startTick: Int64,
        stateDigest: [UInt8], update: [UInt8], answer: [UInt8] = [], clusterID: String? = nil, id: String = "",
        after: String? = nil
    ) {
        self.board = board
        self.client = client
        self.rateLimitPerMinute = rateLimitPerMinute
        self.idempotency = idempotency
        self.idempotencyBytes = idempotencyBytes
        self.ifMatch = ifMatch
        self.ifNoneMatch = ifNoneMatch
        self.baseRevision = baseRevision
        self.startTick = startTick
        self.stateDigest = stateDigest
        self.update = update
        self.answer = answer
        self.clusterID = clusterID
        self.id = id
        self.after = after
    }
}

/// What the write script decided, in its order of precedence.
public enum WriteOutcome: Sendable, Equatable {
    /// Stored, appended to the stream as `streamID` ("REVISION-0") and published.
    case applied(revision: Int64, streamID: String)
    /// The client's bucket is empty; a token is back after `retryAfter` seconds (≥ 1).
    case rateLimited(retryAfter: Int)
    /// The Idempotency-Key was used before with the same request: its first answer, nothing changed.
    case replay(answer: [UInt8])
    /// The Idempotency-Key was used before with another request; nothing changed.
    case keyReused
    /// If-Match named another revision than the board's `current`, or If-None-Match found the board written since
    /// the writer saw it absent; nothing changed.
    case preconditionFailed(current: Int64)
    /// `baseRevision` is not the board's `current` revision; nothing changed.
    case conflict(current: Int64)
    /// `clusterID` is not the cluster's id in Redis, `id` ("" when Redis has none); nothing changed.
    case clusterChanged(id: String)
}

/// What Redis holds of a board: its revision, and the newest snapshot of its whole state with the revision that
/// snapshot covers (the stream holds every change after it).
public struct BoardSnapshot: Sendable, Equatable {
    /// The board's revision: its newest write.
    public var revision: Int64
    /// The revision `snapshot` is the state at (at most `revision`); 0 with an empty `snapshot` when none was
    /// written yet: the board is then its first change (a board created) or its configured spec, and the stream
    /// holds every change since.
    public var covers: Int64
    /// The whole state at `covers`, as the nodes encode it (opaque here).
    public var snapshot: [UInt8]

    /// `covers` defaults to `revision`: a snapshot of the newest state.
    public init(revision: Int64, covers: Int64? = nil, snapshot: [UInt8]) {
        self.revision = revision
        self.covers = covers ?? revision
        self.snapshot = snapshot
    }
}
