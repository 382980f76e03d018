import Foundation
import RingCastCore
import RingCastTransport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 35, item 1: several service loops in one process (`--loops`). The first loop accepts every connection and
/// deals them out in turn, so connections made one after the other land on loops 0, 1, 2, 0, … — which is how these
/// tests put viewers and writes on every loop, and `ringcast_loop_viewers` in `/metrics` says where each viewer is.
@Suite("Loops")
struct LoopsTests {
    /// Viewers on each loop, from `/metrics`.
    static func loopViewers(_ metrics: String) -> [Int] {
        var counts: [Int: Int] = [:]
        for line in metrics.split(separator: "\n") where line.hasPrefix("ringcast_loop_viewers{") {
            guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\""),
                let loop = Int(line[line.index(after: open)..<close]),
                let count = line.split(separator: " ").last.flatMap({ Double($0) })
            else { continue }
            counts[loop] = Int(count)
        }
        return counts.keys.sorted().map { counts[$0]! }
    }

    /// Viewers on each loop once they add up to `total` (within 5 s), from `/metrics`.
    static func spread(of server: TestServer, total: Int) async throws -> [Int] {
        var counts: [Int] = []
        let deadline = Date().addingTimeInterval(5)
        repeat {
            counts = loopViewers(try server.http.get("/metrics").text)
            if counts.reduce(0, +) == total { break }
            try await Task.sleep(for: .milliseconds(50))
        } while Date() < deadline
        return counts
    }

    /// `count` binary viewers of `main`, connected one after the other (each after the one before has its greeting).
    static func connectViewers(_ count: Int, to server: TestServer, client: WebSocketClient) async throws -> [TestViewer] {
        var viewers: [TestViewer] = []
        for _ in 0..<count {
            let viewer = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=binary")
            try await viewer.waitForGreeting(binary: true)
            viewers.append(viewer)
        }
        return viewers
    }

    /// A linear animation of `move` repeated forever: a frame every tick for as long as a test runs.
    static func animateForever(_ server: TestServer) throws {
        let push = try server.http.send(
            "PATCH", "/api/v1/boards/main",
            body: #"{"rings":{"move":0.95},"animation":{"curve":"linear","duration":60,"repeat":"forever","autoreverse":true}}"#)
        try #require(push.status == 200, "\(push.text)")
    }

    @Test func sixViewersOnThreeLoops_getTheSameBytesForEverySeq_andAWriteThroughEachLoopReachesThemAll() async throws {
        let server = try TestServer { $0.loops = 3 }
        defer { server.shutdown() }
        try Self.animateForever(server)  // before the viewers, so they take their turns 0…5 with nothing between
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = try await Self.connectViewers(6, to: server, client: client)
        let spread = try await Self.spread(of: server, total: 6)
        #expect(spread == [2, 2, 2], "viewers per loop: \(spread)")

        // Three writes, each on a connection of its own (the test client closes each): the next three turns, so one
        // write goes through each loop. Each sets a ring no other write touches, at once.
        let writes = [("exercise", 0.31), ("stand", 0.62), ("task1", 0.93)]
        for (ring, value) in writes {
            let answer = try server.http.send(
                "PATCH", "/api/v1/boards/main", body: #"{"rings":{"\#(ring)":\#(value)},"animation":"none"}"#)
            #expect(answer.status == 200, "\(answer.text)")
        }
        for (index, viewer) in viewers.enumerated() {
            let deadline = Date().addingTimeInterval(15)
            var shown: Set<Int> = []
            while Date() < deadline {
                if let seq = viewer.lastBinarySeq, let picture = viewer.binaryPicture(at: seq) {
                    shown = Set(picture.values.map { Int(($0.p * 100).rounded()) })
                    if shown.isSuperset(of: [31, 62, 93]) { break }
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(shown.isSuperset(of: [31, 62, 93]), "viewer \(index) shows \(shown.sorted()) of the three writes")
        }

        // A second of frames more, then every seq two viewers share carries the same bytes.
        let now = try #require(viewers[0].lastBinarySeq)
        for viewer in viewers { try await viewer.waitForSeq(atLeast: UInt64(now) + 60, binary: true, timeout: 20) }
        let (common, mismatches) = compareBroadcasts(viewers.enumerated().map { ("viewer \($0)", $1.binaryBroadcast) })
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(common.count >= 30, "only \(common.count) frames every viewer got")
    }

    @Test func aViewerThatStopsReadingOnOneLoop_neverDelaysTheOthers() async throws {
        let server = try TestServer {
            $0.loops = 3
            $0.stallTimeoutSeconds = 60
        }
        defer { server.shutdown() }
        try Self.animateForever(server)
        // The write above took turn 0; the stalled viewer takes loop 1, the three reading ones loops 2, 0 and 1 (so
        // readers share the stalled viewer's loop and have loops of their own).
        let stalled = try RawWebSocket(port: server.port, path: "/ws?board=main&format=binary", receiveBufferBytes: 4096)
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let reading = try await Self.connectViewers(3, to: server, client: client)
        let spread = try await Self.spread(of: server, total: 4)
        #expect(spread.count == 3 && spread.allSatisfy { $0 >= 1 }, "viewers on every loop: \(spread)")

        // Until the stalled viewer is held (its window full), then for two seconds more: every reading viewer, on its
        // own loop or on the stalled viewer's, keeps getting frames and keeps up with the newest of them. (A loop held
        // up by the stalled socket would leave its viewers behind for as long as the stall lasts; the catch-up allows
        // for a starved test client.)
        let deadline = Date().addingTimeInterval(20)
        var held = false
        while !held, Date() < deadline {
            let metrics = try server.http.get("/metrics").text
            held = metrics.split(separator: "\n").contains { $0.hasPrefix("ringcast_viewers_held_total") && !$0.hasSuffix(" 0") }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(held, "the viewer that stopped reading was never held back")
        let before = reading.map { $0.binaryMessages.count }
        try await Task.sleep(for: .seconds(2))
        for (index, viewer) in reading.enumerated() {
            let got = viewer.binaryMessages.count - before[index]
            #expect(got >= 30, "reading viewer \(index) got \(got) frames in two seconds")
        }
        let newest = reading.compactMap(\.lastBinarySeq).max() ?? 0
        for viewer in reading {
            try await viewer.waitForSeq(atLeast: UInt64(newest), binary: true, timeout: 10)
        }
        withExtendedLifetime(stalled) {}
    }

    @Test func sigtermWithThreeLoops_answersEveryRequestSent_andClosesTheViewersOfEveryLoopWith1001() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-loops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try GracefulDrainTests.config(in: directory)
        let (server, port) = try await GracefulDrainTests.serve(
            config: config, data: directory.appendingPathComponent("data").path, flags: ["--loops", "3"])
        defer { server.signal(SIGKILL) }

        // Six viewers, one after the other (two on each loop), each reading on a thread of its own until its close.
        var outcomes: [GracefulDrainTests.ViewerOutcome] = []
        for _ in 0..<6 {
            let outcome = GracefulDrainTests.ViewerOutcome.watching(port: port, path: "/ws?board=drain&format=json")
            outcomes.append(outcome)
            let opened = Date().addingTimeInterval(10)
            while !outcome.state.withLock({ $0.open }), Date() < opened { try await Task.sleep(for: .milliseconds(5)) }
        }
        try #require(outcomes.allSatisfy { $0.state.withLock { $0.open } }, "the viewers did not all connect")
        let spread = Self.loopViewers(try TestHTTPClient(port: port).get("/metrics").text)
        #expect(spread == [2, 2, 2], "viewers per loop: \(spread)")

        // Pushers on keep-alive connections, spread over the loops, writing when the signal comes.
        let tallies = GracefulDrainTests.Tallies()
        defer { tallies.stop.store(true, ordering: .relaxed) }
        GracefulDrainTests.startPushers(port: port, tallies: tallies)
        let busy = Date().addingTimeInterval(20)
        while Date() < busy, !tallies.state.withLock({ $0.allSatisfy { $0.ok >= 5 } }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(tallies.state.withLock { $0.allSatisfy { $0.ok >= 5 } }, "the pushers never got going")

        let signalled = Date()
        server.signal(SIGTERM)
        let exited = try await server.secondsUntilExit(after: signalled, limit: 30)
        #expect(try await server.waitForExit() == 0, "\(server.stderr.suffix(2000))")
        #expect(exited.map { $0 < 13 } == true, "exited \(String(describing: exited)) s after SIGTERM")
        let ended = Date().addingTimeInterval(10)
        while Date() < ended, !tallies.state.withLock({ $0.allSatisfy(\.finished) }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        tallies.stop.store(true, ordering: .relaxed)
        for (pusher, tally) in tallies.state.withLock({ $0 }).enumerated() {
            #expect(tally.failures.isEmpty, "pusher \(pusher): \(tally.failures)")
        }
        for (index, outcome) in outcomes.enumerated() {
            let code = try #require(outcome.state.withLock { $0.close }, "viewer \(index)'s read did not end").get()
            #expect(code == 1001, "viewer \(index) was closed with \(String(describing: code))")
        }
        let drain = server.stderr.split(separator: "\n").first { $0.contains("drain finished") }.map(String.init) ?? ""
        #expect(drain.contains("6 of 6 viewers closed with 1001"), "the drain's line: \(drain)")
    }
}
