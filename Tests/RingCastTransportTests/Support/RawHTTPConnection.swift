import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An HTTP/1.1 response as bytes arrived.
struct RawResponse {
    var status: Int
    var statusLine: String
    /// Lowercase names.
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A TCP socket connected to 127.0.0.1:`port`, whose reads and sends time out after `timeout`
/// seconds; `receiveBufferBytes`, when given, is set before it connects (so the window it offers
/// is small from the start).
func connectLoopback(port: Int, timeout: Double, receiveBufferBytes: Int32? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
    if var size = receiveBufferBytes {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
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
        Glibc.close(fd)
        throw TestFailure("connect to port \(port): errno \(code)")
    }
    return fd
}

/// A blocking TCP connection to 127.0.0.1 for tests that need exact bytes on the wire. Every read
/// has a timeout (SO_RCVTIMEO), so a test never hangs.
final class RawHTTPConnection {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(port: Int, timeout: Double = 5) throws {
        // The descriptor is stored only once connected: a class whose init throws after every
        // stored property is set still runs deinit, and closing here *and* there would close
        // whatever socket another thread (an lws context under test) opened in between.
        fd = try connectLoopback(port: port, timeout: timeout)
    }

    deinit {
        Glibc.close(fd)
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads one response: status line, headers, then Content-Length bytes (or to EOF without one).
    /// `ignoringBodyOfLength` reads only the head (the answer to a HEAD request).
    func readResponse(ignoringBodyOfLength headOnly: Bool = false) throws -> RawResponse {
        let head = try readHead()
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw TestFailure("bad status line \(statusLine)") }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body: [UInt8]
        if headOnly {
            body = []
        } else if let length = headers["content-length"].flatMap(Int.init) {
            body = try readExactly(length)
        } else if status == 101 || status == 100 || status == 204 || status == 304 {
            body = []
        } else {
            body = readToEnd()
        }
        return RawResponse(status: status, statusLine: statusLine, headers: headers, body: body)
    }

    /// Whether nobody is left holding `port` for a server that stopped (or never ran): a connection is refused,
    /// or whoever accepts it answers. Tests bind port 0 in parallel, so the kernel may hand the freed port to
    /// another test's server at once (or a connection to it may end up connected to itself); the stopped
    /// server's listening socket, were it still open, would accept and then say nothing.
    static func isGivenUp(port: Int) -> Bool {
        guard let connection = try? RawHTTPConnection(port: port, timeout: 2) else { return true }
        guard (try? connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) != nil else { return true }
        var buffer = [UInt8](repeating: 0, count: 1)
        return recv(connection.fd, &buffer, 1, 0) > 0
    }

    /// True when the server closed the connection (EOF) before `timeout` passed.
    func isClosedByServer() -> Bool {
        while true {
            if !pending.isEmpty {
                pending.removeAll()
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Everything the server sends until it closes the connection (throws if it does not close
    /// before the timeout).
    func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { pending.removeAll() }
        return pending
    }

    /// Reads server WebSocket frames (unmasked) until a close frame and returns its status code;
    /// nil when the connection ends without one.
    func readWebSocketCloseCode() throws -> Int? {
        while true {
            guard try fillTo(2) else { return nil }
            var length = Int(pending[1] & 0x7f)
            var headerLength = 2
            if length == 126 {
                guard try fillTo(4) else { return nil }
                length = Int(pending[2]) << 8 | Int(pending[3])
                headerLength = 4
            } else if length == 127 {
                guard try fillTo(10) else { return nil }
                length = pending[2..<10].reduce(0) { $0 << 8 | Int($1) }
                headerLength = 10
            }
            guard try fillTo(headerLength + length) else { return nil }
            let opcode = pending[0] & 0x0f
            let payload = Array(pending[headerLength..<(headerLength + length)])
            pending.removeFirst(headerLength + length)
            if opcode == 0x8 {
                return payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
            }
        }
    }

    /// Sends one client frame, masked unless `masked` is false (which RFC 6455 §5.1 forbids).
    func sendWebSocketFrame(opcode: UInt8, payload: [UInt8], masked: Bool = true) throws {
        precondition(payload.count < 65_536)
        let mask: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]
        let maskBit: UInt8 = masked ? 0x80 : 0
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else {
            frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        }
        if masked {
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            frame += payload
        }
        try send(frame)
    }

    private func fillTo(_ count: Int) throws -> Bool {
        while pending.count < count {
            guard try fill() else { return false }
        }
        return true
    }

    private func readHead() throws -> String {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let range = firstRange(of: terminator) {
                let head = Array(pending[..<range.lowerBound])
                pending.removeFirst(range.upperBound)
                return String(decoding: head, as: UTF8.self)
            }
            guard try fill() else { throw TestFailure("connection closed before a response head (\(pending.count) bytes)") }
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard try fill() else { throw TestFailure("connection closed after \(pending.count) of \(count) body bytes") }
        }
        let bytes = Array(pending.prefix(count))
        pending.removeFirst(count)
        return bytes
    }

    private func readToEnd() -> [UInt8] {
        while (try? fill()) == true {}
        defer { pending.removeAll() }
        return pending
    }

    /// Appends what arrives; false at EOF. Throws on timeout.
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count > 0 {
            pending.append(contentsOf: buffer.prefix(count))
            return true
        }
        if count == 0 { return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw TestFailure("timed out waiting for the server") }
        if errno == ECONNRESET { return false }
        throw TestFailure("recv: errno \(errno)")
    }

    private func firstRange(of needle: [UInt8]) -> Range<Int>? {
        guard pending.count >= needle.count else { return nil }
        for start in 0...(pending.count - needle.count) where pending[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }
}

extension RawHTTPConnection {
    /// Writes a request with Content-Length (unless `headers` already frame the body) and reads
    /// the response.
    func request(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let framed = headers.contains { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }
        if !framed && (!body.isEmpty || ["POST", "PUT", "PATCH"].contains(method)) {
            head += "Content-Length: \(body.count)\r\n"
        }
        try send(Array((head + "\r\n").utf8) + body)
        return try readResponse()
    }

    /// A WebSocket upgrade request as a browser sends it.
    static func upgradeRequest(_ target: String, extraHeaders: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Origin: http://127.0.0.1\r\n\(extraHeaders)\r\n"
    }
}
