import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// socket(2) or connect(2) to 127.0.0.1 failed with `errno` (ECONNREFUSED: nobody listens).
struct LoopbackRefusal: Error {
    let errno: Int32
}

/// A TCP socket connected to 127.0.0.1:`port`, with receive and send timeouts; the errno of a
/// failure, for clients that tell a refused connection from other failures.
/// `receiveBufferBytes` sets SO_RCVBUF before the connection (so its window follows it).
func openLoopback(port: Int, timeoutSeconds: Int, receiveBufferBytes: Int? = nil) throws(LoopbackRefusal) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw LoopbackRefusal(errno: errno) }
    if let receiveBufferBytes {
        var bytes = Int32(receiveBufferBytes)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
    }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard result == 0 else {
        let code = errno
        close(fd)
        throw LoopbackRefusal(errno: code)
    }
    return fd
}

/// A TCP socket connected to 127.0.0.1:`port`, with receive and send timeouts, for the tests'
/// hand-written clients.
func connectLoopback(port: Int, timeoutSeconds: Int, receiveBufferBytes: Int? = nil) throws -> Int32 {
    do {
        return try openLoopback(port: port, timeoutSeconds: timeoutSeconds, receiveBufferBytes: receiveBufferBytes)
    } catch {
        throw TestHTTPError.connect("connect to 127.0.0.1:\(port) failed: errno \(error.errno)")
    }
}
