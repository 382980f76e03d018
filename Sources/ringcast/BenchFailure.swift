#if canImport(Glibc)
    import Glibc
#endif

/// Why `ringcast bench` stopped: printed as the message alone, exit status 1.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    /// The server ended a keep-alive connection (worth one retry on a fresh socket).
    var isClosedByPeer = false

    init(_ description: String) { self.description = description }

    static let closedByPeer: BenchFailure = {
        var failure = BenchFailure("the server closed the connection")
        failure.isClosedByPeer = true
        return failure
    }()

    /// A failed system call, with errno's text.
    static func errno(_ call: String) -> BenchFailure {
        let code = Glibc.errno
        var failure = BenchFailure("\(call): \(String(cString: strerror(code)))")
        failure.isClosedByPeer = code == EPIPE || code == ECONNRESET
        return failure
    }
}
