import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server on raw sockets that answers from a script, to drive the client into
/// answers RingCast never gives (chunked bodies, silence, a closed keep-alive connection).
/// Connection n, in the order they are accepted, gets `connections[n]`: for each entry it reads
/// one request head and writes the entry's bytes as they are, or for `nil` writes nothing and
/// waits for the client to leave. After its entries the connection is closed; connections beyond
/// the script are closed at once.
final class CannedHTTPServer: Sendable {
    let port: Int
    private let listener: Int32
    /// Shared with the thread, which must not keep the server alive (its deinit stops the thread).
    private final class Heads: Sendable {
        let list = Mutex<[String]>([])
    }

    private let heads = Heads()

    init(connections: [[String?]]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard listener >= 0, bound else {
            if listener >= 0 { Glibc.close(listener) }
            throw CannedServerFailure()
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let heads = heads
        Thread {
            var script = connections[...]
            // The thread closes the listener, once accept(2) fails: closed while the thread still
            // used it, its number could be handed to another test's socket and accepted from.
            defer { Glibc.close(listener) }
            while true {
                let descriptor = accept(listener, nil, nil)
                guard descriptor >= 0 else { return }
                Self.serve(descriptor, answers: script.popFirst() ?? [], heads: heads)
                Glibc.close(descriptor)
            }
        }.start()
    }

    deinit {
        // Makes the thread's accept(2), now or next, fail, so it closes the listener and returns.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// The request heads read so far, in order.
    var requestHeads: [String] { heads.list.withLock { $0 } }

    private static func serve(_ descriptor: Int32, answers: [String?], heads: Heads) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received: [UInt8] = []
        for answer in answers {
            while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                received += buffer.prefix(count)
            }
            let text = String(decoding: received, as: UTF8.self)
            let end = text.range(of: "\r\n\r\n")!.upperBound
            heads.list.withLock { $0.append(String(text[..<end])) }
            received = Array(text[end...].utf8)
            guard let answer else {
                while recv(descriptor, &buffer, buffer.count, 0) > 0 {}
                return
            }
            _ = Array(answer.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// `HTTP/1.1 STATUS` with `body` and its Content-Length.
    static func answer(_ status: Int, _ body: String, headers: String = "") -> String {
        "HTTP/1.1 \(status) Whatever\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}

struct CannedServerFailure: Error, CustomStringConvertible {
    var description: String { "the canned server could not listen on 127.0.0.1" }
}
