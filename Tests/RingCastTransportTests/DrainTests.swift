import Foundation
import Synchronization
import Testing

@testable import RingCastTransport

/// `stop()` drains (EventLoop+Drain): new connections refused, requests received answered, the
/// ones arriving meanwhile answered 503, idle keep-alive connections closed, all within
/// `drainTimeout`. The live tests do their blocking socket work on a thread of their own
/// (`onOwnThread`) and check what it saw afterwards: a read that waits out a deferred answer must
/// not hold one of the few cooperative threads the other tests run on.
@Suite("Drain")
struct DrainTests {
    /// True once connecting to `port` fails: the listening socket is closed (while it still drops
    /// SYNs, the attempt waits for the retransmitted SYN, a second later, to be refused).
    private static func isRefused(port: Int) -> Bool {
        (try? RawHTTPConnection(port: port, timeout: 1)) == nil
    }

    /// Polls `condition` on the calling (own) thread until it holds or `timeout` passes.
    private static func waitFor(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(5_000)
        }
        return condition()
    }

    private struct InFlightScenario: Sendable {
        var first: RawResponse
        var stopAsked: Bool
        var stopAskedAgain: Bool
        var refused: Bool
        var late: RawResponse
        var idleClosed: Bool
        var answer: RawResponse
        var slowClosed: Bool
    }

    @Test func aRequestInFlightAtStop_isAnsweredWithConnectionClose_andOneArrivingAfter_gets503() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let seen = try await onOwnThread { () throws -> InFlightScenario in
            // A request the delegate answers 3 s later, and a keep-alive connection with one answer behind it.
            let slow = try server.connection()
            try slow.send("GET /api/deferred?seconds=3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            guard Self.waitFor({ server.delegate.handledRequests.withLock { $0 } == 1 }) else {
                throw TestFailure("the deferred request never reached the delegate")
            }
            let idle = try server.connection()
            let first = try idle.request("GET", "/api/first")
            let stopAsked = server.server.stop()
            let stopAskedAgain = server.server.stop()
            let refused = Self.waitFor { Self.isRefused(port: server.port) }
            // On the kept-alive connection, during the drain.
            let late = try idle.request("POST", "/api/late", body: Array("{}".utf8))
            let idleClosed = idle.isClosedByServer()
            // The request received before the drain.
            let answer = try slow.readResponse()
            return InFlightScenario(
                first: first, stopAsked: stopAsked, stopAskedAgain: stopAskedAgain, refused: refused, late: late,
                idleClosed: idleClosed, answer: answer, slowClosed: slow.isClosedByServer())
        }
        #expect(seen.first.status == 200 && seen.first.headers["connection"] == nil)
        #expect(seen.stopAsked && !seen.stopAskedAgain)  // only the first call asks
        #expect(seen.refused)
        // During the drain: 503, never carried out, then closed.
        #expect(seen.late.status == 503)
        #expect(seen.late.headers["retry-after"] == "1")
        #expect(seen.late.headers["connection"] == "close")
        #expect(seen.idleClosed)
        #expect(server.delegate.handledRequests.withLock { $0 } == 2)
        // Received before: carried out, answered, then the connection closes.
        #expect(seen.answer.status == 200)
        #expect(seen.answer.headers["connection"] == "close")
        #expect(try JSONDecoder().decode(Echo.self, from: Data(seen.answer.body)).path == "/api/deferred")
        #expect(seen.slowClosed)

        #expect(try await onOwnThread { server.waitUntilStopped(timeout: 10) })
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
        let (once, answer, idleClosed) = try await onOwnThread { () throws -> (RawResponse, RawResponse, Bool) in
            let idle = try server.connection()
            let once = try idle.request("GET", "/api/once")
            let arriving = try server.connection()
            try arriving.send("GET /api/half HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            server.server.stop()
            _ = Self.waitFor { Self.isRefused(port: server.port) }
            try arriving.send("\r\n")
            let answer = try arriving.readResponse()
            // Nothing left to answer: the idle connection is closed (after its grace), without an answer.
            return (once, answer, idle.isClosedByServer())
        }
        #expect(once.status == 200)
        #expect(answer.status == 503)
        #expect(answer.headers["connection"] == "close")
        #expect(idleClosed)
        #expect(try await onOwnThread { server.waitUntilStopped(timeout: 10) })
        let report = try #require(server.drainReport.withLock { $0 })
        #expect(report.refused == 1)
        #expect(report.idleConnectionsClosed == 1)
        #expect(!report.timedOut)
        #expect(server.delegate.handledRequests.withLock { $0 } == 1)
    }

    @Test func aConnectionTheKernelQueuedBeforeTheDrain_isAcceptedAndAnswered_notResetWithTheListener() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let answer = try await onOwnThread { () throws -> RawResponse in
            // The service thread busy: the kernel completes the handshake and queues the connection,
            // with its request, on the listening socket; stop() is asked before lws accepts it.
            let busy = DispatchSemaphore(value: 0)
            server.server.perform { _ in
                busy.signal()
                usleep(300_000)
            }
            busy.wait()
            let queued = try server.connection()
            try queued.send("GET /api/queued HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            server.server.stop()
            return try queued.readResponse()
        }
        #expect(answer.status == 503)
        #expect(answer.headers["connection"] == "close")
        #expect(try await onOwnThread { server.waitUntilStopped(timeout: 10) })
        #expect(server.delegate.handledRequests.withLock { $0 } == 0)
        let report = try #require(server.drainReport.withLock { $0 })
        #expect(report.refused == 1 && !report.timedOut)
    }

    @Test func aDrainPastItsTimeout_endsAnyway_andNamesTheRequestItCut() async throws {
        let server = try TestServer { $0.drainTimeout = 0.3 }
        defer { server.stop() }
        let (stopped, seconds, slowClosed) = try await onOwnThread { () throws -> (Bool, Double, Bool) in
            let slow = try server.connection()
            try slow.send("GET /api/deferred?seconds=30 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            guard Self.waitFor({ server.delegate.handledRequests.withLock { $0 } == 1 }) else {
                throw TestFailure("the deferred request never reached the delegate")
            }
            let start = Date()
            server.server.stop()
            let stopped = server.waitUntilStopped(timeout: 10)
            return (stopped, Date().timeIntervalSince(start), slow.isClosedByServer())
        }
        #expect(stopped && seconds < 5, "run() returned after \(seconds) s")
        #expect(slowClosed)
        let report = try #require(server.drainReport.withLock { $0 })
        #expect(report.timedOut)
        #expect(report.cutRequests == ["GET /api/deferred"])
        #expect(report.seconds >= 0.3)
    }

    @Test func aSharedPortServer_answersWhatItReceived_whileTheOtherTakesNewConnections() async throws {
        let first = try TestServer {
            $0.sharePort = true
            $0.port = 0
        }
        defer { first.stop() }
        let second = try TestServer {
            $0.sharePort = true
            $0.port = first.port
        }
        defer { second.stop() }
        let (answer, stopped, after) = try await onOwnThread { () throws -> (RawResponse, Bool, [Int]) in
            // Connections until one lands on the first server (the kernel picks per connection).
            var slow: RawHTTPConnection?
            for attempt in 1...100 where slow == nil {
                let connection = try RawHTTPConnection(port: first.port)
                try connection.send("GET /api/deferred?seconds=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = Self.waitFor {
                    first.delegate.handledRequests.withLock { $0 } + second.delegate.handledRequests.withLock { $0 } == attempt
                }
                if first.delegate.handledRequests.withLock({ $0 }) == 1 {
                    slow = connection
                } else {
                    _ = try connection.readResponse()  // the second server's answer
                }
            }
            guard let slow else { throw TestFailure("no connection reached the first server") }
            first.server.stop()
            let answer = try slow.readResponse()
            let stopped = first.waitUntilStopped(timeout: 10)
            // Its socket closed, new connections all go to the second server.
            let after = try (0..<20).map { index in
                try RawHTTPConnection(port: first.port).request(
                    "GET", "/api/after?n=\(index)", headers: [("Connection", "close")]
                ).status
            }
            return (answer, stopped, after)
        }
        #expect(answer.status == 200)
        #expect(answer.headers["connection"] == "close")
        #expect(stopped)
        #expect(after.allSatisfy { $0 == 200 })
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
        #expect(!drain.mayCloseListeners(at: 100 + Drain.handshakeGrace / 2, queued: 0))
        #expect(!drain.mayCloseListeners(at: 100 + Drain.handshakeGrace, queued: 1))
        #expect(drain.mayCloseListeners(at: 100 + Drain.handshakeGrace, queued: 0))
        #expect(drain.mayCloseListeners(at: 110, queued: 3))
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
