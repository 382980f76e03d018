import Foundation
import RingCastTransport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Server lifecycle")
struct LifecycleTests {
    @Test func stop_closesViewersWith1001_andRunReturns() async throws {
        let server = try TestServer()
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = [EventRecorder(), EventRecorder(), EventRecorder()]
        for viewer in viewers {
            client.connect(host: "127.0.0.1", port: server.port, path: "/ws?greet=1", onEvent: viewer.handler)
        }
        #expect(await eventually { viewers.allSatisfy { $0.texts == ["greeting-0"] } })
        let stopped = Date()
        server.server.stop()
        #expect(server.waitUntilStopped(timeout: 5))
        #expect(Date().timeIntervalSince(stopped) < 1)
        #expect(await eventually { viewers.allSatisfy { $0.ending != nil } })
        for viewer in viewers {
            #expect(viewer.closeCode == .some(1001))
        }
        #expect(server.delegate.disconnects.withLock { $0.count } == 3)
        // The port is free again.
        #expect(RawHTTPConnection.isGivenUp(port: server.port))
    }

    @Test func stop_isIdempotent_andWorksBeforeRun() throws {
        let server = try WebServer(configuration: TransportConfiguration(port: 0), delegate: EchoDelegate())
        server.stop()
        server.stop()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            server.run()
            finished.signal()
        }.start()
        #expect(finished.wait(timeout: .now() + 5) == .success)
        server.stop()
        server.run()  // a second run returns at once
    }

    @Test func stop_fromTheServiceThread_works() throws {
        let server = try TestServer()
        server.server.perform { [web = server.server] _ in web.stop() }
        #expect(server.waitUntilStopped(timeout: 5))
    }

    @Test func perform_fromAnotherThread_runsOnTheServiceThread() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ranOn = try server.onServiceThread { _ in pthread_self() }
        let serviceThread = try #require(server.serviceThread.withLock { $0 })
        #expect(pthread_equal(ranOn, serviceThread) != 0)
        #expect(pthread_equal(ranOn, pthread_self()) == 0)
    }

    @Test func perform_fromTheServiceThread_runsSoonAfter() throws {
        let server = try TestServer()
        defer { server.stop() }
        let order = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        server.server.perform { [web = server.server] _ in
            web.perform { _ in
                order.withLock { $0.append("inner") }
                done.signal()
            }
            order.withLock { $0.append("outer") }
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(order.withLock { $0 } == ["outer", "inner"])
    }

    @Test func schedule_firesAfterTheDelay_inDeadlineOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let fired = Mutex<[(String, Double)]>([])
        let done = DispatchSemaphore(value: 0)
        let start = try server.onServiceThread { loop in
            let start = loop.now()
            loop.schedule(after: 0.06) {
                fired.withLock { $0.append(("b", loop.now())) }
                done.signal()
            }
            loop.schedule(after: 0.02) { fired.withLock { $0.append(("a", loop.now())) } }
            loop.schedule(after: 0.0004) { fired.withLock { $0.append(("sub-ms", loop.now())) } }
            return start
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        let events = fired.withLock { $0 }
        #expect(events.map(\.0) == ["sub-ms", "a", "b"])
        #expect(events[0].1 - start >= 0.001)  // rounded up to a whole millisecond
        #expect(events[1].1 - start >= 0.02)
        #expect(events[2].1 - start >= 0.06)
    }

    @Test func serverNeverRun_withATimerPending_deallocatesCleanly() throws {
        let delegate = EchoDelegate()
        var server: WebServer? = try WebServer(configuration: TransportConfiguration(port: 0), delegate: delegate)
        let port = try #require(server?.port)
        server?.loop.schedule(after: 60) { Issue.record("a timer of a destroyed server fired") }
        server?.perform { _ in Issue.record("a job of a destroyed server ran") }
        server = nil
        #expect(RawHTTPConnection.isGivenUp(port: port))
    }

    @Test func portInUse_throwsAClearError() throws {
        let first = try TestServer()
        defer { first.stop() }
        do {
            _ = try WebServer(
                configuration: TransportConfiguration(host: "127.0.0.1", port: first.port), delegate: EchoDelegate())
            Issue.record("a second server bound the same port")
        } catch let error {
            #expect(error.description == "cannot listen on 127.0.0.1:\(first.port): the port is already in use")
        }
    }

    @Test func invalidConfiguration_isRejectedUpFront() {
        #expect(throws: TransportError.self) {
            _ = try WebServer(configuration: TransportConfiguration(port: 0, websocketPath: "ws"), delegate: EchoDelegate())
        }
        #expect(throws: TransportError.self) {
            _ = try WebServer(
                configuration: TransportConfiguration(host: "no such host.invalid", port: 0), delegate: EchoDelegate())
        }
    }

    @Test func localhost_andIPv6Loopback_listen() throws {
        for host in ["localhost", "::1"] {
            let server = try WebServer(configuration: TransportConfiguration(host: host, port: 0), delegate: EchoDelegate())
            #expect(server.port > 0)
        }
    }

    @Test func delegateGone_answers503() throws {
        var delegate: EchoDelegate? = EchoDelegate()
        let server = try WebServer(configuration: TransportConfiguration(port: 0), delegate: delegate!)
        delegate = nil
        let finished = DispatchSemaphore(value: 0)
        Thread {
            server.run()
            finished.signal()
        }.start()
        defer {
            server.stop()
            _ = finished.wait(timeout: .now() + 5)
        }
        let response = try RawHTTPConnection(port: server.port).request("GET", "/api/x")
        #expect(response.status == 503)
    }
}
