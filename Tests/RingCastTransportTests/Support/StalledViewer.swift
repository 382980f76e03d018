import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A WebSocket viewer that completes the opening handshake and then never reads again. Its
/// receive buffer is made small before it connects, so what the server sends it queues in the
/// server's socket, as it does for a browser tab that froze. The socket stays open until the
/// value is released.
final class StalledViewer: Sendable {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port`, upgrades on `path` and reads the `101` head (and whatever
    /// arrived with it); throws on any other answer.
    init(port: Int, path: String, receiveBufferBytes: Int32 = 4096) throws {
        let fd = try connectLoopback(port: port, timeout: 10, receiveBufferBytes: receiveBufferBytes)
        do {
            let request = Array(RawHTTPConnection.upgradeRequest(path).utf8)
            guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
                throw TestFailure("sending the upgrade: errno \(errno)")
            }
            var head: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !head.contains(subsequence: [13, 10, 13, 10]) {
                let count = recv(fd, &chunk, chunk.count, 0)
                guard count > 0 else { throw TestFailure("no answer to the upgrade (recv \(count), errno \(errno))") }
                head += chunk.prefix(count)
            }
            let text = String(decoding: head, as: UTF8.self)
            guard text.hasPrefix("HTTP/1.1 101") else { throw TestFailure("upgrade refused: \(text.prefix(200))") }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// The connection's TCP state as this side sees it (`TCP_INFO`'s first byte, Linux's
    /// `tcp_states.h`): 1 established, 7 closed (a reset arrived), 8 close-wait (a FIN arrived).
    var tcpState: UInt8 {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        // IPPROTO_TCP 6, TCP_INFO 11 (netinet/tcp.h, which Swift's Glibc module does not show).
        guard getsockopt(fd, 6, 11, &info, &length) == 0 else { return 0 }
        return info[0]
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<($0 + subsequence.count)].elementsEqual(subsequence) }
    }
}
