import Foundation
import RingCastClient

#if canImport(Glibc)
    import Glibc
#endif

/// The newcomers of `ringcast-bench --scenario join-storm`: new viewers at a steady rate, each
/// connecting, reading its layout and keyframe, and closing at once with a close frame. One
/// thread waits on all of them with epoll; sockets are non-blocking from the start, so a slow
/// accept delays that join only, never the ones scheduled after it.
///
/// Created and used on its own thread.
final class BenchJoiner {
    /// What the joins scheduled for one window came to.
    struct Tally: Sendable {
        /// rate × window: the joins asked for.
        var scheduled = 0
        /// Joins whose connect(2) was issued.
        var started = 0
        /// Joins that received their keyframe (some after the window).
        var completed = 0
        /// Of those, the keyframes received inside the window.
        var completedInWindow = 0
        /// Joins that ended without a keyframe, by reason.
        var failed: [String: Int] = [:]
        /// Connect → keyframe received.
        var latency = BenchHistogram()
        /// Connect → layout received.
        var layoutLatency = BenchHistogram()
    }

    /// One join in progress.
    private final class Join {
        let descriptor: Int32
        let startedAt: UInt64
        var requestSent = false
        var upgraded = false
        var layoutSeen = false
        var buffer: [UInt8] = []

        init(descriptor: Int32, startedAt: UInt64) {
            self.descriptor = descriptor
            self.startedAt = startedAt
        }
    }

    private let address: ServerAddress
    private let request: [UInt8]
    private let reader: any BenchFrameReader
    private let timeout: UInt64
    private let timeoutSeconds: Double
    private let maximumInFlight: Int
    private let epoll: BenchEpoll
    private var joins: [UInt64: Join] = [:]
    private var tally = Tally()
    private var windowEnd: UInt64 = 0
    private var socketReader = BenchSocketReader()

    /// `path`: the viewer URL with its query; `maximumInFlight` bounds the sockets open at once.
    init(
        address: ServerAddress, path: String, reader: any BenchFrameReader, timeoutSeconds: Double, maximumInFlight: Int
    ) throws(BenchFailure) {
        self.address = address
        self.reader = reader
        self.timeoutSeconds = timeoutSeconds
        self.timeout = UInt64(timeoutSeconds * 1e9)
        self.maximumInFlight = maximumInFlight
        self.epoll = try BenchEpoll()
        // The key is fixed: the bench does not check Sec-WebSocket-Accept (see BenchSocketClient).
        request = Array(
            ("GET \(path) HTTP/1.1\r\nHost: \(address.authority)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: cmluZ2Nhc3Qgam9pbmVyIQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8
        )
    }

    deinit {
        for join in joins.values { close(join.descriptor) }
    }

    /// Starts `rate` joins a second, evenly spaced, from `window.start` to `window.end`
    /// (BenchSystem.now() nanoseconds), then waits for the last ones: at most the join timeout
    /// after the window.
    func run(rate: Double, window: (start: UInt64, end: UInt64)) -> Tally {
        windowEnd = window.end
        let spacing = 1e9 / rate
        tally.scheduled = Int(Double(window.end - window.start) / spacing)
        let giveUp = window.end + timeout
        var next = 0
        while true {
            let now = BenchSystem.now()
            while next < tally.scheduled, window.start + UInt64(Double(next) * spacing) <= now {
                if joins.count < maximumInFlight {
                    start(token: UInt64(next))
                } else {
                    tally.failed["not started: \(maximumInFlight) joins already in flight", default: 0] += 1
                }
                next += 1
            }
            if next == tally.scheduled, joins.isEmpty { break }
            expire(now: now, all: now >= giveUp)
            if now >= giveUp { break }
            let due = next < tally.scheduled ? window.start + UInt64(Double(next) * spacing) : giveUp
            let wait = due > now ? (due - now + 999_999) / 1_000_000 : 0
            epoll.wait(timeoutMilliseconds: Int32(min(wait, 50))) { token, events in
                if let join = joins[token] { handle(join, token: token, events: events) }
            }
        }
        return tally
    }

    // MARK: - One join

    private func start(token: UInt64) {
        let startedAt = BenchSystem.now()
        let flags = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        let descriptor = socket(address.family, flags, 0)
        guard descriptor >= 0 else {
            tally.failed["socket: \(String(cString: strerror(errno)))", default: 0] += 1
            return
        }
        tally.started += 1
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let result = address.socketAddress.withUnsafeBytes { bytes in
            connect(descriptor, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        let join = Join(descriptor: descriptor, startedAt: startedAt)
        guard result == 0 || errno == EINPROGRESS else {
            close(descriptor)
            tally.failed["connect: \(String(cString: strerror(errno)))", default: 0] += 1
            return
        }
        guard epoll.watch(descriptor, token: token, events: result == 0 ? BenchEpoll.readable : BenchEpoll.writable) else {
            close(descriptor)
            tally.failed["epoll_ctl: \(String(cString: strerror(errno)))", default: 0] += 1
            return
        }
        joins[token] = join
        if result == 0 { sendRequest(join, token: token) }
    }

    private func handle(_ join: Join, token: UInt64, events: UInt32) {
        guard join.requestSent else {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(join.descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { return end(token, "connect: \(String(cString: strerror(error)))") }
            guard epoll.rewatch(join.descriptor, token: token, events: BenchEpoll.readable) else {
                return end(token, "epoll_ctl: \(String(cString: strerror(errno)))")
            }
            return sendRequest(join, token: token)
        }
        let outcome = socketReader.read(join.descriptor, into: &join.buffer)
        if case .failed(let reason) = outcome { return end(token, reason) }
        let receivedAt = BenchSystem.now()
        guard parse(join, token: token, receivedAt: receivedAt) else { return }
        if case .closed = outcome {
            end(token, join.upgraded ? "closed by the server before the keyframe" : "closed by the server during the upgrade")
        }
    }

    /// The upgrade request fits any new socket's buffer, so it goes out whole or not at all.
    private func sendRequest(_ join: Join, token: UInt64) {
        let sent = request.withUnsafeBytes { send(join.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else {
            return end(token, sent < 0 ? "send: \(String(cString: strerror(errno)))" : "send: only \(sent) bytes went out")
        }
        join.requestSent = true
    }

    /// Reads the upgrade answer, then messages until the first frame. False when the join is over.
    private func parse(_ join: Join, token: UInt64, receivedAt: UInt64) -> Bool {
        if !join.upgraded {
            guard let headerEnd = HTTPClient.endOfHeaders(in: join.buffer) else { return true }
            let statusLine = String(decoding: join.buffer.prefix { $0 != 13 }, as: UTF8.self)
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[1] == "101" else {
                let status = parts.count >= 2 ? "HTTP \(parts[1])" : "not an HTTP answer"
                let body = String(decoding: join.buffer[(headerEnd + 4)...].prefix(120), as: UTF8.self)
                end(token, body.isEmpty ? status : "\(status): \(body)")
                return false
            }
            join.upgraded = true
            join.buffer.removeFirst(headerEnd + 4)
        }
        while let message = Self.nextMessage(in: &join.buffer) {
            switch message {
            case .data(let payload, let isBinary):
                let kind = payload.withUnsafeBytes { reader.sequence(in: $0, isBinary: isBinary) }
                switch kind {
                case .frame:
                    complete(join, token: token, at: receivedAt)
                    return false
                case .other:
                    if !join.layoutSeen {
                        join.layoutSeen = true
                        tally.layoutLatency.record(from: join.startedAt, to: receivedAt)
                    }
                case .unreadable:
                    end(token, "a message the frame reader cannot read")
                    return false
                }
            case .close(let code):
                end(token, code.map { "closed by the server with code \($0)" } ?? "closed by the server")
                return false
            case .control:
                break
            case .invalid(let reason):
                end(token, reason)
                return false
            }
        }
        return true
    }

    private func complete(_ join: Join, token: UInt64, at receivedAt: UInt64) {
        tally.completed += 1
        if receivedAt <= windowEnd { tally.completedInWindow += 1 }
        tally.latency.record(from: join.startedAt, to: receivedAt)
        // A close frame (1000, masked with a zero key, RFC 6455 §5.5.1), then the socket.
        let closeFrame: [UInt8] = [0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE8]
        _ = closeFrame.withUnsafeBytes { send(join.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(join.descriptor)
        joins.removeValue(forKey: token)
    }

    private func end(_ token: UInt64, _ reason: String) {
        guard let join = joins.removeValue(forKey: token) else { return }
        close(join.descriptor)  // which also takes it out of the epoll set
        tally.failed[reason, default: 0] += 1
    }

    /// Ends the joins older than the timeout, or every join when `all`.
    private func expire(now: UInt64, all: Bool) {
        for (token, join) in joins where all || now > join.startedAt + timeout {
            let seconds = BenchResult.format(timeoutSeconds, 0)
            end(token, join.upgraded ? "no keyframe within \(seconds) s" : "no upgrade answer within \(seconds) s")
        }
    }

    // MARK: - Frames

    private enum Message {
        case data([UInt8], isBinary: Bool)
        case close(Int?)
        case control
        case invalid(String)
    }

    /// Takes one whole server frame off the front of `buffer` (RFC 6455 §5.2), or nil when it has
    /// not all arrived. The server does not fragment messages; a fragment is reported as invalid.
    private static func nextMessage(in buffer: inout [UInt8]) -> Message? {
        guard buffer.count >= 2 else { return nil }
        let first = buffer[0]
        let second = buffer[1]
        guard second & 0x80 == 0 else { return .invalid("the server sent a masked frame") }
        var header = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            let value = buffer[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard value <= 16 << 20 else { return .invalid("a frame of \(value) bytes") }
            length = Int(value)
            header = 10
        }
        guard buffer.count >= header + length else { return nil }
        let payload = Array(buffer[header..<(header + length)])
        buffer.removeFirst(header + length)
        let opcode = first & 0x0F
        switch opcode {
        case 0x1, 0x2:
            guard first & 0x80 != 0 else { return .invalid("a fragmented message") }
            return .data(payload, isBinary: opcode == 0x2)
        case 0x8:
            return .close(payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil)
        case 0x9, 0xA:
            return .control
        default:
            return .invalid("an unexpected opcode \(opcode)")
        }
    }
}

@available(*, unavailable)
extension BenchJoiner: Sendable {}
