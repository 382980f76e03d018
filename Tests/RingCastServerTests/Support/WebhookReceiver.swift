import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server that takes webhook POSTs: it reads each request (head and Content-Length body),
/// records it, calls `onRequest` and then answers as `answer` says, one connection at a time, on a thread of
/// its own until `stop()`.
final class WebhookReceiver: Sendable {
    struct Request: Sendable, Equatable {
        var head: String
        var body: String
    }

    /// How the receiver answers each request.
    enum Answer: Sendable {
        /// This status and an empty body.
        case status(Int)
        /// 200 and a body that never ends, 64 KiB at a time until the client hangs up: announced as
        /// `Content-Length: 1000000000000`, or chunked.
        case endless(announced: Bool)
        /// 200 with `Content-Length: 1000`, then one byte every `interval` seconds until the client hangs up.
        case trickle(interval: Double)
        /// 302 to `location`.
        case redirect(location: String)
    }

    let port: Int
    private let listener: Int32
    private let received = Mutex<[Request]>([])
    private let stopped = Mutex(false)
    /// Answer bytes sent, and the connections the client ended before their answer was complete.
    private let sent = Mutex((bytes: 0, cutByClient: 0))
    /// When the first request was read, and when a client first hung up on an answer, by the receiver's own
    /// thread: a test compares these, not the moments its own (perhaps starved) task looked.
    private let moments = Mutex((firstRequest: Date?.none, firstCut: Date?.none))

    convenience init(status: Int = 200, onRequest: @escaping @Sendable (Request) -> Void = { _ in }) throws {
        try self.init(answer: .status(status), onRequest: onRequest)
    }

    init(answer: Answer, onRequest: @escaping @Sendable (Request) -> Void = { _ in }) throws {
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
        let thread = Thread { [self] in serve(answer: answer, onRequest: onRequest) }
        thread.start()
    }

    /// The requests taken so far, in order.
    var requests: [Request] { received.withLock { $0 } }

    /// Answer bytes the receiver has sent so far.
    var bytesSent: Int { sent.withLock { $0.bytes } }

    /// Answers the client hung up on before they were complete (an endless or trickling one cut).
    var answersCut: Int { sent.withLock { $0.cutByClient } }

    /// When the first request was read (nil before).
    var firstRequestAt: Date? { moments.withLock { $0.firstRequest } }

    /// When a client first hung up on an unfinished answer (nil before).
    var firstCutAt: Date? { moments.withLock { $0.firstCut } }

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

    private func serve(answer: Answer, onRequest: @Sendable (Request) -> Void) {
        while !stopped.withLock({ $0 }) {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                break
            }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if let request = Self.read(fd) {
                moments.withLock { if $0.firstRequest == nil { $0.firstRequest = Date() } }
                received.withLock { $0.append(request) }
                onRequest(request)
                if !answerRequest(fd, answer) {
                    moments.withLock { if $0.firstCut == nil { $0.firstCut = Date() } }
                    sent.withLock { $0.cutByClient += 1 }
                }
            }
            Glibc.close(fd)
        }
        Glibc.close(listener)
    }

    /// Sends the answer; false when the client hung up before it was complete.
    private func answerRequest(_ fd: Int32, _ answer: Answer) -> Bool {
        func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
                sent.withLock { $0.bytes += count }
            }
            return true
        }
        switch answer {
        case .status(let status):
            return write(Array("HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        case .redirect(let location):
            return write(
                Array("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        case .endless(let announced):
            let head = announced ? "Content-Length: 1000000000000\r\n" : "Transfer-Encoding: chunked\r\n"
            guard write(Array("HTTP/1.1 200 OK\r\n\(head)\r\n".utf8)) else { return false }
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            let chunk = announced ? block : Array("10000\r\n".utf8) + block + Array("\r\n".utf8)
            while !stopped.withLock({ $0 }) {
                guard write(chunk) else { return false }
            }
            return true
        case .trickle(let interval):
            guard write(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".utf8)) else { return false }
            for _ in 0..<1000 {
                guard !stopped.withLock({ $0 }) else { return true }
                guard write([UInt8(ascii: "x")]) else { return false }
                // A pause that a hang-up ends early: poll for the client's close (its FIN reads as 0 bytes).
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, Int32(interval * 1000)) > 0 {
                    var byte: UInt8 = 0
                    if recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 { return false }
                }
            }
            return true
        }
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
