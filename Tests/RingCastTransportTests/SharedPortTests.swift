import Foundation
import RingCastTransport
import Synchronization
import TLSTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Live: `sharePort` (cluster nodes on one port). The transport listens itself with SO_REUSEPORT
/// and hands each connection to lws; these check that such connections are served as any other,
/// that two servers really share a port, and that the port is given up cleanly.
@Suite("Shared port")
struct SharedPortTests {
    private static func sharedServer(port: Int = 0, _ configure: (inout TransportConfiguration) -> Void = { _ in }) throws
        -> TestServer
    {
        try TestServer {
            $0.sharePort = true
            $0.port = port
            configure(&$0)
        }
    }

    /// `count` requests, each on a connection of its own, on a thread of its own.
    private static func shortRequests(_ count: Int, port: Int) async throws -> [Int] {
        try await onOwnThread {
            try (0..<count).map { index in
                try RawHTTPConnection(port: port).request("GET", "/api/short?n=\(index)", headers: [("Connection", "close")])
                    .status
            }
        }
    }

    @Test func sharedPort_servesHTTPKeepAliveAndRawMethods_asWithout() throws {
        let server = try Self.sharedServer()
        defer { server.stop() }
        #expect(server.port > 0)  // port 0: the kernel's choice, read back as without sharing
        let connection = try server.connection()
        for round in 1...2 {  // keep-alive: both on one connection
            let response = try connection.request("POST", "/api/echo?round=\(round)", body: Array("hello".utf8))
            #expect(response.status == 200)
            let echo = try JSONDecoder().decode(Echo.self, from: Data(response.body))
            #expect(echo.method == "POST")
            #expect(echo.query == ["round": "\(round)"])
            #expect(echo.body == "hello")
            #expect(echo.peer == "127.0.0.1")
        }
        // A method lws cannot parse still falls back to the transport's raw reader.
        let trace = try server.connection().request("TRACE", "/api/traced")
        #expect(trace.status == 200)
        #expect(try JSONDecoder().decode(Echo.self, from: Data(trace.body)).method == "TRACE")
        let unknown = try server.connection().request("PROPFIND", "/api/x")
        #expect(unknown.status == 501)
        #expect(try server.connection().request("GET", "/nothing-here").status == 404)
    }

    @Test func sharedPort_viewerGetsGreetingAndPublishedMessages() async throws {
        let server = try Self.sharedServer()
        defer { server.stop() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=2&channel=boards/main", onEvent: viewer.handler)
        #expect(await eventually { viewer.texts.count == 2 })
        try server.onServiceThread { $0.publish(OutgoingMessage(text: Array("frame-1".utf8)), to: "boards/main") }
        #expect(await eventually { viewer.texts == ["greeting-0", "greeting-1", "frame-1"] })
        let stray = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/elsewhere", onEvent: stray.handler)
        #expect(await eventually { stray.ending != nil })
        #expect(!stray.isOpen)
    }

    @Test func twoServers_onOneSharedPort_bothAnswer() async throws {
        let first = try Self.sharedServer()
        defer { first.stop() }
        let second = try Self.sharedServer(port: first.port)
        defer { second.stop() }
        #expect(second.port == first.port)
        let statuses = try await Self.shortRequests(200, port: first.port)
        #expect(statuses.allSatisfy { $0 == 200 })
        let split = (first.delegate.handledRequests.withLock { $0 }, second.delegate.handledRequests.withLock { $0 })
        print("shared port \(first.port): 200 connections split \(split.0) / \(split.1)")
        #expect(split.0 + split.1 == 200)
        #expect(split.0 > 0)
        #expect(split.1 > 0)
    }

    @Test func stoppingOneSharedServer_leavesTheOtherServingThePort() async throws {
        let first = try Self.sharedServer()
        let second = try Self.sharedServer(port: first.port)
        defer { second.stop() }
        let viewers = try WebSocketClient()
        defer { viewers.shutdown() }
        // Viewers until one reaches the second server: the kernel picks the listener per connection.
        var recorders: [EventRecorder] = []
        while second.delegate.admitted.withLock({ $0.isEmpty }), recorders.count < 50 {
            let recorder = EventRecorder()
            recorders.append(recorder)
            viewers.connect(host: "127.0.0.1", port: first.port, path: "/ws", onEvent: recorder.handler)
            #expect(await eventually { recorder.isOpen })
        }
        let onSecond = second.delegate.admitted.withLock { $0.count }
        #expect(onSecond > 0)

        #expect(first.stop())
        let statuses = try await Self.shortRequests(50, port: first.port)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(second.delegate.handledRequests.withLock { $0 } == 50)
        #expect(first.delegate.handledRequests.withLock { $0 } == 0)
        // The second server's viewers never noticed; the first server's were closed with 1001.
        #expect(try second.onServiceThread { $0.viewerCount } == onSecond)
        #expect(second.delegate.disconnects.withLock { $0.isEmpty })
        #expect(await eventually { recorders.filter { $0.closeCode == .some(1001) }.count == recorders.count - onSecond })
    }

    @Test func stop_closesViewersWith1001_andGivesUpThePort() async throws {
        let server = try Self.sharedServer()
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=1", onEvent: viewer.handler)
        #expect(await eventually { viewer.texts == ["greeting-0"] })
        #expect(server.stop())
        #expect(await eventually { viewer.ending != nil })
        #expect(viewer.closeCode == .some(1001))
        #expect(RawHTTPConnection.isGivenUp(port: server.port))
    }

    @Test func serverNeverRun_closesItsSharedSocket() throws {
        var server: WebServer? = try WebServer(
            configuration: TransportConfiguration(host: "127.0.0.1", port: 0, sharePort: true), delegate: EchoDelegate())
        let port = try #require(server?.port)
        server = nil
        #expect(RawHTTPConnection.isGivenUp(port: port))
    }

    /// Sharing needs every server on the port to ask for it; otherwise the second bind fails as
    /// it does today.
    @Test(arguments: [(false, false), (true, false), (false, true)])
    func portHeldWithoutSharing_throwsTheClearError(firstShares: Bool, secondShares: Bool) throws {
        let first = try TestServer { $0.sharePort = firstShares }
        defer { first.stop() }
        do {
            _ = try WebServer(
                configuration: TransportConfiguration(host: "127.0.0.1", port: first.port, sharePort: secondShares),
                delegate: EchoDelegate())
            Issue.record("a second server bound the same port")
        } catch let error {
            #expect(error.description == "cannot listen on 127.0.0.1:\(first.port): the port is already in use")
        }
    }

    @Test func ipv6Loopback_sharesToo() throws {
        let first = try WebServer(
            configuration: TransportConfiguration(host: "::1", port: 0, sharePort: true), delegate: EchoDelegate())
        #expect(first.port > 0)
        let second = try WebServer(
            configuration: TransportConfiguration(host: "::1", port: first.port, sharePort: true), delegate: EchoDelegate())
        #expect(second.port == first.port)
    }

    @Test(.tlsExclusive) func wssViewer_onASharedPort_getsItsGreeting() async throws {
        let files = try SelfSignedCertificate.write()
        defer { files.remove() }
        let server = try Self.sharedServer { $0.tls = TLSFiles(certificatePath: files.certificate, privateKeyPath: files.key) }
        defer { server.stop() }
        let client = try WebSocketClient(caFile: files.certificate)
        defer { client.shutdown() }
        var viewer = EventRecorder()
        client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=1", secure: true, onEvent: viewer.handler)
        // libwebsockets 4.1.6 keeps the OpenSSL ex-data index its verify callback reads in a
        // process-wide static that every TLS context created re-acquires (later lws versions take
        // it once). When another test creates a TLS context during this handshake, the client's
        // callback looks under the new index, logs "can't get wsi from ssl privdata" and fails the
        // handshake. Only a process holding several TLS contexts at once (these tests) meets it: a
        // second attempt after such a failure must succeed.
        _ = await eventually { !viewer.texts.isEmpty || viewer.ending != nil }
        if viewer.texts.isEmpty {
            viewer = EventRecorder()
            client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=1", secure: true, onEvent: viewer.handler)
        }
        #expect(await eventually { viewer.texts == ["greeting-0"] }, "events: \(viewer.all)")
        // Plain http on the TLS port is refused, as on a port lws listens on.
        #expect(throws: (any Error).self) { try server.connection().request("GET", "/api/x") }
    }
}
