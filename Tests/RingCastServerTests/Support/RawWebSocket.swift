import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A WebSocket client written byte by byte over a POSIX socket, so a test can send what no
/// well-behaved library would: data frames to a read-only endpoint, invalid UTF-8, oversized or
/// fragmented frames, garbage after the handshake.
final class RawWebSocket {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes read as frames so far (after the handshake).
    private var consumed = 0

    /// Connects and completes the opening handshake on `path`, with `Host: host` (default `127.0.0.1:PORT`).
    /// `receiveBufferBytes` sets the socket's SO_RCVBUF before it connects (a small one makes its window close soon
    /// when it stops reading).
    init(
        port: Int, path: String = "/ws?board=main&format=json", host: String? = nil, timeoutSeconds: Int = 5,
        receiveBufferBytes: Int? = nil
    ) throws {
        fd = try connectLoopback(port: port, timeoutSeconds: timeoutSeconds, receiveBufferBytes: receiveBufferBytes)
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try send(Array(request.utf8))
        let head = try readUntil([13, 10, 13, 10])
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw TestHTTPError.badResponse("no upgrade: \(String(decoding: head, as: UTF8.self))")
        }
    }

    deinit { close(fd) }

    /// Sends raw bytes.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard result > 0 else { throw TestHTTPError.io("send failed: errno \(errno)") }
            sent += result
        }
    }

    /// Sends one client frame (masked, as RFC 6455 requires of clients).
    func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        switch payload.count {
        case ..<126:
            frame.append(0x80 | UInt8(payload.count))
        case ..<65_536:
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        default:
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try send(frame)
    }

    /// Reads frames until the server's close frame and returns its status code (nil when the
    /// connection ended without one).
    func readCloseCode() throws -> Int? {
        try readUntilClose().code
    }

    /// Reads frames until the server's close frame: the data messages before it, and its status
    /// code (nil when the connection ended without one).
    func readUntilClose() throws -> (messages: [[UInt8]], code: Int?) {
        var messages: [[UInt8]] = []
        while true {
            guard let (opcode, payload) = try readFrame() else { return (messages, nil) }
            if opcode == 0x8 {
                return (messages, payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil)
            }
            if opcode == 0x1 || opcode == 0x2 { messages.append(payload) }
        }
    }

    /// Bytes received and not read as frames yet: what this client holds itself and what its kernel
    /// holds in the socket's receive queue (FIONREAD).
    func bytesWaiting() -> Int {
        var queued: Int32 = 0
        _ = ioctl(fd, UInt(FIONREAD), &queued)
        return buffer.count + Int(queued)
    }

    /// One server frame and its length on the wire (servers do not mask), or nil at end of stream.
    func readFrameCountingBytes() throws -> (opcode: UInt8, payload: [UInt8], wireBytes: Int)? {
        let before = consumed
        guard let (opcode, payload) = try readFrame() else { return nil }
        return (opcode, payload, consumed - before)
    }

    /// One server frame (servers do not mask), or nil at end of stream.
    private func readFrame() throws -> (UInt8, [UInt8])? {
        guard let header = try read(2) else { return nil }
        var length = Int(header[1] & 0x7f)
        if length == 126 {
            guard let extended = try read(2) else { return nil }
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            guard let extended = try read(8) else { return nil }
            length = extended.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = try read(length) else { return nil }
        return (header[0] & 0x0f, payload)
    }

    private func read(_ count: Int) throws -> [UInt8]? {
        while buffer.count < count {
            guard try fill() else { return nil }
        }
        let bytes = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        consumed += count
        return bytes
    }

    private func readUntil(_ marker: [UInt8]) throws -> [UInt8] {
        while true {
            if buffer.count >= marker.count {
                for start in 0...(buffer.count - marker.count) where buffer[start..<(start + marker.count)].elementsEqual(marker)
                {
                    let head = Array(buffer.prefix(start))
                    buffer.removeFirst(start + marker.count)
                    return head
                }
            }
            guard try fill() else { throw TestHTTPError.badResponse("connection closed during the handshake") }
        }
    }

    /// Reads what the socket has; false at end of stream (or a reset).
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
        if count < 0 {
            if errno == ECONNRESET { return false }
            throw TestHTTPError.io("recv failed or timed out (errno \(errno))")
        }
        if count == 0 { return false }
        buffer += chunk[0..<count]
        return true
    }
}
