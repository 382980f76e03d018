import Foundation
import Testing

/// Issue 30, defects 2 and 3, through a real `ringcast serve`: a countdown's webhook receiver that answered
/// `Content-Length: 1000000000000` (or chunks without end) at 40 MB/s took the server from 32 to 548 MiB, and one
/// that trickled a byte every few seconds held every other board's webhook behind it (an end at +2 s arrived at
/// +20 s). The server's own resident memory is read from /proc, so nothing else in the test process counts.
@Suite("Webhook receivers that misbehave, live")
struct WebhookMemoryLiveTests {
    @Test(arguments: [true, false])
    func endlessAndTricklingReceivers_leaveTheServersMemoryBounded_andAnotherBoardsWebhookOnTime(announced: Bool)
        async throws
    {
        let endless = try WebhookReceiver(answer: .endless(announced: announced))
        defer { endless.stop() }
        let trickler = try WebhookReceiver(answer: .trickle(interval: 1))
        defer { trickler.stop() }
        let calm = try WebhookReceiver()
        defer { calm.stop() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-webhooks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await TestProcess(["serve", "--port", "0", "--data-dir", data.path])
        defer { serve.signal(SIGKILL) }
        let line = try await serve.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let http = TestHTTPClient(port: port)
        for (board, receiver) in [("flood", endless), ("slow", trickler), ("calm", calm)] {
            let body = #"{"rings":[{"id":"c","kind":"countdown","webhook":"http://127.0.0.1:\#(receiver.port)/h"}]}"#
            let created = try http.send("PUT", "/api/v1/boards/\(board)", body: body)
            #expect(created.status == 201, "\(created.text)")
        }
        let before = try Self.residentBytes(of: serve.pid)

        // The endless answer: cut at the cap, so the receiver's writes stop at what the kernels' buffers took.
        _ = try http.send("POST", "/api/v1/boards/flood/countdown", body: #"{"seconds":0.2}"#)
        _ = try await endless.waitForRequests(1, timeout: 15)
        try await Self.waitUntil("the server hangs up on the endless answer") { endless.answersCut >= 1 }
        let grown = try Self.residentBytes(of: serve.pid) - before
        #expect(grown < 16 << 20, "the server's resident memory grew by \(grown >> 20) MiB")
        #expect(endless.bytesSent < 64 << 20, "the receiver got \(endless.bytesSent >> 20) MiB out before the hang-up")

        // The trickle: its try runs until the deadline (5 s); another board's webhook does not wait for it.
        // Both countdowns started back to back, the calm one ending 0.8 s after the slow one: its webhook is due while
        // the trickling try runs (5 s), whenever this task gets to look.
        _ = try http.send("POST", "/api/v1/boards/slow/countdown", body: #"{"seconds":0.2}"#)
        _ = try http.send("POST", "/api/v1/boards/calm/countdown", body: #"{"seconds":1}"#)
        _ = try await trickler.waitForRequests(1, timeout: 15)
        _ = try await calm.waitForRequests(1, timeout: 15)
        try await Self.waitUntil("the deadline cuts the trickle") { trickler.answersCut >= 1 }
        // By the receivers' own clocks, not this task's (a loaded suite can starve it for seconds).
        let arrived = try #require(calm.firstRequestAt)
        let cut = try #require(trickler.firstCutAt)
        #expect(arrived < cut, "the calm board's webhook arrived while the trickling try still ran")
        let after = try Self.residentBytes(of: serve.pid) - before
        #expect(after < 16 << 20, "the server's resident memory grew by \(after >> 20) MiB")
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit() == 0, "stderr: \(serve.stderr)")
    }

    /// VmRSS of process `pid`, in bytes.
    private static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) })
        return kilobytes * 1024
    }

    private static func waitUntil(_ what: String, timeout: Double = 20, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw ViewerError.timeout("timed out after \(timeout) s waiting until \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
