/// One accepted write as the change log keeps it (store format 2): the board, the revision it made, the tick it
/// starts at on the grid of `fps` frames a second, and the change itself in its compact form (opaque bytes: the
/// change as a cluster update carries it, in practice). A start reads a board's newest snapshot (`StoredRecord`)
/// and replays the changes after its revision, in order.
///
/// The bytes may be given as a function, made on the store's writer thread as `StoredRecord`'s are; a function that
/// throws fails its write as `StorageError.Kind.unencodable`, and nothing of it is stored.
public struct StoredChange: Sendable {
    public var board: String
    public var revision: Int64
    public var tick: Int64
    public var fps: Int
    /// The points it adds to its board's rings' history and the rings whose history goes (issue 33).
    public var history: StoredHistory
    private let bytes: DeferredBytes

    /// The change's bytes (made now if they were given as a function); throws, as `unencodable`, what that function
    /// throws.
    public var change: [UInt8] {
        get throws(StorageError) { try bytes.bytes(board: board, what: "change") }
    }

    public init(
        board: String, revision: Int64, tick: Int64, fps: Int, history: StoredHistory = StoredHistory(), change: [UInt8]
    ) {
        self.init(board: board, revision: revision, tick: tick, fps: fps, history: history) { change }
    }

    /// A change whose bytes `encode` makes on the store's writer thread.
    public init(
        board: String, revision: Int64, tick: Int64, fps: Int, history: StoredHistory = StoredHistory(),
        encode: @escaping @Sendable () throws -> [UInt8]
    ) {
        self.board = board
        self.history = history
        self.revision = revision
        self.tick = tick
        self.fps = fps
        self.bytes = DeferredBytes(encode)
    }
}

/// How much of the change log a snapshot leaves in place, for what is built on the log (a ring's history): the changes
/// a board's newest snapshot covers go once they are older than `seconds` or not among the board's newest `changes`
/// (the newest snapshot's later changes always stay: a start replays them).
public struct ChangeRetention: Sendable, Equatable {
    public var seconds: Int64
    public var changes: Int64

    public init(seconds: Int64, changes: Int64) {
        self.seconds = seconds
        self.changes = changes
    }

    /// Seven days (the span of a ring's history, `HistoryBound.standard`), and at most 10,000 changes a board.
    public static let standard = ChangeRetention(seconds: 7 * 86_400, changes: 10_000)
}
