import Foundation
import RingCastTransport
import Synchronization
import Testing

@Suite("WebSocket client")
struct WebSocketClientTests {
    @Test func sha1_matchesTheRFC6455Example() {
        let accept = Data(SHA1.hash(Array("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11".utf8)))
            .base64EncodedString()
        #expect(accept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func fragmentedMessages_areDeliveredWhole_andTheServersCloseCodeIsReported() async throws {
        typealias Frame = RawWebSocketServer
        let big = EchoDelegate.pattern(200_000)
        let server = try RawWebSocketServer(frames: [
            Frame.frame(fin: false, opcode: 1, Array("hel".utf8)),
            Frame.frame(fin: false, opcode: 0, Array("lo ".utf8)),
            Frame.frame(fin: true, opcode: 9, Array("ping".utf8)),  // a control frame between fragments
            Frame.frame(fin: true, opcode: 0, Array("world".utf8)),
            Frame.frame(fin: false, opcode: 2, Array(big[..<70_000])),
            Frame.frame(fin: true, opcode: 0, Array(big[70_000...])),
            Frame.frame(fin: true, opcode: 8, [0x10, 0xE1] + Array("bye".utf8)),  // 4321
        ])
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let events = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/", onEvent: events.handler)
        #expect(await eventually { events.ending != nil })
        #expect(events.isOpen)
        #expect(events.messages == [Array("hello world".utf8), big])
        #expect(events.closeCode == .some(4321))
        #expect(server.waitUntilDone())
    }

    @Test func manyConnections_inOneClient() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let count = 500
        let greeted = Mutex(0)
        let framed = Mutex(0)
        for _ in 0..<count {
            client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=1") { _, event in
                guard case .text(let bytes) = event else { return }
                if bytes.first == UInt8(ascii: "g") { greeted.withLock { $0 += 1 } } else { framed.withLock { $0 += 1 } }
            }
        }
        #expect(await eventually(timeout: 30) { greeted.withLock { $0 } == count })
        try server.onServiceThread { $0.publish(OutgoingMessage(text: Array("frame".utf8)), to: "main") }
        #expect(await eventually(timeout: 30) { framed.withLock { $0 } == count })
    }

    @Test func shutdown_closesOpenConnections_andIsIdempotent() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        let events = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws", onEvent: events.handler)
        #expect(await eventually { events.isOpen })
        client.shutdown()
        client.shutdown()
        #expect(events.ending != nil)
        #expect(await eventually { server.delegate.disconnects.withLock { $0.count } == 1 })
        let late = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws", onEvent: late.handler)
        #expect(late.failure != nil)
    }

    @Test func closeFromTheEventHandler_works() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let events = EventRecorder()
        let record = events.handler
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=1") { [client] id, event in
            record(id, event)
            if case .text = event { client.close(id) }
        }
        #expect(await eventually { events.ending != nil })
        #expect(events.texts == ["greeting-0"])
        #expect(events.closeCode != nil)
    }
}
