/// Why a store could not open, read or commit: the file or directory concerned and a sentence a
/// person can act on. `description` is "PATH: MESSAGE".
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// The database file, the data directory or its LOCK file.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
