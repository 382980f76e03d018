import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server that takes webhook POSTs: it reads each request (head and Content-Length body),
/// records it, calls `onRequest` and then answers `status` with an empty body, on a thread of its own until
/// `stop()`.
final class WebhookReceiver: Sendable {
    struct Request: Sendable, Equatable {
        var head: String
        var body: String
    }

    let port: Int
    private let listener: Int32
    private let received = Mutex<[Request]>([])
    private let stopped = Mutex(false)

    init(status: Int = 200, onRequest: @escaping @Sendable (Request) -> Void = { _ in }) throws {
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
            throw TestHTTPError.connect("the webhook receiver could not listen")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve(status: status, onRequest: onRequest) }
        thread.start()
    }

    /// The requests taken so far, in order.
    var requests: [Request] { received.withLock { $0 } }

    /// Stops accepting; the thread ends at its next wake-up.
    func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Polls until `count` requests arrived, or throws after `timeout`.
    @discardableResult
    func waitForRequests(_ count: Int, timeout: Double = 5) async throws -> [Request] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let requests = requests
            if requests.count >= count { return requests }
            if Date() > deadline {
                throw ViewerError.timeout(
                    "timed out after \(timeout) s waiting for \(count) webhook requests, got \(requests.count)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func serve(status: Int, onRequest: @Sendable (Request) -> Void) {
        while !stopped.withLock({ $0 }) {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                break
            }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if let request = Self.read(fd) {
                received.withLock { $0.append(request) }
                onRequest(request)
                let answer = Array("HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            Glibc.close(fd)
        }
        Glibc.close(listener)
    }

    private static func read(_ fd: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        func headEnd() -> Int? {
            guard buffer.count >= 4 else { return nil }
            return (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }
        }
        while headEnd() == nil {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
        let end = headEnd()!
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        let length =
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        while buffer.count < end + 4 + length {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
        return Request(head: head, body: String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self))
    }
}
