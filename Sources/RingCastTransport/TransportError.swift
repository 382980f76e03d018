/// Why a server or client could not be set up.
public enum TransportError: Error, Sendable, CustomStringConvertible {
    /// libwebsockets refused to create its context (out of memory, bad option).
    case contextCreationFailed(String)
    /// The listening socket could not be opened on host:port.
    case listenFailed(host: String, port: Int, reason: String)
    /// A configuration value is unusable; the message names it and what was expected.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .contextCreationFailed(let message):
            return "could not start libwebsockets: \(message)"
        case .listenFailed(let host, let port, let reason):
            let shown = host.contains(":") ? "[\(host)]" : host
            return "cannot listen on \(shown):\(port): \(reason)"
        case .invalidConfiguration(let message):
            return "invalid transport configuration: \(message)"
        }
    }
}
