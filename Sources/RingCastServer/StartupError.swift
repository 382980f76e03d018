/// Why the server cannot start, in words a person can act on.
public struct StartupError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
