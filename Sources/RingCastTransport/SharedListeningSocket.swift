// The shim includes <sys/socket.h>, and a release build (whole-module) finds SOCK_NONBLOCK and
// SOCK_CLOEXEC only through it; a debug build found them through Glibc.
internal import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// A listening socket other servers may bind too (SO_REUSEPORT), for `sharePort`: lws 4.1.6 sets
/// SO_REUSEPORT only when it runs several service threads, which Debian's build (LWS_MAX_SMP 1)
/// never does, so a second server on the port would fail to bind.
///
/// Owns the descriptor until `release()` says libwebsockets has adopted it (lws then closes it
/// when that connection closes); closes it in `deinit` otherwise, so a server that fails to start
/// never leaks the port. Touched only by the thread that creates the server.
final class SharedListeningSocket {
    let descriptor: Int32
    /// The port bound (the kernel's choice when asked for 0).
    let port: Int
    private var owned = true

    /// Binds and listens, non-blocking and close-on-exec, with SO_REUSEADDR (as lws's own listener
    /// does) and, when `reusePort`, SO_REUSEPORT (no IPV6_V6ONLY change: "::" stays dual-stack
    /// where the system makes it so). Throws the same errors a server listening alone throws.
    /// Without `reusePort` (a server of several loops that does not share its port) a second
    /// server on the port fails to bind, as one lws listens on does.
    init(address: ListenAddress, host: String, port: Int, reusePort: Bool = true) throws(TransportError) {
        func failure(_ code: Int32) -> TransportError {
            .listenFailed(host: host, port: port, reason: ListenAddress.bindFailureReason(errno: code))
        }
        let flags = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        let fd = socket(address.isIPv6 ? AF_INET6 : AF_INET, flags, 0)
        guard fd >= 0 else { throw failure(errno) }
        var yes: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, size) == 0,
            !reusePort || setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &yes, size) == 0,
            address.bind(fd, port: port) == 0,
            listen(fd, SOMAXCONN) == 0,
            let bound = Self.boundPort(fd)
        else {
            let code = errno
            close(fd)
            throw failure(code)
        }
        self.descriptor = fd
        self.port = bound
    }

    deinit {
        if owned {
            close(descriptor)
        }
    }

    /// libwebsockets owns the descriptor from now on (or may: see `EventLoop.watch`).
    func release() {
        owned = false
    }

    private static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer -> Int? in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            default:
                return nil
            }
        }
    }
}

@available(*, unavailable)
extension SharedListeningSocket: Sendable {}
