import Foundation
import RingCastClient

#if canImport(Glibc)
    import Glibc
#endif

/// One pushing thread of `ringcast-bench --scenario pushers`: a blocking HTTP/1.1 keep-alive
/// client that sends ready-made `PUT …/rings/R` requests one after the other, as fast as the
/// server answers, and tallies the answers read inside the measurement window.
///
/// HTTPClient would do the same job, but it builds each request's text and parses each answer
/// into strings; at thousands of pushes a second on a two-core machine that CPU comes out of the
/// server's share. Here a request is bytes prepared once, and an answer is read into one reused
/// buffer and looked at only for its status, `Content-Length` and `Connection: close`.
///
/// Created and used on its own thread.
final class BenchPusher {
    /// What one pusher saw during the window.
    struct Tally: Sendable {
        /// 2xx answers.
        var acknowledged = 0
        /// Other answers, by status.
        var rejected: [Int: Int] = [:]
        /// Pushes without an answer (connection refused or closed, timeout), by reason.
        var failed: [String: Int] = [:]
        /// Request written → answer read, 2xx only.
        var latency = BenchHistogram()

        mutating func merge(_ other: Tally) {
            acknowledged += other.acknowledged
            rejected.merge(other.rejected, uniquingKeysWith: +)
            failed.merge(other.failed, uniquingKeysWith: +)
            latency.merge(other.latency)
        }
    }

    private static let bufferSize = 64 * 1024
    private static let headerEnd: [UInt8] = Array("\r\n\r\n".utf8)
    private static let contentLength: [UInt8] = Array("content-length:".utf8)
    private static let connectionClose: [UInt8] = Array("connection: close".utf8)

    private let address: ServerAddress
    private let timeoutSeconds: Int
    private var descriptor: Int32 = -1
    private var buffer = [UInt8](repeating: 0, count: bufferSize)
    private var filled = 0

    init(address: ServerAddress, timeoutSeconds: Int) {
        self.address = address
        self.timeoutSeconds = timeoutSeconds
    }

    deinit {
        disconnect()
    }

    /// Sends `requests(k)` for k = 0, 1, 2 … until `window.end`, counting what was answered
    /// between `window.start` and `window.end` (BenchSystem.now() nanoseconds).
    func run(window: (start: UInt64, end: UInt64), requests: (Int) -> [UInt8]) -> Tally {
        var tally = Tally()
        var index = 0
        while true {
            let now = BenchSystem.now()
            guard now < window.end else { break }
            let outcome = push(requests(index))
            index += 1
            let answered = BenchSystem.now()
            let inWindow = answered >= window.start && answered <= window.end
            switch outcome {
            case .answered(let status, let written) where (200..<300).contains(status):
                guard inWindow else { continue }
                tally.acknowledged += 1
                tally.latency.record(from: written, to: answered)
            case .answered(let status, _):
                if inWindow { tally.rejected[status, default: 0] += 1 }
            case .failed(let reason):
                if inWindow { tally.failed[reason, default: 0] += 1 }
                // A server that refuses or drops connections would otherwise spin this loop.
                usleep(10_000)
            }
        }
        disconnect()
        return tally
    }

    private enum Outcome {
        /// `written`: BenchSystem.now() when the whole request had been sent.
        case answered(status: Int, written: UInt64)
        case failed(String)
    }

    private func push(_ request: [UInt8]) -> Outcome {
        if descriptor < 0, let failure = connect() { return .failed(failure) }
        var sent = 0
        while sent < request.count {
            let count = request.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return fail("send: \(String(cString: strerror(errno)))") }
            sent += count
        }
        let written = BenchSystem.now()
        switch readAnswer() {
        case .success(let status): return .answered(status: status, written: written)
        case .failure(let failure): return fail(failure.description)
        }
    }

    private func fail(_ reason: String) -> Outcome {
        disconnect()
        return .failed(reason)
    }

    /// Nil on success, else why not.
    private func connect() -> String? {
        do {
            descriptor = try HTTPClient.connect(to: address, timeoutSeconds: timeoutSeconds)
            return nil
        } catch {
            return error.description
        }
    }

    private func disconnect() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        filled = 0
    }

    /// Reads one answer: status line and headers, then `Content-Length` bytes of body, which are
    /// skipped. Returns the status.
    private func readAnswer() -> Result<Int, BenchFailure> {
        var searched = 0
        var end: Int?
        while end == nil {
            end = Self.find(Self.headerEnd, in: buffer, from: searched, to: filled)
            if end != nil { break }
            searched = max(0, filled - 3)
            guard filled < buffer.count else { return .failure(BenchFailure("an answer's header over 64 KiB")) }
            if let failure = receive(into: filled) { return .failure(failure) }
        }
        let headerLength = end! + Self.headerEnd.count
        // "HTTP/1.1 200 OK": the status is bytes 9 to 11.
        guard headerLength > 12, buffer[0..<7].elementsEqual("HTTP/1.".utf8),
            let status = Int(String(decoding: buffer[9..<12], as: UTF8.self))
        else {
            return .failure(BenchFailure("not an HTTP answer: \(String(decoding: buffer[0..<min(filled, 40)], as: UTF8.self))"))
        }
        let bodyLength = Self.headerValue(Self.contentLength, in: buffer, upTo: end!).flatMap { Int($0) } ?? 0
        let closes = Self.find(Self.connectionClose, in: buffer, from: 0, to: end!, caseInsensitive: true) != nil
        // Skip the body, reading more as needed, without keeping more than the buffer holds.
        var remaining = headerLength + bodyLength
        while remaining > filled {
            remaining -= filled
            filled = 0
            if let failure = receive(into: 0) { return .failure(failure) }
        }
        buffer.withUnsafeMutableBytes { bytes in
            bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + remaining, byteCount: filled - remaining)
        }
        filled -= remaining
        if closes { disconnect() }
        return .success(status)
    }

    /// One recv(2) into the buffer at `offset`; nil on success.
    private func receive(into offset: Int) -> BenchFailure? {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + offset, $0.count - offset, 0) }
            if count < 0, errno == EINTR { continue }
            if count == 0 { return BenchFailure("the server closed the connection") }
            guard count > 0 else {
                return errno == EAGAIN ? BenchFailure("no answer within \(timeoutSeconds) s") : .errno("recv")
            }
            filled = offset + count
            return nil
        }
    }

    /// The trimmed value of the header `name` (lowercase, with its colon) before `end`.
    private static func headerValue(_ name: [UInt8], in bytes: [UInt8], upTo end: Int) -> String? {
        guard let start = find(name, in: bytes, from: 0, to: end, caseInsensitive: true) else { return nil }
        var valueEnd = start + name.count
        while valueEnd < end, bytes[valueEnd] != 13 { valueEnd += 1 }
        return String(decoding: bytes[(start + name.count)..<valueEnd], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// The first index of `pattern` in `bytes[from..<to]`; ASCII letters of `bytes` compared in
    /// lowercase when `caseInsensitive` (the pattern is lowercase).
    private static func find(
        _ pattern: [UInt8], in bytes: [UInt8], from start: Int, to end: Int, caseInsensitive: Bool = false
    ) -> Int? {
        guard end - start >= pattern.count else { return nil }
        for index in start...(end - pattern.count) {
            var matches = true
            for offset in 0..<pattern.count {
                var byte = bytes[index + offset]
                if caseInsensitive, (65...90).contains(byte) { byte += 32 }
                if byte != pattern[offset] {
                    matches = false
                    break
                }
            }
            if matches { return index }
        }
        return nil
    }
}

@available(*, unavailable)
extension BenchPusher: Sendable {}
