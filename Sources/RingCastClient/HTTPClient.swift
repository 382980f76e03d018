import Foundation
import RingCastTLS

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 client on one keep-alive socket, for `ringcast push` and `get` and for
/// ringcast-bench's pushes and scrapes; plain HTTP with Content-Length bodies, which is what
/// RingCast speaks. URLSession would do, but it answers on its own queue some time after the
/// response was read, and the bench measures push-to-frame latency from the moment the 2xx was
/// read: here that moment is the return of the last recv(2). https goes through OpenSSL directly
/// (`TLSSession`, RingCastTLS). Every request is bounded by `timeoutSeconds` as a whole (a server trickling
/// its answer is cut too), and the answer read by `maximumHeadBytes` and `maximumBodyBytes`. It talks to the
/// user's own server; the server's webhooks, which reach anyone's, go through libcurl (`HTTPPoster`).
///
/// Used from one thread at a time.
public final class HTTPClient {
    /// A 2xx answer.
    public struct Response: Sendable {
        public var status: Int
        public var body: [UInt8]
        /// CLOCK_MONOTONIC in nanoseconds when the whole response had been read (the clock of
        /// ringcast-bench's `BenchSystem.now()`).
        public var receivedAt: UInt64

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let address: ServerAddress
    private let token: String?
    private let timeoutSeconds: Int
    private let tls: TLSOptions?
    /// The server as messages name it, e.g. `https://127.0.0.1:8443`.
    private let server: String
    private var descriptor: Int32 = -1
    private var session: TLSSession?
    private var buffer: [UInt8] = []
    /// CLOCK_MONOTONIC nanoseconds by which the request under way must have its answer.
    private var deadline: UInt64 = 0

    /// The longest answer head read, and the largest body: past them the answer is refused.
    public static let maximumHeadBytes = 64 * 1024
    public static let maximumBodyBytes = 32 * 1024 * 1024

    /// `token`, when given, goes with every request as `Authorization: Bearer`; `tls`, when
    /// given, makes every connection https (the certificate checked against `address.name`).
    public init(address: ServerAddress, token: String?, timeoutSeconds: Int = 5, tls: TLSOptions? = nil) {
        self.address = address
        self.token = token
        self.timeoutSeconds = timeoutSeconds
        self.tls = tls
        self.server = tls == nil ? address.description : "https://" + address.authority
    }

    deinit {
        disconnect()
    }

    /// Sends one request and reads the whole response; any status outside 2xx throws
    /// `ClientError.httpStatus` with the server's JSON error. A keep-alive socket the server
    /// closed in the meantime is reopened once. `headers` go as they are (the caller's own, e.g.
    /// `If-None-Match: *`; never from user input).
    public func request(
        _ method: String, _ path: String, json body: [UInt8]? = nil, headers: [(name: String, value: String)] = []
    ) throws(ClientError) -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(address.authority)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let message = Array((head + "\r\n").utf8) + (body ?? [])
        let reused = descriptor >= 0
        deadline = Self.now() + UInt64(max(1, timeoutSeconds)) * 1_000_000_000
        let response: Response
        do {
            response = try exchange(message)
        } catch .connectionClosed where reused {
            response = try exchange(message)
        }
        guard (200..<300).contains(response.status) else {
            throw .httpStatus(response.status, error: try? JSONDecoder().decode(ServerError.self, from: Data(response.body)))
        }
        return response
    }

    private func exchange(_ message: [UInt8]) throws(ClientError) -> Response {
        do {
            try connectIfNeeded()
            try send(message)
            return try readResponse()
        } catch {
            disconnect()
            throw error
        }
    }

    /// A TLS session's failure as this client reports it, naming the server.
    private func clientError(_ failure: TLSFailure) -> ClientError {
        switch failure {
        case .setup(let reason), .protocolFailure(let reason): .tlsFailed(server: server, reason: reason)
        case .certificateRejected(let reason): .certificateRejected(server: server, reason: reason)
        case .closed: .connectionClosed(server: server)
        case .timedOut: .timedOut(server: server, seconds: timeoutSeconds)
        case .system(let reason): .connectionFailed(server: server, reason: reason)
        }
    }

    /// The local port of the connection open now (nil when none is): with several servers sharing
    /// one port, it tells the connection apart from the server's side (ringcast-bench finds the
    /// node that accepted it).
    public var localPort: UInt16? {
        descriptor >= 0 ? Self.localPort(of: descriptor) : nil
    }

    /// The local port a socket is bound to (getsockname(2)), IPv4 or IPv6; nil when it has none.
    public static func localPort(of descriptor: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let family = Int32(storage.ss_family)
        guard result == 0, family == AF_INET || family == AF_INET6 else { return nil }
        // sin_port and sin6_port both sit at offset 2, in network byte order.
        return withUnsafeBytes(of: storage) { UInt16($0[2]) << 8 | UInt16($0[3]) }
    }

    /// Closes the socket; the next request opens a new one.
    public func disconnect() {
        session = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        buffer.removeAll()
    }

    private func connectIfNeeded() throws(ClientError) {
        guard descriptor < 0 else { return }
        descriptor = try Self.connect(to: address, server: server, timeoutSeconds: timeoutSeconds)
        if let tls {
            do throws(TLSFailure) {
                session = try TLSSession(socket: descriptor, serverName: address.name, caFile: tls.caFile)
            } catch {
                throw clientError(error)
            }
        }
    }

    /// A blocking TCP socket connected to `address`, Nagle off, each send and receive bounded by
    /// `timeoutSeconds` (and connect(2) too: SO_SNDTIMEO bounds it on Linux).
    public static func connect(to address: ServerAddress, timeoutSeconds: Int) throws(ClientError) -> Int32 {
        try connect(to: address, server: address.description, timeoutSeconds: timeoutSeconds)
    }

    /// `connect(to:timeoutSeconds:)`, naming the server as `server` in errors.
    private static func connect(to address: ServerAddress, server: String, timeoutSeconds: Int) throws(ClientError) -> Int32 {
        let socket = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw failure("socket", server: server, timeoutSeconds: timeoutSeconds) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        var noDelay: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let result = address.socketAddress.withUnsafeBytes { bytes in
            Glibc.connect(socket, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        guard result == 0 else {
            let error = failure("connect", server: server, timeoutSeconds: timeoutSeconds)
            close(socket)
            throw error
        }
        return socket
    }

    /// The `ClientError` for a system call that failed with `errno`: a timeout, the server closing
    /// the connection, or any other failure with errno's text.
    private static func failure(_ call: String, server: String, timeoutSeconds: Int) -> ClientError {
        let code = errno
        switch code {
        case EAGAIN, EINPROGRESS: return .timedOut(server: server, seconds: timeoutSeconds)
        case EPIPE, ECONNRESET: return .connectionClosed(server: server)
        default: return .connectionFailed(server: server, reason: "\(call): \(String(cString: strerror(code)))")
        }
    }

    private func send(_ bytes: [UInt8]) throws(ClientError) {
        if let session {
            do throws(TLSFailure) { return try session.send(bytes) } catch { throw clientError(error) }
        }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Self.failure("send", server: server, timeoutSeconds: timeoutSeconds) }
            sent += count
        }
    }

    /// Status line, headers, then exactly Content-Length bytes of body (RingCast always sends it), or a
    /// chunked body (what other servers, such as a webhook's receiver, may send instead).
    private func readResponse() throws(ClientError) -> Response {
        var headerEnd: Int?
        while true {
            headerEnd = Self.endOfHeaders(in: buffer)
            if headerEnd != nil { break }
            guard buffer.count <= Self.maximumHeadBytes else {
                throw .invalidResponse(server: server, reason: "a head longer than \(Self.maximumHeadBytes / 1024) KiB")
            }
            try receive()
        }
        let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw .invalidResponse(server: server, reason: "status line \"\(lines.first?.prefix(80) ?? "")\"")
        }
        var length = 0
        var closes = false
        var chunked = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                length = Int(value) ?? 0
                guard length <= Self.maximumBodyBytes else { throw tooLarge() }
            }
            if name == "connection", value.lowercased() == "close" { closes = true }
            if name == "transfer-encoding" {
                guard value.lowercased().hasSuffix("chunked") else {
                    throw .invalidResponse(server: server, reason: "transfer-encoding \"\(value)\"")
                }
                chunked = true
            }
        }
        let bodyStart = headerEnd! + 4
        if chunked {
            buffer.removeFirst(bodyStart)
            let body = try readChunks()
            if closes { disconnect() }
            return Response(status: status, body: body, receivedAt: Self.now())
        }
        while buffer.count < bodyStart + length {
            try receive()
        }
        let receivedAt = Self.now()
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        if closes { disconnect() }
        return Response(status: status, body: body, receivedAt: receivedAt)
    }

    /// A chunked body (RFC 9112 §7.1) from the start of `buffer`, trailers skipped; what follows it stays.
    private func readChunks() throws(ClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            let size = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
            guard let size, let count = Int(size, radix: 16), count >= 0 else {
                throw .invalidResponse(server: server, reason: "chunk size \"\(line.prefix(20))\"")
            }
            if count == 0 {
                while !(try readLine()).isEmpty {}
                return body
            }
            guard count <= Self.maximumBodyBytes - body.count else { throw tooLarge() }
            while buffer.count < count + 2 { try receive() }
            body += buffer[..<count]
            buffer.removeFirst(count + 2)
        }
    }

    /// One CRLF-ended line from the start of `buffer`, without its CRLF.
    private func readLine() throws(ClientError) -> String {
        while true {
            if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return line
            }
            guard buffer.count < 64 * 1024 else {
                throw .invalidResponse(server: server, reason: "a line longer than 64 KiB in a chunked body")
            }
            try receive()
        }
    }

    /// An answer body past `maximumBodyBytes`.
    private func tooLarge() -> ClientError {
        .invalidResponse(server: server, reason: "an answer larger than \(Self.maximumBodyBytes / (1024 * 1024)) MiB")
    }

    /// Reads what has arrived, waiting at most until the request's deadline.
    private func receive() throws(ClientError) {
        let now = Self.now()
        guard now < deadline else { throw .timedOut(server: server, seconds: timeoutSeconds) }
        let left = deadline - now
        // At least 1 µs: a zero SO_RCVTIMEO would wait forever.
        var timeout = timeval(tv_sec: Int(left / 1_000_000_000), tv_usec: max(1, Int(left % 1_000_000_000 / 1000)))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let session {
            do throws(TLSFailure) { return try session.receive(appendingTo: &buffer) } catch { throw clientError(error) }
        }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count == 0 { throw .connectionClosed(server: server) }
            guard count > 0 else { throw Self.failure("recv", server: server, timeoutSeconds: timeoutSeconds) }
            buffer.append(contentsOf: chunk[0..<count])
            return
        }
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Where the blank line that ends an HTTP head starts in `bytes` (its "\r\n\r\n"), or nil when
    /// the head has not all arrived.
    public static func endOfHeaders(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}

@available(*, unavailable)
extension HTTPClient: Sendable {}
