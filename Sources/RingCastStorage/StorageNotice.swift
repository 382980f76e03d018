/// Something an operator should hear about while the store carries on: a -wal file that is damaged
/// or missing at start (`SideFiles`), a LOCK file deleted under a running server and taken again
/// (`DirectoryLock`). `description` is "PATH: MESSAGE".
public struct StorageNotice: Sendable, Equatable, CustomStringConvertible {
    public enum Level: Sendable, Equatable {
        /// Found at start; the store opened all the same.
        case warning
        /// Something outside RingCast interfered with the directory while it ran.
        case error
    }

    public var level: Level
    /// The file concerned.
    public var path: String
    public var message: String

    public init(level: Level, path: String, message: String) {
        self.level = level
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
