/// What a store holds for one board: its latest whole-state snapshot (opaque bytes, JSON in
/// practice) and revision.
///
/// The bytes may be given as they are or as a function that makes them: the writer thread calls
/// it, and only for the newest record of each board in a batch (the others would be overwritten
/// in the same transaction), so encoding costs neither the caller's thread nor more than once per
/// board and commit.
public struct StoredRecord: Sendable, Equatable {
    public var board: String
    public var revision: Int64
    private let bytes: @Sendable () -> [UInt8]

    /// The snapshot's bytes (made now if they were given as a function).
    public var state: [UInt8] { bytes() }

    public init(board: String, revision: Int64, state: [UInt8]) {
        self.board = board
        self.revision = revision
        self.bytes = { state }
    }

    /// A record whose bytes `encode` makes on the store's writer thread, if they are needed.
    public init(board: String, revision: Int64, encode: @escaping @Sendable () -> [UInt8]) {
        self.board = board
        self.revision = revision
        self.bytes = encode
    }

    public static func == (left: StoredRecord, right: StoredRecord) -> Bool {
        left.board == right.board && left.revision == right.revision && left.state == right.state
    }
}
