/// Why a store could not open, read or commit: the file or directory concerned and a sentence a
/// person can act on. `description` is "PATH: MESSAGE".
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// Whose fault it was.
    public enum Kind: Sendable, Equatable {
        /// The store's: it cannot commit until a probe succeeds.
        case store
        /// The record's: its bytes could not be made (`StoredRecord`'s function threw); nothing of it was
        /// stored and the store goes on committing.
        case unencodable
    }

    /// The database file, the data directory or its LOCK file (for `unencodable`: the board).
    public var path: String
    public var message: String
    public var kind: Kind

    public init(path: String, message: String, kind: Kind = .store) {
        self.path = path
        self.message = message
        self.kind = kind
    }

    public var description: String { "\(path): \(message)" }
}
