import Foundation
import RingCastTransport
import Synchronization
import Testing

@Suite("Slow and silent viewers")
struct SlowViewerTests {
    @Test func viewerThatStopsReading_isDropped_othersKeepReceiving() async throws {
        let server = try TestServer {
            $0.stallTimeout = 1
            $0.pingInterval = 0
        }
        defer { server.stop() }
        // A viewer that completes the handshake and then never reads.
        let stalled = try server.connection()
        try stalled.send(RawHTTPConnection.upgradeRequest("/ws?channel=big"))
        #expect(try stalled.readResponse().status == 101)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let healthy = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws?channel=big", onEvent: healthy.handler)
        #expect(await eventually { (try? server.onServiceThread { $0.viewerCount }) == 2 })

        // 1 MiB frames at 20 Hz until the stalled viewer is gone.
        let frame = EchoDelegate.pattern(1 << 20)
        let stop = Mutex(false)
        server.server.perform { loop in
            func tick() {
                guard !stop.withLock({ $0 }) else { return }
                loop.publish(OutgoingMessage(binary: frame), to: "big")
                loop.schedule(after: 0.05, tick)
            }
            tick()
        }
        defer { stop.withLock { $0 = true } }
        #expect(await eventually(timeout: 15) { server.delegate.disconnects.withLock { $0.count } == 1 })
        let receivedBefore = healthy.messages.count
        #expect(await eventually { healthy.messages.count > receivedBefore + 3 })
        #expect(healthy.ending == nil)
        #expect(healthy.messages.allSatisfy { $0 == frame })
    }

    @Test func idleViewer_staysConnectedPastTheStallTimeout() async throws {
        let server = try TestServer {
            $0.stallTimeout = 1
            $0.pingInterval = 0
        }
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=2", onEvent: viewer.handler)
        #expect(await eventually { viewer.texts.count == 2 })
        // Nothing is sent for longer than stallTimeout; the viewer must not be dropped.
        #expect(await !eventually(timeout: 1.8) { viewer.ending != nil })
    }

    @Test func viewerThatNeverAnswersPings_isDropped_answeringOneStays() async throws {
        let server = try TestServer {
            $0.pingInterval = 1
            $0.stallTimeout = 1
        }
        defer { server.stop() }
        let silent = try server.connection()
        try silent.send(RawHTTPConnection.upgradeRequest("/ws"))
        #expect(try silent.readResponse().status == 101)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let answering = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws", onEvent: answering.handler)
        #expect(await eventually { answering.isOpen })
        #expect(await eventually(timeout: 6) { server.delegate.disconnects.withLock { $0.count } == 1 })
        #expect(answering.ending == nil)
        #expect(try server.onServiceThread { $0.viewerCount } == 1)
    }
}
