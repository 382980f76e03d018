/// What a store holds for one board: its latest whole-state snapshot (opaque bytes, JSON in
/// practice) and revision.
///
/// The bytes may be given as they are or as a function that makes them: the writer thread calls
/// it, and only for the newest record of each board in a batch (the others would be overwritten
/// in the same transaction), so encoding costs neither the caller's thread nor more than once per
/// board and commit. A function that cannot make them throws: that record is not stored, and the
/// writes of its board in that batch fail with `StorageError.Kind.unencodable` (the store itself is fine).
public struct StoredRecord: Sendable, Equatable {
    public var board: String
    public var revision: Int64
    /// A deleted board's tombstone: its whole change log goes with this snapshot, whatever the retention.
    public var endsLog = false
    /// What a new board's first snapshot adds to its rings' history (a push that created it); empty otherwise.
    public var history = StoredHistory()
    private let bytes: DeferredBytes

    /// The snapshot's bytes (made now if they were given as a function); throws, as `unencodable`, what that
    /// function throws.
    public var state: [UInt8] {
        get throws(StorageError) { try bytes.bytes(board: board, what: "state") }
    }

    public init(
        board: String, revision: Int64, endsLog: Bool = false, history: StoredHistory = StoredHistory(), state: [UInt8]
    ) {
        self.init(board: board, revision: revision, endsLog: endsLog, history: history) { state }
    }

    /// A record whose bytes `encode` makes on the store's writer thread, if they are needed.
    public init(
        board: String, revision: Int64, endsLog: Bool = false, history: StoredHistory = StoredHistory(),
        encode: @escaping @Sendable () throws -> [UInt8]
    ) {
        self.board = board
        self.revision = revision
        self.endsLog = endsLog
        self.history = history
        self.bytes = DeferredBytes(encode)
    }

    /// The same board, revision and bytes; a record whose bytes cannot be made equals none.
    public static func == (left: StoredRecord, right: StoredRecord) -> Bool {
        guard left.board == right.board, left.revision == right.revision, left.endsLog == right.endsLog else { return false }
        do {
            return try left.state == right.state
        } catch {
            return false
        }
    }
}
