import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 connection kept alive across requests, as a real client's pool keeps it, that
/// tells apart the ways a request can end: refused before anything was sent, a send that failed
/// part way, and a request sent in full that got no complete answer (end of stream, a reset, a
/// timeout or a truncated body) — the one a client cannot know whether it was applied.
final class KeepAliveConnection {
    enum Failure: Error, CustomStringConvertible {
        /// connect(2) failed: nobody listens (any more). Nothing was sent.
        case refused(errno: Int32)
        /// send(2) failed before the whole request was written.
        case sendFailed(errno: Int32)
        /// The whole request was written, but no complete answer came back.
        case noCompleteAnswer(String)

        var description: String {
            switch self {
            case .refused(let code): "connect refused (errno \(code))"
            case .sendFailed(let code): "send failed (errno \(code))"
            case .noCompleteAnswer(let what): "request sent, no complete answer: \(what)"
            }
        }
    }

    private let fd: Int32
    private let port: Int
    private var buffer: [UInt8] = []
    /// The server said `Connection: close` (or closed): open a new connection for the next request.
    private(set) var isClosed = false

    init(port: Int, timeoutSeconds: Int = 5) throws(Failure) {
        let fd: Int32
        do {
            fd = try openLoopback(port: port, timeoutSeconds: timeoutSeconds)
        } catch {
            throw .refused(errno: error.errno)
        }
        self.fd = fd
        self.port = port
    }

    deinit {
        Glibc.close(fd)
    }

    /// Sends one request with a JSON body and reads its answer.
    func send(_ method: String, _ path: String, body: String) throws(Failure) -> TestResponse {
        let bytes = Array(body.utf8)
        let head =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(bytes.count)\r\n\r\n"
        let request = Array(head.utf8) + bytes
        var sent = 0
        while sent < request.count {
            let result = request.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard result > 0 else { throw .sendFailed(errno: errno) }
            sent += result
        }
        return try readResponse()
    }

    private func readResponse() throws(Failure) -> TestResponse {
        var headEnd: Int?
        var length = 0
        var headers: [String: String] = [:]
        var statusLine = ""
        while true {
            if headEnd == nil, let end = Self.headEnd(in: buffer) {
                headEnd = end
                let head = String(decoding: buffer[0..<(end - 4)], as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n")
                statusLine = lines.first ?? ""
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                guard let text = headers["content-length"], let value = Int(text) else {
                    throw .noCompleteAnswer("an answer without Content-Length: \(statusLine)")
                }
                length = value
            }
            if let end = headEnd, buffer.count >= end + length {
                let parts = statusLine.split(separator: " ")
                guard parts.count >= 2, let status = Int(parts[1]) else {
                    throw .noCompleteAnswer("a bad status line: \(statusLine)")
                }
                let body = Array(buffer[end..<(end + length)])
                buffer.removeFirst(end + length)
                if headers["connection"]?.lowercased() == "close" { isClosed = true }
                return TestResponse(status: status, statusLine: statusLine, headers: headers, body: body)
            }
            var chunk = [UInt8](repeating: 0, count: 16_384)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count == 0 {
                isClosed = true
                throw .noCompleteAnswer("end of stream after \(buffer.count) bytes")
            }
            if count < 0 {
                let code = errno
                isClosed = true
                let what = code == ECONNRESET ? "connection reset" : code == EAGAIN ? "timed out" : "recv errno \(code)"
                throw .noCompleteAnswer("\(what) after \(buffer.count) bytes")
            }
            buffer += chunk[0..<count]
        }
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for start in 0...(bytes.count - 4)
        where bytes[start] == 13 && bytes[start + 1] == 10 && bytes[start + 2] == 13 && bytes[start + 3] == 10 {
            return start + 4
        }
        return nil
    }
}
