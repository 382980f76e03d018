import RingCastClient

/// Why a command failed, in one line for a person (a bad value, a config error, the server's
/// answer): `RingCastCommand.main` prints it as `ringcast: MESSAGE`, with no usage text, and exits
/// with status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }

    /// `error` from a request to `server`: the server's own message when it answered with an
    /// error (`no board named "x"`), else what went wrong on the way there.
    init(_ error: ClientError, server: String) {
        switch error {
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
