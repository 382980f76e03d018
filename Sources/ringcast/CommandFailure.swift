import RingCastClient

/// Why a command failed, in one line for a person (a bad value, a config error, the server's
/// answer): `RingCastCommand.main` prints it as `ringcast: MESSAGE`, with no usage text, and exits
/// with status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    /// The HTTP status the server answered with, when the failure is its refusal.
    var status: Int?
    /// The server's error, when it sent one: its code (`invalid_value`) and field (`progress`) say what a command
    /// may do next (`push` sends a counter's number when a ring refuses a progress).
    var serverError: ServerError?

    init(_ description: String) { self.description = description }

    /// `error` from a request to `server`: the server's own message when it answered with an
    /// error (`no board named "x"`), else what went wrong on the way there.
    /// `tokenSource` is where the token sent came from, `--token` or `RINGCAST_TOKEN`; nil when none
    /// was sent. A refusal for want of a token (401, 403, by status and code, whatever the server's
    /// wording) names those two, since the server's own message can only name the header.
    init(_ error: ClientError, server: String, tokenSource: String? = nil) {
        if case .httpStatus(let status, let serverError) = error {
            self.status = status
            self.serverError = serverError
        }
        switch error {
        case .httpStatus(401, let serverError) where serverError == nil || serverError?.code == "unauthorized":
            if let tokenSource {
                description =
                    "\(server) refused the token from \(tokenSource)"
                    + (serverError.map { " (\($0.message))" } ?? "") + "; check --token or RINGCAST_TOKEN"
            } else {
                description = "\(server) needs a token for this: pass --token TOKEN or set RINGCAST_TOKEN"
            }
        case .httpStatus(403, let serverError) where serverError == nil || serverError?.code == "forbidden":
            let reason = serverError?.message ?? "\(server) answered HTTP 403"
            description =
                tokenSource.map { "\(reason) (the token from \($0) may not do this)" }
                ?? "\(reason) (pass a token that may, with --token or RINGCAST_TOKEN)"
        case .httpStatus(_, let serverError?):
            description = serverError.message
        case .httpStatus(let status, nil):
            description = "\(server) answered HTTP \(status)"
        case .cannotResolve:
            description = "cannot reach \(server): \(error)"
        case .certificateRejected(_, let reason) where reason.hasSuffix("mismatch"):
            description = "\(error) (the certificate does not name the host in --server)"
        case .certificateRejected:
            description = "\(error) (give the CA certificate that signed it with --cacert FILE)"
        case .connectionFailed, .connectionClosed, .timedOut, .tlsFailed, .invalidResponse:
            description = error.description
        }
    }
}
