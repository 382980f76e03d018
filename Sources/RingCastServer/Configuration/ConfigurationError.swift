/// A configuration problem, reported with the file, the key and what is wrong, so an operator
/// can fix it without reading source code.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var key: String
    public var message: String

    public init(file: String, key: String, message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    public var description: String {
        key.isEmpty ? "\(file): \(message)" : "\(file): \(key): \(message)"
    }
}
