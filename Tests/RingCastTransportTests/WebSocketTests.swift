import Foundation
import RingCastTransport
import Synchronization
import Testing

@Suite("WebSocket viewers")
struct WebSocketTests {
    @Test func greeting_arrivesInOrder_thenPublishedMessages() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=3&channel=boards/main", onEvent: viewer.handler)
        #expect(await eventually { viewer.texts.count == 3 })
        #expect(viewer.texts == ["greeting-0", "greeting-1", "greeting-2"])
        try server.onServiceThread { loop in
            loop.publish(OutgoingMessage(text: Array("frame-1".utf8)), to: "boards/main")
            loop.publish(OutgoingMessage(text: Array("elsewhere".utf8)), to: "boards/other")
        }
        #expect(await eventually { viewer.texts.count == 4 })
        #expect(viewer.texts.last == "frame-1")
        #expect(try server.onServiceThread { $0.viewerCount(of: "boards/main") } == 1)
        if case .open = viewer.all.first {} else { Issue.record("first event was \(String(describing: viewer.all.first))") }
    }

    @Test func messagePublishedBeforeJoining_isNotSent() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let early = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws", onEvent: early.handler)
        #expect(await eventually { early.isOpen })
        try server.onServiceThread { $0.publish(OutgoingMessage(text: Array("old".utf8)), to: "main") }
        #expect(await eventually { early.texts == ["old"] })
        let late = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=1", onEvent: late.handler)
        #expect(await eventually { late.texts == ["greeting-0"] })
        try server.onServiceThread { $0.publish(OutgoingMessage(text: Array("new".utf8)), to: "main") }
        #expect(await eventually { late.texts == ["greeting-0", "new"] })
    }

    @Test func twoViewers_receiveByteIdenticalMessages() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let first = EventRecorder()
        let second = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws", onEvent: first.handler)
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws", onEvent: second.handler)
        #expect(await eventually { first.isOpen && second.isOpen })
        #expect(await eventually { (try? server.onServiceThread { $0.viewerCount }) == 2 })
        let payload = EchoDelegate.pattern(300_000)
        try server.onServiceThread { $0.publish(OutgoingMessage(binary: payload), to: "main") }
        #expect(await eventually { first.messages.count == 1 && second.messages.count == 1 })
        #expect(first.messages.first == payload)
        #expect(second.messages.first == payload)
        if case .binary = first.all.last {} else { Issue.record("expected a binary message") }
    }

    @Test func rapidPublishes_endWithTheNewest_neverOutOfOrder() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws", onEvent: viewer.handler)
        #expect(await eventually { viewer.isOpen })
        #expect(await eventually { (try? server.onServiceThread { $0.viewerCount }) == 1 })
        for index in 1...100 {
            server.server.perform { $0.publish(OutgoingMessage(text: Array("\(index)".utf8)), to: "main") }
        }
        #expect(await eventually { viewer.texts.last == "100" })
        let received = viewer.texts.compactMap(Int.init)
        #expect(received == received.sorted())
        #expect(Set(received).count == received.count)
    }

    @Test func upgradeOnAnotherPath_is404_andDoesNotUpgrade() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send(RawHTTPConnection.upgradeRequest("/api/ws"))
        let response = try connection.readResponse()
        #expect(response.status == 404)
        #expect(response.headers["upgrade"] == nil)
        #expect(response.text.contains("no WebSocket endpoint"))
        #expect(connection.isClosedByServer())

        let root = try server.connection()
        try root.send(RawHTTPConnection.upgradeRequest("/"))
        #expect(try root.readResponse().status == 404)
    }

    @Test func rejectedAdmission_isAnsweredWithItsHTTPStatus() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send(RawHTTPConnection.upgradeRequest("/ws?reject=401"))
        let response = try connection.readResponse()
        #expect(response.status == 401)
        #expect(response.text == #"{"rejected":"http://127.0.0.1"}"#)
        #expect(response.headers["content-type"] == "application/json")

        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(
            host: "127.0.0.1", port: server.port, path: "/ws?reject=403", origin: "http://o.test", onEvent: viewer.handler)
        #expect(await eventually { viewer.failure != nil })
        #expect(viewer.failure?.contains("403") == true)
        #expect(server.delegate.admitted.withLock { $0.isEmpty })
    }

    @Test func acceptedUpgrade_answers101_withTheDelegatesHeaders_andTheGreetingFollows() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send(RawHTTPConnection.upgradeRequest("/ws?greet=1"))
        let response = try connection.readResponse()
        #expect(response.status == 101)
        let admitted = try #require(server.delegate.admitted.withLock { $0.first })
        #expect(response.headers["x-echo-viewer"] == admitted.description)
        #expect(response.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(response.headers["sec-websocket-extensions"] == nil)
        // The head ended where it should: the frames after it parse (the greeting, then the close).
        try connection.sendWebSocketFrame(opcode: 0x8, payload: [0x03, 0xe8])
        #expect(try connection.readWebSocketCloseCode() == 1000)
    }

    @Test func httpOnlyProtocolAsSubprotocol_isRefused() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/api/x", subprotocol: "http-only", onEvent: viewer.handler)
        #expect(await eventually { viewer.failure != nil })
        #expect(viewer.failure?.contains("403") == true)
    }

    @Test func viewerSendingData_isClosedWith1003() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        let id = client.connect(host: "127.0.0.1", port: server.port, path: "/ws?channel=c1", onEvent: viewer.handler)
        #expect(await eventually { viewer.isOpen })
        client.send(id, text: Array("hello".utf8))
        #expect(await eventually { viewer.ending != nil })
        #expect(viewer.closeCode == .some(1003))
        #expect(await eventually { server.delegate.disconnects.withLock { $0.count } == 1 })
        #expect(server.delegate.disconnects.withLock { $0.first?.channel } == "c1")
    }

    @Test func loopClose_sendsTheCodeAndReason() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws", onEvent: viewer.handler)
        #expect(await eventually { server.delegate.admitted.withLock { $0.count } == 1 && viewer.isOpen })
        let id = try #require(server.delegate.admitted.withLock { $0.first })
        try server.onServiceThread { $0.close(id, code: 4001, reason: "kicked") }
        #expect(await eventually { viewer.ending != nil })
        #expect(viewer.closeCode == .some(4001))
    }

    @Test func clientClose_reportsDisconnectWithTheChannel() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        let id = client.connect(host: "127.0.0.1", port: server.port, path: "/ws?channel=b", onEvent: viewer.handler)
        #expect(await eventually { viewer.isOpen })
        client.close(id)
        #expect(await eventually { viewer.ending != nil })
        #expect(viewer.closeCode != nil)
        #expect(await eventually { server.delegate.disconnects.withLock { $0.map(\.channel) } == ["b"] })
        #expect(try server.onServiceThread { $0.viewerCount } == 0)
    }

    @Test func refusedConnection_reportsFailure() async throws {
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: 1, path: "/ws", onEvent: viewer.handler)
        #expect(await eventually { viewer.failure != nil })
        #expect(!viewer.isOpen)
    }
}
