import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A one-connection WebSocket server written against raw sockets, for testing the client with
/// frames lws itself never sends (fragmented messages, pings in between, odd close codes).
final class RawWebSocketServer: Sendable {
    let port: Int
    private let listener: Int32
    private let finished = DispatchSemaphore(value: 0)
    /// True once the thread has closed the listener: after that its number may be another socket's.
    private let listenerClosed = ListenerClosed()

    /// Accepts one client, completes the handshake, writes `frames` (already encoded), then
    /// waits for the client to close.
    init(frames: [[UInt8]]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(listener)
            throw TestFailure("raw server could not listen")
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: address.sin_port))
        let finished = self.finished
        let listenerClosed = self.listenerClosed
        Thread {
            defer { finished.signal() }
            let fd = accept(listener, nil, nil)
            // The thread owns the listener: closed here, once accept(2) has returned, never while
            // it may still block on it (a descriptor closed under it could be reused by another
            // test's socket and accepted on).
            listenerClosed.value.withLock { closed in
                Glibc.close(listener)
                closed = true
            }
            guard fd >= 0 else { return }
            defer { Glibc.close(fd) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                request += buffer.prefix(count)
            }
            let key =
                String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")
                .first { $0.lowercased().hasPrefix("sec-websocket-key:") }?
                .split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces) ?? ""
            let accept = Data(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
            let response =
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
            var out = Array(response.utf8)
            for frame in frames { out += frame }
            _ = out.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // Read until the client has closed (or the timeout).
            while recv(fd, &buffer, buffer.count, 0) > 0 {}
        }.start()
    }

    deinit {
        // Wakes a thread still waiting in accept(2), which then closes the listener.
        listenerClosed.value.withLock { closed in
            if !closed { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    func waitUntilDone(timeout: Double = 5) -> Bool {
        finished.wait(timeout: .now() + timeout) == .success
    }

    /// An unmasked server frame.
    static func frame(fin: Bool, opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126:
            bytes.append(UInt8(payload.count))
        case ..<65536:
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        default:
            bytes.append(127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        return bytes + payload
    }
}

/// Whether `RawWebSocketServer`'s thread has closed its listener, shared with that thread.
private final class ListenerClosed: Sendable {
    let value = Mutex(false)
}

/// SHA-1 (FIPS 180-4), only for computing Sec-WebSocket-Accept in tests.
enum SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) * 8
        padded += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (UInt64($0) * 8)) }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            var w = (0..<16).map { index -> UInt32 in
                let base = chunk + index * 4
                return UInt32(padded[base]) << 24 | UInt32(padded[base + 1]) << 16 | UInt32(padded[base + 2]) << 8
                    | UInt32(padded[base + 3])
            }
            for index in 16..<80 {
                let value = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
                w.append(value << 1 | value >> 31)
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch index {
                case ..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case ..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case ..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h = [h[0] &+ a, h[1] &+ b, h[2] &+ c, h[3] &+ d, h[4] &+ e]
        }
        return h.flatMap { value in (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    }
}
