/// What a store holds for one board: its latest whole-state snapshot (opaque bytes, JSON in
/// practice) and revision.
public struct StoredRecord: Sendable, Equatable {
    public var board: String
    public var revision: Int64
    public var state: [UInt8]

    public init(board: String, revision: Int64, state: [UInt8]) {
        self.board = board
        self.revision = revision
        self.state = state
    }
}
