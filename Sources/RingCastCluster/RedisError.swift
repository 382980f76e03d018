/// Why a Redis operation failed, in words an operator can act on. Every error that crosses this
/// module's boundary is one of these (typed throws).
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `redis://` URL that this client does not accept: the URL as given and what is wrong.
    case invalidEndpoint(url: String, reason: String)
    /// No connection could be made: `endpoint` is "host:port", `reason` hiredis's or the server's text.
    case connectFailed(endpoint: String, reason: String)
    /// A connection broke or timed out while sending or reading (the connection is closed; the next
    /// command reconnects first).
    case io(endpoint: String, reason: String)
    /// Redis answered with an error reply; the text as Redis wrote it (e.g. "ERR unknown command").
    case server(String)
    /// Redis answered with something this client did not expect (a reply of the wrong type or shape).
    case unexpectedReply(String)

    public var description: String {
        switch self {
        case .invalidEndpoint(let url, let reason): "invalid Redis URL \"\(url)\": \(reason)"
        case .connectFailed(let endpoint, let reason): "cannot connect to Redis at \(endpoint): \(reason)"
        case .io(let endpoint, let reason): "the connection to Redis at \(endpoint) failed: \(reason)"
        case .server(let message): "Redis answered with an error: \(message)"
        case .unexpectedReply(let message): "unexpected reply from Redis: \(message)"
        }
    }
}
