import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 response as the test client read it off the socket.
struct TestResponse {
    var status: Int
    /// As sent, e.g. "HTTP/1.1 404 Not Found".
    var statusLine = ""
    var headers: [String: String]  // lowercase names
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body))
    }

    /// The `code`, `message` and `field` of DESIGN's error body.
    var error: TestErrorBody.Detail? { (try? decode(TestErrorBody.self))?.error }
}

struct TestErrorBody: Decodable {
    struct Detail: Decodable, Equatable {
        var code: String
        var message: String
        var field: String?
    }

    var error: Detail
}

enum TestHTTPError: Error, CustomStringConvertible {
    case connect(String)
    case io(String)
    case badResponse(String)

    var description: String {
        switch self {
        case .connect(let text), .io(let text), .badResponse(let text): text
        }
    }
}

/// A deliberately plain HTTP client over a POSIX socket, so a test controls every byte it sends
/// (missing headers, odd content types, oversized bodies) and every wait has a timeout.
struct TestHTTPClient {
    let port: Int
    var timeoutSeconds = 5
    /// The `Host` header every request sends; nil for `127.0.0.1:PORT`, where the server listens.
    var host: String?

    func get(_ path: String, headers: [String: String] = [:]) throws -> TestResponse {
        try send("GET", path, headers: headers, body: nil)
    }

    func send(
        _ method: String,
        _ path: String,
        headers: [String: String] = ["Content-Type": "application/json"],
        body: String?
    ) throws -> TestResponse {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let bodyBytes = Array((body ?? "").utf8)
        if body != nil { request += "Content-Length: \(bodyBytes.count)\r\n" }
        request += "\r\n"
        return try exchange(Array(request.utf8) + bodyBytes)
    }

    /// Sends raw bytes and reads one response.
    func exchange(_ bytes: [UInt8]) throws -> TestResponse {
        let fd = try connectSocket()
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            // The server may answer (413) and close before it has read everything we send.
            if result <= 0 { break }
            sent += result
        }
        return try readResponse(fd)
    }

    private func connectSocket() throws -> Int32 {
        try connectLoopback(port: port, timeoutSeconds: timeoutSeconds)
    }

    private func readResponse(_ fd: Int32) throws -> TestResponse {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headerEnd: Int?
        var contentLength: Int?
        while true {
            if let end = headerEnd, let length = contentLength, buffer.count >= end + length { break }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count < 0 {
                throw TestHTTPError.io("recv failed or timed out (errno \(errno)) after \(buffer.count) bytes")
            }
            if count == 0 { break }
            buffer += chunk[0..<count]
            if headerEnd == nil, let start = Self.find([13, 10, 13, 10], in: buffer) {
                headerEnd = start + 4
                let head = String(decoding: buffer[0..<start], as: UTF8.self)
                contentLength = Self.headers(of: head)["content-length"].flatMap { Int($0) }
            }
        }
        guard let end = headerEnd else {
            throw TestHTTPError.badResponse("no complete header in \(buffer.count) bytes")
        }
        let head = String(decoding: buffer[0..<(end - 4)], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw TestHTTPError.badResponse("bad status line: \(statusLine)")
        }
        let body = Array(buffer[end...].prefix(contentLength ?? Int.max))
        return TestResponse(status: status, statusLine: String(statusLine), headers: Self.headers(of: head), body: body)
    }

    /// Sends raw bytes (several requests, say) on one connection and reads `count` responses, in
    /// order; each must carry a Content-Length, or be a 204 or 304 (which have no body).
    func pipeline(_ bytes: [UInt8], responses count: Int) throws -> [TestResponse] {
        let fd = try connectSocket()
        defer { close(fd) }
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw TestHTTPError.io("send failed: errno \(errno)") }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var responses: [TestResponse] = []
        while responses.count < count {
            if let start = Self.find([13, 10, 13, 10], in: buffer) {
                let head = String(decoding: buffer[0..<start], as: UTF8.self)
                let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
                let parts = (lines.first ?? "").split(separator: " ")
                let headers = Self.headers(of: head)
                let bodiless = parts.count >= 2 && (parts[1] == "204" || parts[1] == "304")
                guard parts.count >= 2, let status = Int(parts[1]),
                    let length = headers["content-length"].flatMap({ Int($0) }) ?? (bodiless ? 0 : nil)
                else { throw TestHTTPError.badResponse("response \(responses.count + 1) has no status or length: \(head)") }
                if buffer.count >= start + 4 + length {
                    let body = Array(buffer[(start + 4)..<(start + 4 + length)])
                    responses.append(TestResponse(status: status, statusLine: String(lines[0]), headers: headers, body: body))
                    buffer.removeFirst(start + 4 + length)
                    continue
                }
            }
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if received < 0 {
                throw TestHTTPError.io("recv failed or timed out (errno \(errno)) after \(responses.count) responses")
            }
            if received == 0 {
                throw TestHTTPError.badResponse("connection closed after \(responses.count) of \(count) responses")
            }
            buffer += chunk[0..<received]
        }
        return responses
    }

    private static func headers(of head: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            result[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
