import Foundation
import RingCastTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A viewer frame that viewers are not allowed to send, and the close codes that answer it.
struct HostileFrame: CustomTestStringConvertible, Sendable {
    var name: String
    var frames: [(opcode: UInt8, payload: [UInt8], fin: Bool)]
    var codes: Set<Int>

    var testDescription: String { name }
}

@Suite("Hostile clients")
struct HostileClientTests {
    static let frames: [HostileFrame] = [
        HostileFrame(name: "text data", frames: [(0x1, Array("hello".utf8), true)], codes: [1003]),
        HostileFrame(name: "binary data", frames: [(0x2, [1, 2, 3], true)], codes: [1003]),
        HostileFrame(name: "invalid UTF-8", frames: [(0x1, [0xc3, 0x28, 0xff], true)], codes: [1007]),
        HostileFrame(name: "oversized frame", frames: [(0x2, [UInt8](repeating: 7, count: 1 << 20), true)], codes: [1003, 1009]),
        HostileFrame(
            name: "fragmented text", frames: [(0x1, Array("par".utf8), false), (0x0, Array("ts".utf8), true)], codes: [1003]),
        HostileFrame(name: "reserved opcode", frames: [(0x3, [], true)], codes: [1002, 1003]),
    ]

    @Test(arguments: frames)
    func viewerSendingData_isClosedWithTheRightCode_andHealthyViewersCarryOn(_ hostile: HostileFrame) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let healthy = TestViewer(client: client, port: server.port)
        try await healthy.waitUntil("keyframe") { $0.count >= 2 }

        let raw = try RawWebSocket(port: server.port)
        for frame in hostile.frames {
            try? raw.sendFrame(opcode: frame.opcode, payload: frame.payload, fin: frame.fin)
        }
        let code = try raw.readCloseCode()
        #expect(code.map { hostile.codes.contains($0) } ?? false, "close code \(String(describing: code))")

        let response = try server.http.send(
            "PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":0.3},"animation":{"curve":"linear","duration":0.2}}"#
        )
        #expect(response.status == 200)
        try await healthy.waitUntil("the push") { $0.last?.frame?[ring: "move"]?.p == 0.3 }
    }

    @Test func garbageAfterTheHandshake_endsThatConnectionOnly() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let raw = try RawWebSocket(port: server.port)
        // An unmasked frame with a reserved bit set: a protocol error from a client.
        try raw.send([0xf1, 0x05] + Array("junk!".utf8) + [UInt8](repeating: 0xff, count: 64))
        let code = try raw.readCloseCode()
        #expect(code == nil || code == 1002 || code == 1003, "close code \(String(describing: code))")
        #expect(try server.http.get("/healthz").status == 200)
    }

    @Test func slowlorisHTTPClient_isTimedOut() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        // Headers that never finish.
        let socket = try RawSocket(port: server.port, timeoutSeconds: 30)
        try socket.send(Array("GET /api/v1/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8))
        let started = Date()
        #expect(socket.waitForClose(), "the server kept a half-sent request open")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(try server.http.get("/healthz").status == 200)
    }

    @Test func thousandsOfConnectDisconnectCycles_leaveMemoryWhereItStarted() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-churn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await TestProcess(["serve", "--port", "0", "--data-dir", data.path, "--log-level", "error"])
        defer { serve.signal(SIGKILL) }
        let line = try await serve.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })

        // Blocking handshakes, on a thread of their own (not one of the few cooperative threads).
        @Sendable func cycles(_ count: Int) throws {
            for _ in 0..<count {
                let viewer = try RawWebSocket(port: port)
                _ = viewer  // the handshake completed; closing the socket ends the connection
            }
        }
        try await onOwnThread { try cycles(500) }  // warm up allocator pools and lws's tables
        let before = try #require(residentKilobytes(of: serve.pid))
        try await onOwnThread { try cycles(2000) }
        // Let the server notice the last disconnects.
        #expect(try TestHTTPClient(port: port).get("/healthz").status == 200)
        let after = try #require(residentKilobytes(of: serve.pid))
        #expect(after - before < 4096, "RSS grew from \(before) KiB to \(after) KiB over 2000 cycles")
    }

    private func residentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    }
}

/// A bare TCP connection, for clients that never complete a request.
final class RawSocket {
    private let fd: Int32

    init(port: Int, timeoutSeconds: Int) throws {
        fd = try connectLoopback(port: port, timeoutSeconds: timeoutSeconds)
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw TestHTTPError.io("send failed") }
    }

    /// True when the peer closes (or resets) before the receive timeout.
    func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}
