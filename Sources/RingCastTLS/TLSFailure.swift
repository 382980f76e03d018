/// Why a `TLSSession` failed, in OpenSSL's words where it has some.
public enum TLSFailure: Error, Sendable, Equatable {
    /// The session could not be set up: no context, unreadable CA certificates.
    case setup(String)
    /// The server's certificate did not verify: not trusted, expired, or for another name.
    case certificateRejected(String)
    /// The peer closed the connection.
    case closed
    /// The socket's timeout ran out.
    case timedOut
    /// A system call on the socket failed: the call and errno's text.
    case system(String)
    /// The TLS protocol failed (a handshake the server refused, a corrupt record).
    case protocolFailure(String)
}
