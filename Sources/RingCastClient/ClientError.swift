/// Why a request to a RingCast server got no 2xx answer. Each description is one line a person can
/// act on, e.g. `cannot reach http://127.0.0.1:8080: connect: Connection refused`.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server's host name did not resolve: getaddrinfo's reason.
    case cannotResolve(host: String, reason: String)
    /// No connection could be opened, or a system call on it failed: the call and errno's text.
    case connectionFailed(server: String, reason: String)
    /// The server closed the connection before its answer was complete.
    case connectionClosed(server: String)
    /// The answer, or part of it, did not arrive within the client's timeout.
    case timedOut(server: String, seconds: Int)
    /// The https server's certificate was not accepted: OpenSSL's verdict (e.g. `self-signed
    /// certificate`, `hostname mismatch`).
    case certificateRejected(server: String, reason: String)
    /// TLS could not be set up for another reason (a CA file that cannot be read, a failed handshake).
    case tlsFailed(server: String, reason: String)
    /// The answer is not HTTP/1.1 as this client reads it (a chunked body, a broken status line).
    case invalidResponse(server: String, reason: String)
    /// The server answered with a status outside 2xx; `error` is its JSON error body, when it sent one.
    case httpStatus(Int, error: ServerError?)

    public var description: String {
        switch self {
        case .cannotResolve(let host, let reason):
            "cannot resolve \(host): \(reason)"
        case .connectionFailed(let server, let reason):
            "cannot reach \(server): \(reason)"
        case .connectionClosed(let server):
            "\(server) closed the connection before it had answered"
        case .timedOut(let server, let seconds):
            "no answer from \(server) within \(seconds) s"
        case .certificateRejected(let server, let reason):
            "\(server)'s certificate is not trusted: \(reason)"
        case .tlsFailed(let server, let reason):
            "TLS with \(server) failed: \(reason)"
        case .invalidResponse(let server, let reason):
            "\(server) did not answer with HTTP: \(reason)"
        case .httpStatus(let status, let error?):
            "HTTP \(status) \(error)"
        case .httpStatus(let status, nil):
            "HTTP \(status)"
        }
    }

    /// Whether the request never got through to the server: a connection problem, not an answer.
    public var isConnectionProblem: Bool {
        switch self {
        case .cannotResolve, .connectionFailed, .connectionClosed, .timedOut, .tlsFailed: true
        case .certificateRejected, .invalidResponse, .httpStatus: false
        }
    }
}
