import Foundation
import RingCastTransport
import Synchronization
import TLSTestSupport
import Testing

/// Issue 21, item 3: a viewer that stops reading may hold only a small kernel send buffer, and
/// one evicted for it gives that memory back at once (an abortive close), not when its client
/// finally goes away. Read from `/proc/net/sockstat`, which counts every socket on the machine:
/// the bounds are generous and each reading is compared with one taken just before.
@Suite("Kernel memory of viewers that stop reading")
struct ViewerMemoryTests {
    static let viewers = 300

    @Test func threeHundredViewersThatStopReading_holdLittleKernelMemory_andReleaseItWhenEvicted() async throws {
        guard let baseline = await KernelTCPMemory.settledBytes() else {
            Issue.record("/proc/net/sockstat has no TCP mem line")
            return
        }
        let server = try TestServer {
            $0.stallTimeout = 2
            $0.pingInterval = 0
        }
        defer { server.stop() }
        let channel = "memory-\(UUID().uuidString)"
        let port = server.port
        let stalled = try await onOwnThread {
            try (0..<Self.viewers).map { _ in try StalledViewer(port: port, path: "/ws?channel=\(channel)") }
        }
        #expect(await eventually(timeout: 10) { (try? server.onServiceThread { $0.viewerCount(of: channel) }) == Self.viewers })

        // Messages larger than any send buffer, so each viewer's socket fills with the first ones.
        let message = EchoDelegate.pattern(256 << 10)
        let stop = Mutex(false)
        defer { stop.withLock { $0 = true } }
        server.server.perform { loop in
            func tick() {
                guard !stop.withLock({ $0 }) else { return }
                loop.publish(OutgoingMessage(binary: message), to: channel)
                loop.schedule(after: 0.05, tick)
            }
            tick()
        }

        // The most the machine's TCP memory reached while they stalled, until all were evicted.
        var peak = baseline
        let deadline = Date().addingTimeInterval(30)
        while server.delegate.disconnects.withLock({ $0.count }) < Self.viewers, Date() < deadline {
            if let now = KernelTCPMemory.bytes() { peak = max(peak, now) }
            try await Task.sleep(for: .milliseconds(50))
        }
        stop.withLock { $0 = true }
        #expect(server.delegate.disconnects.withLock { $0.count } == Self.viewers)
        #expect(try server.onServiceThread { $0.statistics.viewersClosedWhileStalled } == UInt64(Self.viewers))

        // Back near the start while every client still holds its socket open: the server's side
        // must have let go of what it had queued.
        var after = Int.max
        _ = await eventually(timeout: 10) {
            after = KernelTCPMemory.bytes() ?? .max
            return after - baseline < 64 << 20
        }
        let mebibyte = Double(1 << 20)
        let figures = String(
            format: "TCP memory before %.1f MiB, peak %.1f MiB (%.0f KiB per viewer), after eviction %.1f MiB",
            Double(baseline) / mebibyte, Double(peak) / mebibyte, Double(peak - baseline) / Double(Self.viewers) / 1024,
            Double(after) / mebibyte)
        print(figures)
        #expect(after - baseline < 64 << 20, "\(figures)")
        #expect((peak - baseline) / Self.viewers < 300 << 10, "\(figures)")
        // Reset, not closed with a FIN that would wait behind the queued bytes: every client socket ends closed
        // (7), none in close-wait (8). On a loaded box the server's close may come a moment after it counted the
        // disconnect, so the states are read until they settle.
        var states: [UInt8: Int] = [:]
        _ = await eventually(timeout: 10) {
            states = Dictionary(grouping: stalled, by: \.tcpState).mapValues(\.count)
            return states == [7: Self.viewers]
        }
        #expect(states == [7: Self.viewers], "client TCP states (7 closed, 1 established, 8 close-wait): \(states)")
        withExtendedLifetime(stalled) {}
    }

    /// The small send buffer must not cost a viewer that reads anything: messages ten times its
    /// size go out in pieces as the socket takes them, whole and in order, over ws and wss (where
    /// OpenSSL, not lws, holds the unsent rest of a record).
    @Test(.tlsExclusive, arguments: [false, true])
    func viewerThatReads_getsEveryMessageLargerThanItsSendBuffer_whole(secure: Bool) async throws {
        let certificate = secure ? try SelfSignedCertificate.write() : nil
        defer { certificate?.remove() }
        let server = try TestServer { configuration in
            configuration.tls = certificate.map { TLSFiles(certificatePath: $0.certificate, privateKeyPath: $0.key) }
        }
        defer { server.stop() }
        let client = try WebSocketClient(caFile: certificate?.certificate)
        defer { client.shutdown() }
        let channel = "large-\(UUID().uuidString)"
        var viewer = EventRecorder()
        client.connect(
            host: "127.0.0.1", port: server.port, path: "/ws?channel=\(channel)", secure: secure, onEvent: viewer.handler)
        // A TLS handshake may fail while another test creates its TLS context (lws 4.1.6's
        // process-wide OpenSSL ex-data index, see SharedPortTests); a second attempt succeeds.
        if await !eventually(timeout: 10, { viewer.isOpen }) {
            viewer = EventRecorder()
            client.connect(
                host: "127.0.0.1", port: server.port, path: "/ws?channel=\(channel)", secure: secure, onEvent: viewer.handler)
        }
        try #require(await eventually(timeout: 10) { viewer.isOpen }, "events: \(viewer.all)")
        #expect(await eventually { (try? server.onServiceThread { $0.viewerCount(of: channel) }) == 1 })

        // Each published once the one before has arrived: latest-wins may not skip any.
        let size = 640 << 10
        let sent = (0..<10).map { number in [UInt8(number)] + EchoDelegate.pattern(size - 1) }
        for (number, message) in sent.enumerated() {
            server.server.perform { $0.publish(OutgoingMessage(binary: message), to: channel) }
            try #require(await eventually(timeout: 10) { viewer.messages.count == number + 1 }, "message \(number)")
        }
        #expect(viewer.messages == sent)
        #expect(viewer.ending == nil)
    }
}
