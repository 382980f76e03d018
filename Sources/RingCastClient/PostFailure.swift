/// Why a POST of `HTTPPoster` got no 2xx answer: curl's result code, typed where it is read. Each description
/// is one line for a log, e.g. `no answer within 5000 ms`.
public enum PostFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an `http://` or `https://` URL.
    case unsupportedScheme(String)
    /// The URL cannot be read as one.
    case invalidURL(String)
    /// The host did not resolve.
    case cannotResolve(host: String)
    /// No connection, or it failed or closed before the answer was complete: curl's reason.
    case connectionFailed(reason: String)
    /// The try was cut at its deadline.
    case timedOut(milliseconds: Int)
    /// The answer went past the cap (or announced a length beyond it), and the connection was dropped.
    case answerTooLarge(limit: Int)
    /// TLS could not be set up, or the certificate was not trusted: curl's reason.
    case tlsFailed(reason: String)
    /// The receiver answered with a status outside 2xx; a redirect is one (it is never followed).
    case httpStatus(Int)
    /// The poster stopped before the try could finish.
    case stopped
    /// libcurl could not be loaded (it is opened on first use, not linked): dlerror's text, or what it lacks.
    case libcurlMissing(String)
    /// Any other failure: curl's reason.
    case failed(reason: String)

    public var description: String {
        switch self {
        case .unsupportedScheme(let scheme): "scheme \"\(scheme)\" is not http or https"
        case .invalidURL(let reason): "not a URL: \(reason)"
        case .cannotResolve(let host): "cannot resolve \(host)"
        case .connectionFailed(let reason): "connection failed: \(reason)"
        case .timedOut(let milliseconds): "no complete answer within \(milliseconds) ms"
        case .answerTooLarge(let limit): "the answer is longer than \(limit) bytes; connection dropped"
        case .tlsFailed(let reason): "TLS failed: \(reason)"
        case .httpStatus(let status): "HTTP \(status)"
        case .stopped: "the server is stopping"
        case .libcurlMissing(let reason): "libcurl (libcurl4) is not installed: \(reason)"
        case .failed(let reason): reason
        }
    }
}
