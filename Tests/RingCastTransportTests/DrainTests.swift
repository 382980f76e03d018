import Foundation
import Synchronization
import Testing

@testable import RingCastTransport

/// `stop()` drains (EventLoop+Drain): new connections refused, requests received answered, the
/// ones arriving meanwhile answered 503, idle keep-alive connections closed, all within
/// `drainTimeout`.
@Suite("Drain")
struct DrainTests {
    /// True once connecting to `port` fails: the listening socket is closed.
    private static func isRefused(port: Int) -> Bool {
        (try? RawHTTPConnection(port: port, timeout: 1)) == nil
    }

    @Test func aRequestInFlightAtStop_isAnsweredWithConnectionClose_andOneArrivingAfter_gets503() async throws {
        let server = try TestServer()
        defer { server.stop() }
        // A request the delegate answers 2 s later, and a keep-alive connection with one answer behind it.
        let slow = try server.connection()
        try slow.send("GET /api/deferred?seconds=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await eventually { server.delegate.handledRequests.withLock { $0 } == 1 })
        let idle = try server.connection()
        let first = try idle.request("GET", "/api/first")
        #expect(first.status == 200 && first.headers["connection"] == nil)

        #expect(server.server.stop())
        #expect(!server.server.stop())  // only the first call asks
        #expect(await eventually { Self.isRefused(port: server.port) })

        // On the kept-alive connection, during the drain: 503, never carried out, then closed.
        let late = try idle.request("POST", "/api/late", body: Array("{}".utf8))
        #expect(late.status == 503)
        #expect(late.headers["retry-after"] == "1")
        #expect(late.headers["connection"] == "close")
        #expect(idle.isClosedByServer())
        #expect(server.delegate.handledRequests.withLock { $0 } == 2)

        // The request received before the drain: carried out, answered, then the connection closes.
        let answer = try slow.readResponse()
        #expect(answer.status == 200)
        #expect(answer.headers["connection"] == "close")
        #expect(try JSONDecoder().decode(Echo.self, from: Data(answer.body)).path == "/api/deferred")
        #expect(slow.isClosedByServer())

        #expect(server.waitUntilStopped(timeout: 10))
        let report = try #require(server.drainReport.withLock { $0 })
        #expect(report.requestsInFlight == 1)
        #expect(report.answered == 2)
        #expect(report.answeredSuccessfully == 1)
        #expect(report.refused == 1)
        #expect(report.cutRequests.isEmpty)
        #expect(!report.timedOut)
        #expect(report.seconds < 5)
    }

    @Test func aHeadStillArrivingAtStop_isAnswered503_andAnIdleConnectionIsClosedWithoutAWord() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let idle = try server.connection()
        #expect(try idle.request("GET", "/api/once").status == 200)
        let arriving = try server.connection()
        try arriving.send("GET /api/half HTTP/1.1\r\nHost: 127.0.0.1\r\n")

        #expect(server.server.stop())
        #expect(await eventually { Self.isRefused(port: server.port) })
        try arriving.send("\r\n")
        let answer = try arriving.readResponse()
        #expect(answer.status == 503)
        #expect(answer.headers["connection"] == "close")
        // Nothing left to answer: the idle connection is closed (after its grace), without an answer.
        #expect(idle.isClosedByServer())

        #expect(server.waitUntilStopped(timeout: 10))
        let report = try #require(server.drainReport.withLock { $0 })
        #expect(report.requestsInFlight == 1)  // the head under way
        #expect(report.refused == 1)
        #expect(report.idleConnectionsClosed == 1)
        #expect(!report.timedOut)
        #expect(server.delegate.handledRequests.withLock { $0 } == 1)
    }

    @Test func aDrainPastItsTimeout_endsAnyway_andNamesTheRequestItCut() async throws {
        let server = try TestServer { $0.drainTimeout = 0.3 }
        defer { server.stop() }
        let slow = try server.connection()
        try slow.send("GET /api/deferred?seconds=30 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await eventually { server.delegate.handledRequests.withLock { $0 } == 1 })
        let stopped = Date()
        server.server.stop()
        #expect(server.waitUntilStopped(timeout: 10))
        #expect(Date().timeIntervalSince(stopped) < 5)
        let report = try #require(server.drainReport.withLock { $0 })
        #expect(report.timedOut)
        #expect(report.cutRequests == ["GET /api/deferred"])
        #expect(report.seconds >= 0.3)
        #expect(slow.isClosedByServer())
    }

    @Test func aSharedPortServer_answersWhatItReceived_whileTheOtherTakesNewConnections() async throws {
        let first = try TestServer {
            $0.sharePort = true
            $0.port = 0
        }
        let second = try TestServer {
            $0.sharePort = true
            $0.port = first.port
        }
        defer { second.stop() }
        // Connections until one lands on the first server (the kernel picks per connection).
        defer { first.stop() }
        var slow: RawHTTPConnection?
        for attempt in 1...100 where slow == nil {
            let connection = try RawHTTPConnection(port: first.port)
            try connection.send("GET /api/deferred?seconds=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let handled = { [first, second] in
                first.delegate.handledRequests.withLock { $0 } + second.delegate.handledRequests.withLock { $0 }
            }
            #expect(await eventually { handled() == attempt })
            if first.delegate.handledRequests.withLock({ $0 }) == 1 {
                slow = connection
            } else {
                _ = try connection.readResponse()  // the second server's answer
            }
        }
        let inFlight = try #require(slow, "no connection reached the first server")

        first.server.stop()
        let answer = try inFlight.readResponse()
        #expect(answer.status == 200)
        #expect(answer.headers["connection"] == "close")
        #expect(first.waitUntilStopped(timeout: 10))
        // Its socket closed, new connections all go to the second server.
        for index in 0..<20 {
            let response = try RawHTTPConnection(port: first.port).request(
                "GET", "/api/after?n=\(index)", headers: [("Connection", "close")])
            #expect(response.status == 200)
        }
        #expect(first.delegate.handledRequests.withLock { $0 } == 1)
        let report = try #require(first.drainReport.withLock { $0 })
        #expect(report.answeredSuccessfully == 1 && report.cutRequests.isEmpty)
    }

    // MARK: - The decision, without sockets

    @Test func drainSteps_waitForRequests_thenCloseIdleConnections_thenGiveViewersTheirGrace() {
        let drain = Drain(started: 100, timeout: 10, requestsInFlight: 3, viewers: 2)
        #expect(drain.step(at: 100.1, requests: 3, idleConnections: 5, viewers: 2) == .wait)
        #expect(drain.step(at: 100.2, requests: 0, idleConnections: 5, viewers: 2) == .closeIdle)
        #expect(drain.step(at: 100.3, requests: 0, idleConnections: 0, viewers: 2) == .wait)
        #expect(drain.step(at: 100 + Drain.viewerGrace, requests: 0, idleConnections: 0, viewers: 2) == .finish)
        #expect(drain.step(at: 100.3, requests: 0, idleConnections: 0, viewers: 0) == .finish)
        #expect(drain.step(at: 110, requests: 3, idleConnections: 5, viewers: 2) == .finish)
        #expect(!drain.mayClose(idleSince: 100, at: 100 + Drain.idleGrace - 0.01))
        #expect(drain.mayClose(idleSince: 100, at: 100 + Drain.idleGrace))
    }

    @Test func drainReport_countsAnswers_andCallsOnlyAnUnfinishedEndATimeout() {
        var drain = Drain(started: 0, timeout: 2, requestsInFlight: 2, viewers: 3)
        drain.answered(status: 200)
        drain.answered(status: 204)
        drain.answered(status: 503)
        drain.report.refused = 1
        let done = drain.finished(at: 0.5, cutRequests: [], openConnections: 0, viewers: 0)
        #expect(done.answered == 3 && done.answeredSuccessfully == 2 && done.refused == 1)
        #expect(done.viewersClosed == 3 && done.viewersDropped == 0)
        #expect(!done.timedOut && done.seconds == 0.5)
        let cut = drain.finished(at: 2, cutRequests: ["PATCH /api/x"], openConnections: 0, viewers: 1)
        #expect(cut.timedOut && cut.viewersClosed == 2 && cut.viewersDropped == 1)
        // Everything closed right at the deadline: not a timeout.
        #expect(!drain.finished(at: 2, cutRequests: [], openConnections: 0, viewers: 0).timedOut)
    }
}
