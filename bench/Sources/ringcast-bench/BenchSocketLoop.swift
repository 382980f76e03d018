import Foundation
import RingCastClient

#if canImport(Glibc)
    import Glibc
#endif

/// The thread side of `BenchSocketClient`: its sockets on an epoll set, the upgrade answer, and
/// frame parsing. Created and used on the client's thread only.
final class BenchSocketLoop {
    /// One viewer's socket and what has been received but not yet parsed.
    private final class Connection {
        let viewer: Int
        let descriptor: Int32
        /// The upgrade answer (101) has been read.
        var isOpen = false
        var buffer: [UInt8] = []
        /// A fragmented message being reassembled (the server does not fragment today).
        var fragments: [UInt8] = []
        var fragmentsAreBinary = false

        init(viewer: Int, descriptor: Int32) {
            self.viewer = viewer
            self.descriptor = descriptor
        }
    }

    /// Larger messages end the connection (frames are a few KiB).
    private static let largestMessage = 16 << 20
    /// recv(2) calls per socket per wake-up, so one busy viewer cannot starve the others.
    private static let readsPerWake = 4

    private let recorder: BenchRecorder
    private let epoll: BenchEpoll
    private var connections: [Int: Connection] = [:]
    private var socketReader = BenchSocketReader()

    init(recorder: BenchRecorder) throws(BenchFailure) {
        self.recorder = recorder
        self.epoll = try BenchEpoll()
    }

    /// Takes over a connected, non-blocking socket whose upgrade request has been sent.
    func adopt(viewer: Int, descriptor: Int32) {
        guard epoll.watch(descriptor, token: UInt64(viewer)) else {
            close(descriptor)
            return recorder.ended(viewer: viewer, reason: "epoll_ctl: \(String(cString: strerror(errno)))")
        }
        connections[viewer] = Connection(viewer: viewer, descriptor: descriptor)
    }

    /// Waits up to `timeoutMilliseconds` for sockets with data and reads each of them.
    func poll(timeoutMilliseconds: Int32) {
        epoll.wait(timeoutMilliseconds: timeoutMilliseconds) { token, _ in
            if let connection = connections[Int(token)] { readable(connection) }
        }
    }

    /// Sends each open viewer a close frame (1000, going normally) and closes every socket.
    func closeAll() {
        for connection in connections.values {
            if connection.isOpen {
                send(Self.maskedFrame(opcode: 0x8, payload: [0x03, 0xE8]), on: connection)
            }
            close(connection.descriptor)
        }
        connections.removeAll()
    }

    // MARK: - Events

    private func readable(_ connection: Connection) {
        let outcome = socketReader.read(connection.descriptor, into: &connection.buffer, reads: Self.readsPerWake)
        if case .failed(let reason) = outcome { return end(connection, reason: reason) }
        guard parse(connection) else { return }
        if case .closed = outcome {
            end(
                connection,
                reason: connection.isOpen
                    ? "closed by the server without a close frame" : "the server closed the connection during the upgrade")
        }
    }

    /// Consumes the upgrade response and every whole frame in the buffer. False when the
    /// connection ended.
    private func parse(_ connection: Connection) -> Bool {
        if !connection.isOpen {
            guard let headerEnd = HTTPClient.endOfHeaders(in: connection.buffer) else { return true }
            let statusLine = String(decoding: connection.buffer.prefix { $0 != 13 }, as: UTF8.self)
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[1] == "101" else {
                let status = parts.count >= 2 ? "HTTP \(parts[1])" : "not an HTTP response"
                let body = String(decoding: connection.buffer[(headerEnd + 4)...].prefix(200), as: UTF8.self)
                end(connection, reason: body.isEmpty ? status : "\(status): \(body)")
                return false
            }
            connection.isOpen = true
            connection.buffer.removeFirst(headerEnd + 4)
            recorder.opened(viewer: connection.viewer)
        }
        var consumed = 0
        var closeCode: Int?? = nil
        var pong: [UInt8]?
        var failure: String?
        connection.buffer.withUnsafeBytes { bytes in
            while failure == nil, closeCode == nil {
                // RFC 6455 §5.2: FIN and opcode, mask bit and 7-bit length, then 16 or 64 bits.
                let available = bytes.count - consumed
                guard available >= 2 else { return }
                let first = bytes[consumed]
                let second = bytes[consumed + 1]
                guard second & 0x80 == 0 else {
                    failure = "the server sent a masked frame"
                    return
                }
                var header = 2
                var length = Int(second & 0x7F)
                if length == 126 {
                    guard available >= 4 else { return }
                    length = Int(bytes[consumed + 2]) << 8 | Int(bytes[consumed + 3])
                    header = 4
                } else if length == 127 {
                    guard available >= 10 else { return }
                    var value: UInt64 = 0
                    for offset in 2..<10 { value = value << 8 | UInt64(bytes[consumed + offset]) }
                    guard value <= UInt64(Self.largestMessage) else {
                        failure = "a frame of \(value) bytes"
                        return
                    }
                    length = Int(value)
                    header = 10
                }
                guard available >= header + length else { return }
                let payload = UnsafeRawBufferPointer(rebasing: bytes[(consumed + header)..<(consumed + header + length)])
                consumed += header + length
                let isFinal = first & 0x80 != 0
                switch first & 0x0F {
                case 0x1, 0x2:
                    if isFinal {
                        recorder.received(payload, isBinary: first & 0x0F == 0x2, viewer: connection.viewer)
                    } else {
                        connection.fragments = Array(payload)
                        connection.fragmentsAreBinary = first & 0x0F == 0x2
                    }
                case 0x0:
                    connection.fragments.append(contentsOf: payload)
                    guard connection.fragments.count <= Self.largestMessage else {
                        failure = "a message over \(Self.largestMessage) bytes"
                        return
                    }
                    if isFinal {
                        connection.fragments.withUnsafeBytes { message in
                            recorder.received(message, isBinary: connection.fragmentsAreBinary, viewer: connection.viewer)
                        }
                        connection.fragments = []
                    }
                case 0x8:
                    closeCode = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
                case 0x9:
                    pong = Array(payload)
                case 0xA:
                    break
                default:
                    failure = "an unknown opcode \(first & 0x0F)"
                }
            }
        }
        if let failure {
            end(connection, reason: failure)
            return false
        }
        if let pong {
            send(Self.maskedFrame(opcode: 0xA, payload: pong), on: connection)
        }
        if let closeCode {
            send(
                Self.maskedFrame(opcode: 0x8, payload: closeCode.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []), on: connection
            )
            end(connection, reason: closeCode.map { "closed by the server with code \($0)" } ?? "closed by the server")
            return false
        }
        if consumed == connection.buffer.count {
            connection.buffer.removeAll(keepingCapacity: true)
        } else if consumed > 0 {
            connection.buffer.removeFirst(consumed)
        }
        return true
    }

    private func end(_ connection: Connection, reason: String) {
        close(connection.descriptor)  // which also takes it out of the epoll set
        connections.removeValue(forKey: connection.viewer)
        recorder.ended(viewer: connection.viewer, reason: reason)
    }

    // MARK: - Writing

    /// Writes a small message whole; false if the socket would not take it at once.
    @discardableResult
    private func send(_ bytes: [UInt8], on connection: Connection) -> Bool {
        let sent = bytes.withUnsafeBytes { Glibc.send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count
    }

    /// A client frame must be masked (RFC 6455 §5.3); an all-zero key leaves the payload as is.
    /// Control frames only: the payload is at most 125 bytes.
    private static func maskedFrame(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        [0x80 | opcode, 0x80 | UInt8(min(payload.count, 125)), 0, 0, 0, 0] + payload.prefix(125)
    }
}
