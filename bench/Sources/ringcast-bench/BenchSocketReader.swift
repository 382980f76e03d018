#if canImport(Glibc)
    import Glibc
#endif

/// recv(2) on the non-blocking sockets of one epoll loop (the viewer client's, the joiner's),
/// through one scratch buffer that loop owns.
///
/// Used from that loop's thread only.
struct BenchSocketReader {
    enum Outcome {
        /// The socket may hold more later.
        case open
        /// The server closed the connection (after whatever was appended).
        case closed
        /// recv(2) failed: why.
        case failed(String)
    }

    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    /// Appends what `descriptor` holds to `buffer`: until a read comes back short or the socket has
    /// nothing more, `reads` recv(2) calls at most.
    mutating func read(_ descriptor: Int32, into buffer: inout [UInt8], reads: Int = .max) -> Outcome {
        var done = 0
        while done < reads {
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            done += 1
            if count > 0 {
                buffer.append(contentsOf: scratch[0..<count])
                if count < scratch.count { break }
            } else if count == 0 {
                return .closed
            } else if errno == EAGAIN {
                break
            } else {
                return .failed("recv: \(String(cString: strerror(errno)))")
            }
        }
        return .open
    }
}
