import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM while clients write and watch: every request the server received is answered, viewers
/// hear 1001, the process exits 0 in time, and every acknowledged write is there after a restart
/// (issue 21, item 4).
@Suite("Graceful drain")
struct GracefulDrainTests {
    static let pushers = 8
    /// The default `shutdownTimeout`; the drain must end well within it, the process soon after.
    private static let shutdownTimeout = 10.0

    /// One board, one ring per pusher, no write limit, no static files; `extra` adds top-level keys.
    static func config(in directory: URL, extra: String = "") throws -> String {
        let rings = (0..<pushers).map { #"{"id": "p\#($0)"}"# }.joined(separator: ", ")
        let text = """
            {"host": "127.0.0.1", "port": 0, "webRoot": "", "openAPIDocument": "", \(extra)
             "limits": {"writesPerMinute": 0},
             "boards": [{"name": "drain", "rings": [\(rings)]}]}
            """
        let file = directory.appendingPathComponent("ringcast.json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static func serve(config: String, data: String, flags: [String] = []) async throws -> (TestProcess, Int) {
        let process = try await TestProcess(
            ["serve", "--config", config, "--data-dir", data, "--port", "0", "--log-level", "notice"] + flags)
        let line = try await process.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        return (process, port)
    }

    /// How each pusher's requests ended.
    struct Tally: Sendable {
        /// The index of the last write answered 2xx (-1: none).
        var acknowledged = -1
        /// Index of the last write whose request was written in full.
        var sent = -1
        var ok = 0
        var shuttingDown = 0
        /// Connections refused once the server stopped listening (nothing sent: fine).
        var refused = 0
        /// Sends that failed part way (nothing fully sent: fine, but counted).
        var sendFailures = 0
        /// Requests sent in full without a complete answer, or answered with anything else.
        var failures: [String] = []
        var finished = false
    }

    final class Tallies: Sendable {
        let state = Mutex([Tally](repeating: Tally(), count: GracefulDrainTests.pushers))
        let stop = Atomic(false)

        var acknowledgedTotal: Int { state.withLock { $0.reduce(0) { $0 + $1.ok } } }
    }

    /// Pusher `p` PATCHes ring `p<p>` to index / 1e6 with index rising (each value distinct), no
    /// Idempotency-Key, over a keep-alive connection, until its connection is refused (the server
    /// stopped listening) or the test says stop.
    static func startPushers(port: Int, tallies: Tallies) {
        for pusher in 0..<pushers {
            Thread {
                defer { tallies.state.withLock { $0[pusher].finished = true } }
                var connection: KeepAliveConnection?
                var index = 0
                while !tallies.stop.load(ordering: .relaxed) {
                    if connection == nil || connection?.isClosed == true {
                        do {
                            connection = try KeepAliveConnection(port: port)
                        } catch {
                            tallies.state.withLock { $0[pusher].refused += 1 }
                            return
                        }
                    }
                    guard let open = connection else { return }
                    index += 1
                    let body = #"{"rings": {"p\#(pusher)": \#(Double(index) / 1_000_000)}}"#
                    let response: TestResponse
                    do throws(KeepAliveConnection.Failure) {
                        response = try open.send("PATCH", "/api/v1/boards/drain", body: body)
                    } catch {
                        tallies.state.withLock {
                            if case .sendFailed = error {
                                $0[pusher].sendFailures += 1
                            } else {
                                $0[pusher].sent = index
                                $0[pusher].failures.append("write \(index): \(error)")
                            }
                        }
                        connection = nil
                        continue
                    }
                    tallies.state.withLock { tally in
                        tally[pusher].sent = index
                        switch response.status {
                        case 200..<300:
                            tally[pusher].acknowledged = index
                            tally[pusher].ok += 1
                        case 503 where response.error?.code == "shutting_down":
                            tally[pusher].shuttingDown += 1
                            if !open.isClosed || response.headers["retry-after"] == nil {
                                tally[pusher].failures.append(
                                    "write \(index): 503 without Connection: close and Retry-After: \(response.headers)")
                            }
                        default:
                            tally[pusher].failures.append("write \(index): \(response.status) \(response.text)")
                        }
                    }
                }
            }.start()
        }
    }

    /// A viewer on a thread of its own: connected yet, and how its read ended (the close code it got).
    final class ViewerOutcome: Sendable {
        let state = Mutex<(open: Bool, close: Result<Int?, any Error>?)>((false, nil))

        /// Connects to `path` on a thread of its own and reads until the server's close frame.
        static func watching(port: Int, path: String) -> ViewerOutcome {
            let outcome = ViewerOutcome()
            Thread {
                let result = Result {
                    let socket = try RawWebSocket(port: port, path: path, timeoutSeconds: 30)
                    outcome.state.withLock { $0.open = true }
                    return try socket.readCloseCode()
                }
                outcome.state.withLock { $0.close = result }
            }.start()
            return outcome
        }
    }

    @Test func sigtermUnderEightPushers_answersEveryRequestSent_closesViewersWith1001_andKeepsEveryAcknowledgedWrite()
        async throws
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-drain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.config(in: directory)
        let data = directory.appendingPathComponent("data").path
        let (server, port) = try await Self.serve(config: config, data: data)
        defer { server.signal(SIGKILL) }

        // A viewer, connected and then reading on a thread of its own until the server's close frame.
        let viewer = ViewerOutcome.watching(port: port, path: "/ws?board=drain&format=json")

        let tallies = Tallies()
        defer { tallies.stop.store(true, ordering: .relaxed) }
        Self.startPushers(port: port, tallies: tallies)
        // Mid-stream: every pusher has been answered a few times, and writes keep coming.
        let busy = Date().addingTimeInterval(20)
        while Date() < busy {
            let counts = tallies.state.withLock { $0.map(\.ok) }
            if counts.allSatisfy({ $0 >= 10 }), counts.reduce(0, +) >= 300 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(tallies.state.withLock { $0.allSatisfy { $0.ok >= 10 } }, "the pushers never got going")
        let (viewerOpen, viewerFailure) = viewer.state.withLock { ($0.open, $0.close) }
        try #require(viewerOpen, "the viewer did not connect: \(String(describing: viewerFailure))")

        let signalled = Date()
        server.signal(SIGTERM)
        let exitedAfter = try await server.secondsUntilExit(after: signalled, limit: Self.shutdownTimeout + 20)
        let status = try await server.waitForExit()
        #expect(status == 0, "exit status \(status); stderr: \(server.stderr.suffix(2000))")
        let seconds = try #require(exitedAfter, "the server did not exit within \(Self.shutdownTimeout + 20) s")
        #expect(seconds < Self.shutdownTimeout + 3, "the server exited \(seconds) s after SIGTERM")

        // Every pusher has ended: its connection was refused, or the test stops it now.
        let ended = Date().addingTimeInterval(10)
        while Date() < ended, !tallies.state.withLock({ $0.allSatisfy(\.finished) }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        tallies.stop.store(true, ordering: .relaxed)
        let final = tallies.state.withLock { $0 }
        let summary = final.enumerated().map { pusher, tally in
            "p\(pusher): \(tally.ok) 2xx, \(tally.shuttingDown) 503, \(tally.refused) refused, \(tally.sendFailures) send failures"
        }
        let drainLine = server.stderr.split(separator: "\n").first { $0.contains("drain finished") } ?? "none"
        print("graceful drain, \(seconds) s to exit: \(summary.joined(separator: "; ")); the server's log: \(drainLine)")
        for (pusher, tally) in final.enumerated() {
            #expect(tally.failures.isEmpty, "pusher \(pusher): \(tally.failures)")
        }
        let closeCode = try #require(viewer.state.withLock { $0.close }, "the viewer's read did not end").get()
        #expect(closeCode == 1001, "the viewer was closed with \(String(describing: closeCode))")
        #expect(
            server.stderr.contains("drain finished"),
            "no drain summary in the log: \(server.stderr.suffix(2000))")

        // Restarted on the same directory: each ring holds its pusher's last acknowledged value
        // (a write answered 503 was not applied; none was left without an answer).
        let (again, newPort) = try await Self.serve(config: config, data: data)
        defer { again.signal(SIGKILL) }
        let snapshot = try TestHTTPClient(port: newPort).get("/api/v1/boards/drain").decode(TestSnapshot.self)
        for (pusher, tally) in final.enumerated() {
            let target = snapshot[ring: "p\(pusher)"]?.target ?? -1
            let stored = Int((target * 1_000_000).rounded())
            #expect(
                stored == tally.acknowledged,
                "ring p\(pusher): stored \(stored), last acknowledged \(tally.acknowledged), last sent \(tally.sent)")
        }
        again.signal(SIGTERM)
        #expect(try await again.waitForExit() == 0)
    }

    /// A connection that has sent part of a request head and nothing more: the drain waits for it.
    private static func halfARequest(port: Int) throws -> Int32 {
        let fd = try connectLoopback(port: port, timeoutSeconds: 30)
        let head = Array("PATCH /api/v1/boards/drain HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
        #expect(head.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) } == head.count)
        return fd
    }

    @Test func aDrainThatCannotFinish_endsAtShutdownTimeout_andASecondSIGTERMEndsItAtOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-drain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.config(in: directory)
        let data = directory.appendingPathComponent("data").path

        // --shutdown-timeout 1: the head never completes, the drain is cut after a second, exit 0.
        let (bounded, port) = try await Self.serve(config: config, data: data, flags: ["--shutdown-timeout", "1"])
        defer { bounded.signal(SIGKILL) }
        let waiting = try Self.halfARequest(port: port)
        defer { close(waiting) }
        let signalled = Date()
        bounded.signal(SIGTERM)
        let seconds = try #require(try await bounded.secondsUntilExit(after: signalled, limit: 20))
        #expect(try await bounded.waitForExit() == 0)
        #expect(seconds >= 1 && seconds < 4, "exited \(seconds) s after SIGTERM")
        #expect(
            bounded.stderr.contains("drain cut short by shutdownTimeout 1 s")
                && bounded.stderr.contains("a request still arriving"),
            "\(bounded.stderr)")

        // shutdownTimeout needs a restart; a second SIGTERM during the drain ends the process at once. One loop: the
        // stalled request and the probe on one loop's drain (each loop drains its own connections; LoopsTests).
        let (patient, newPort) = try await Self.serve(config: config, data: data, flags: ["--loops", "1"])
        defer { patient.signal(SIGKILL) }
        _ = try Self.config(in: directory, extra: #""shutdownTimeout": 3,"#)
        patient.signal(SIGHUP)
        #expect(
            try await patient.waitForStandardError(containing: "shutdownTimeout: 10 → 3 needs a restart"), "\(patient.stderr)")
        let stalled = try Self.halfARequest(port: newPort)
        defer { close(stalled) }
        let probe = try KeepAliveConnection(port: newPort)
        #expect(try probe.send("GET", "/readyz", body: "").status == 200)
        var answered = Date()
        patient.signal(SIGTERM)
        #expect(try await patient.waitForStandardError(containing: "drain started"))
        // While it drains (the stalled request keeps it at it), /readyz on a kept-alive connection is 503 — unless the
        // connection sat idle past lws's keep-alive timeout (5 s) before it was asked: a starved machine (a loaded
        // make test took that long to see "drain started") lets lws close it, as any server may close an idle one.
        let polling = Date().addingTimeInterval(5)
        do {
            var ready = try probe.send("GET", "/readyz", body: "")
            answered = Date()
            while ready.status == 200, Date() < polling {
                try await Task.sleep(for: .milliseconds(5))
                ready = try probe.send("GET", "/readyz", body: "")
                answered = Date()
            }
            #expect(ready.status == 503 && ready.error?.code == "shutting_down", "\(ready.status) \(ready.text)")
            #expect(ready.headers["connection"] == "close" && ready.headers["retry-after"] == "1")
        } catch {
            let idle = Date().timeIntervalSince(answered)
            guard idle >= 4.5 else { throw error }
            print(
                "graceful drain: the probe sat idle \(idle) s before the drain was seen, past lws's keep-alive timeout: \(error)")
        }
        let again = Date()
        patient.signal(SIGTERM)
        let after = try #require(try await patient.secondsUntilExit(after: again, limit: 20))
        #expect(after < 3, "exited \(after) s after the second SIGTERM")
        #expect(try await patient.waitForExit() == SIGTERM)
        #expect(patient.stderr.contains("exiting at once"), "\(patient.stderr)")
    }

    @Test func clusterNode_sigtermUnderPushers_answersEveryWriteItTook_andTheOtherNodeHasEveryAcknowledgedValue() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let rings = (0..<Self.pushers).map { #"{"id": "p\#($0)"}"# }.joined(separator: ", ")
        let created = try nodes[0].http.send("PUT", "/api/v1/boards/drain", body: #"{"rings": [\#(rings)]}"#)
        try #require(created.status == 201, "\(created.status) \(created.text)")

        let tallies = Tallies()
        defer { tallies.stop.store(true, ordering: .relaxed) }
        Self.startPushers(port: nodes[0].port, tallies: tallies)
        let busy = Date().addingTimeInterval(20)
        while Date() < busy, !tallies.state.withLock({ $0.allSatisfy { $0.ok >= 10 } }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(tallies.state.withLock { $0.allSatisfy { $0.ok >= 10 } }, "the pushers never got going: \(cluster.logs)")

        // Writes are in flight to Redis: each is committed there, then answered, before node a exits.
        let signalled = Date()
        nodes[0].process.signal(SIGTERM)
        let seconds = try #require(
            try await nodes[0].process.secondsUntilExit(after: signalled, limit: Self.shutdownTimeout + 20))
        #expect(try await nodes[0].process.waitForExit() == 0)
        #expect(seconds < Self.shutdownTimeout + 3, "node a exited \(seconds) s after SIGTERM")
        let ended = Date().addingTimeInterval(10)
        while Date() < ended, !tallies.state.withLock({ $0.allSatisfy(\.finished) }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        tallies.stop.store(true, ordering: .relaxed)
        let final = tallies.state.withLock { $0 }
        for (pusher, tally) in final.enumerated() {
            #expect(tally.failures.isEmpty, "pusher \(pusher): \(tally.failures)")
        }

        // Node b, on the same Redis, serves each pusher's last acknowledged value.
        let expected = final.map(\.acknowledged)
        var stored: [Int] = []
        let converged = Date().addingTimeInterval(10)
        repeat {
            let snapshot = try nodes[1].http.get("/api/v1/boards/drain").decode(TestSnapshot.self)
            stored = (0..<Self.pushers).map { Int((((snapshot[ring: "p\($0)"]?.target) ?? -1) * 1_000_000).rounded()) }
            if stored == expected { break }
            try await Task.sleep(for: .milliseconds(20))
        } while Date() < converged
        #expect(stored == expected, "node b holds \(stored), the pushers' last acknowledged values are \(expected)")
        let drainLine = nodes[0].process.stderr.split(separator: "\n").first { $0.contains("drain finished") } ?? "none"
        print("graceful drain of cluster node a, \(seconds) s to exit; its log: \(drainLine)")
    }
}
