/// The Redis keys and channel of one board. Every name carries the board in a hash tag (`{board}`)
/// so that Redis Cluster puts all of a board's keys in one slot and one script may touch them all.
///
/// | name | type | content |
/// | --- | --- | --- |
/// | `rc:{BOARD}:state` | hash | `revision` (decimal, 1 for the first write), `snapshot` (the whole state, opaque bytes, written now and then: `SnapshotScript`) and `snapshotRevision` (the revision it covers, 0 for none) |
/// | `rc:{BOARD}:stream` | stream, trimmed to what the snapshot does not cover and the newest N (`MINID ~`) | one entry per applied write, ID `REVISION-0`, fields `revision`, `base`, `tick`, `digest` (lowercase hex), `update` (bytes) |
/// | `rc:{BOARD}:idem:KEY` | hash, expires after 300 s or sooner (the budget below) | `digest` (lowercase hex of the request digest) and `answer` (the first answer's bytes) |
/// | `rc:idempotency` | sorted set, expires 300 s after the last answer stored | every board's answer keys, scored by where each starts in a running byte count; member `total` ends it (`WriteScript`) |
/// | `rc:{BOARD}:rate:CLIENT` | hash, expires 61 s after its last write | the token bucket: `tokens` and `at` (Redis `TIME`, seconds) |
/// | `rc:{BOARD}:updates` | pub/sub channel | each applied write, encoded as `BoardUpdate.payload` |
/// | `rc:{BOARD}:history:RING` | sorted set | ring RING's history, trimmed by the write script to its bound (`RingHistory`) |
/// | `rc:{BOARD}:webhook:RING:TICK` | string, expires after 10 min | the node that POSTs ring RING's countdown end of tick TICK (`SET NX`: the first node to ask) |
///
/// A board name should not contain `{` or `}` (the hash tag would end early; the keys stay
/// distinct but the slot would be another board's).
public struct BoardKeys: Sendable, Hashable {
    public let board: String

    public init(board: String) {
        self.board = board
    }

    private var prefix: String { "rc:{\(board)}:" }
    public var state: String { prefix + "state" }
    public var stream: String { prefix + "stream" }
    /// The pub/sub channel of the board's applied writes.
    public var updates: String { prefix + "updates" }
    public func idempotency(_ key: String) -> String { prefix + "idem:" + key }
    public func rate(_ client: String) -> String { prefix + "rate:" + client }
    /// Ring `ring`'s history (`RingHistory`).
    public func history(ring: String) -> String { prefix + "history:" + ring }
    /// Claimed by the one node that POSTs the webhook of `ring`'s countdown end on `tick`.
    public func webhook(ring: String, tick: Int64) -> String { prefix + "webhook:" + ring + ":" + String(tick) }

    /// Every board's Idempotency-Key answers in the order they were stored, for their byte budget
    /// (`WriteScript`). In no board's slot, like `cluster`.
    public static let idempotencyBudget = "rc:idempotency"
}
