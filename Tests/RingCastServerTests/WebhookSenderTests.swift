import Foundation
import Logging
import RingCastClient
import RingCastCore
import RingCastTransport
import Synchronization
import Testing

@testable import RingCastServer

#if canImport(Glibc)
    import Glibc
#endif

/// The webhook sender on its own, against a real loopback receiver.
@Suite("Webhook sender")
struct WebhookSenderTests {
    private static let logger = Logger(label: "ringcast-test")

    /// A stopped server starts no further try: the retry of a failed POST that was waiting is given up.
    @Test func afterStop_noRetryStarts_andNothingStaysPending() async throws {
        let sender = WebhookSender(logger: Self.logger, attempts: 5, firstDelay: 0.3)
        // The sender is stopped while its first try waits for the answer: the retry the 500 schedules must
        // not start, however late this test's own task runs on a loaded box.
        let receiver = try WebhookReceiver(status: 500) { _ in sender.stop() }
        defer { receiver.stop() }
        // A board name no other test uses: a port freed by another test's receiver may be this one's, and a
        // server of that test still retrying would reach it.
        let end = CountdownEnd(
            board: "stopped-sender", ring: "c", tick: 7, webhook: "http://127.0.0.1:\(receiver.port)/h")
        sender.send(end, t: 1000)
        _ = try await receiver.waitForRequests(1)  // the first try, answered 500
        // The retry was due 0.3 s after the failure; by then it is given up, and nothing stays pending.
        let deadline = Date().addingTimeInterval(10)
        while sender.pendingCount > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(sender.pendingCount == 0)
        #expect(receiver.requests.filter { $0.body.contains(#""board":"stopped-sender""#) }.count == 1)
    }

    // MARK: The poster's bounds

    /// A receiver that announces a terabyte, or streams chunks without end, gets its connection dropped at the
    /// cap: the answer read never grows past it, and neither does the process's memory.
    @Test(arguments: [true, false])
    func anEndlessAnswer_isCutAtTheCap_andMemoryStaysBounded(announced: Bool) async throws {
        let receiver = try WebhookReceiver(answer: .endless(announced: announced))
        defer { receiver.stop() }
        let poster = try HTTPPoster()
        defer { poster.stop() }
        // A deadline far beyond what the cap needs: reaching it would mean the answer was read on and on.
        let result = await Self.post(
            poster, HTTPPost(url: "http://127.0.0.1:\(receiver.port)/h", body: [], deadlineMilliseconds: 60_000))
        #expect(result == .failure(.answerTooLarge(limit: 64 * 1024)))
        // The receiver's own count: what the kernel's buffers took before the client hung up, not gigabytes.
        #expect(receiver.bytesSent < 64 << 20, "\(receiver.bytesSent) bytes sent")
    }

    /// A receiver that trickles one byte a second never lets a per-read timeout fire; the whole-try deadline
    /// cuts it, and meanwhile another board's webhook is POSTed rather than queued behind it.
    @Test func aTricklingReceiver_isCutAtTheDeadline_andAnotherBoardsWebhookArrivesMeanwhile() async throws {
        let trickler = try WebhookReceiver(answer: .trickle(interval: 1))
        defer { trickler.stop() }
        let other = try WebhookReceiver()
        defer { other.stop() }
        // A deadline far longer than the other POST can take, even on a starved box: the check is the order.
        let sender = WebhookSender(logger: Self.logger, attempts: 1, deadline: 20)
        defer { sender.stop() }
        // Queued one right after the other, the trickler first, with no wait of this task between (a loaded suite
        // starved it for half a minute once): a sender that delivered one at a time would POST the other only after
        // the trickle's deadline.
        sender.send(CountdownEnd(board: "trickled", ring: "c", tick: 1, webhook: "http://127.0.0.1:\(trickler.port)/h"), t: 0)
        sender.send(CountdownEnd(board: "on-time", ring: "c", tick: 1, webhook: "http://127.0.0.1:\(other.port)/h"), t: 0)
        try await trickler.waitForRequests(1, timeout: 30)
        try await other.waitForRequests(1, timeout: 30)
        // The try ends at its 20 s deadline; a loaded machine (two CPU hogs and a build beside the suite) once took
        // longer than 30 s to see it through, so the wait bounds only a try that never ends.
        try await Self.waitUntil("the trickler's try ends", timeout: 90) {
            sender.statistics.failed == 1 && trickler.answersCut == 1
        }
        #expect(sender.statistics.delivered == 1)
        // By the receivers' own clocks, not this task's (a loaded suite can starve it for seconds).
        let arrived = try #require(other.firstRequestAt)
        let cut = try #require(trickler.firstCutAt, "the client hung up on the trickle (1000 bytes would take 1000 s)")
        #expect(arrived < cut, "the other board's POST arrived while the trickler's try still ran")
        #expect(sender.pendingCount == 0)
    }

    @Test func aTricklingAnswer_failsAsTimedOut() async throws {
        let trickler = try WebhookReceiver(answer: .trickle(interval: 0.5))
        defer { trickler.stop() }
        let poster = try HTTPPoster()
        defer { poster.stop() }
        let result = await Self.post(
            poster, HTTPPost(url: "http://127.0.0.1:\(trickler.port)/h", body: [], deadlineMilliseconds: 1500))
        #expect(result == .failure(.timedOut(milliseconds: 1500)))
    }

    /// A 302 is the answer, not a way elsewhere: the try fails with it, and its Location gets nothing.
    @Test func aRedirect_isNotFollowed() async throws {
        let target = try WebhookReceiver()
        defer { target.stop() }
        let redirecting = try WebhookReceiver(answer: .redirect(location: "http://127.0.0.1:\(target.port)/moved"))
        defer { redirecting.stop() }
        let poster = try HTTPPoster()
        defer { poster.stop() }
        let redirected = await Self.post(poster, HTTPPost(url: "http://127.0.0.1:\(redirecting.port)/h", body: []))
        #expect(redirected == .failure(.httpStatus(302)))
        // Shown by a POST of its own rather than a sleep: the target's first request is that one.
        let direct = await Self.post(poster, HTTPPost(url: "http://127.0.0.1:\(target.port)/direct", body: Array("{}".utf8)))
        #expect(direct == .success(PostAnswer(status: 200, answerBytes: direct.answerBytes)))
        #expect(target.requests.map { $0.head.split(separator: " ")[1] } == ["/direct"])
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/x", "dict://127.0.0.1:11211/stat"])
    func aSchemeOtherThanHTTP_isRefused(url: String) async throws {
        let poster = try HTTPPoster()
        defer { poster.stop() }
        let result = await Self.post(poster, HTTPPost(url: url, body: []))
        #expect(result == .failure(.unsupportedScheme(String(url.prefix { $0 != ":" }))))
    }

    // MARK: Retries, bounds and counts

    /// A countdown cancelled (or redefined) after a failed try is not tried again: the sender asks first.
    @Test func retries_stopOnceTheEndIsNoLongerCurrent() async throws {
        let cancelled = Mutex(false)
        let receiver = try WebhookReceiver(status: 500) { _ in cancelled.withLock { $0 = true } }
        defer { receiver.stop() }
        let sender = WebhookSender(logger: Self.logger, attempts: 5, firstDelay: 0.05)
        defer { sender.stop() }
        let asked = Mutex(0)
        let end = CountdownEnd(board: "cancelled", ring: "c", tick: 3, webhook: "http://127.0.0.1:\(receiver.port)/h")
        sender.send(end, t: 0) { answer in
            asked.withLock { $0 += 1 }
            answer(!cancelled.withLock { $0 })
        }
        try await Self.waitUntil("the retry is given up") { sender.statistics.cancelled == 1 }
        #expect(receiver.requests.count == 1)
        #expect(asked.withLock { $0 } == 1)
        #expect(sender.pendingCount == 0)
        #expect(sender.statistics == WebhookStatistics(retried: 1, cancelled: 1))
    }

    /// A board's pending deliveries are bounded: past `maximumPerBoard` an end is dropped and counted, and
    /// another board still gets its own.
    @Test func aBoardsQueue_isBounded_andItsDropsAreCounted() async throws {
        let trickler = try WebhookReceiver(answer: .trickle(interval: 1))
        defer { trickler.stop() }
        let sender = WebhookSender(logger: Self.logger, attempts: 1, deadline: 30)
        defer { sender.stop() }
        for tick in 0..<Int64(WebhookSender.maximumPerBoard + 3) {
            sender.send(CountdownEnd(board: "full", ring: "c", tick: tick, webhook: "http://127.0.0.1:\(trickler.port)/h"), t: 0)
        }
        #expect(sender.statistics.dropped == 3)
        #expect(sender.pendingCount == WebhookSender.maximumPerBoard)
        sender.send(CountdownEnd(board: "roomy", ring: "c", tick: 0, webhook: "http://127.0.0.1:\(trickler.port)/h"), t: 0)
        #expect(sender.statistics.dropped == 3 && sender.pendingCount == WebhookSender.maximumPerBoard + 1)
    }

    /// Each outcome is counted: a 2xx delivered; a 500 retried, then failed.
    @Test func outcomes_areCounted() async throws {
        let ok = try WebhookReceiver()
        defer { ok.stop() }
        let failing = try WebhookReceiver(status: 500)
        defer { failing.stop() }
        let sender = WebhookSender(logger: Self.logger, attempts: 2, firstDelay: 0.05)
        defer { sender.stop() }
        sender.send(CountdownEnd(board: "counted", ring: "a", tick: 1, webhook: "http://127.0.0.1:\(ok.port)/h"), t: 0)
        sender.send(CountdownEnd(board: "counted", ring: "b", tick: 1, webhook: "http://127.0.0.1:\(failing.port)/h"), t: 0)
        sender.refuse(CountdownEnd(board: "counted", ring: "c", tick: 1, webhook: "http://10.0.0.1/h"), reason: "test")
        sender.throttle(CountdownEnd(board: "counted", ring: "a", tick: 2, webhook: "http://127.0.0.1:\(ok.port)/h"))
        try await Self.waitUntil("both deliveries end") { sender.pendingCount == 0 }
        #expect(
            sender.statistics == WebhookStatistics(delivered: 1, retried: 1, failed: 1, refused: 1, throttled: 1))
        #expect(failing.requests.count == 2)
    }

    /// `/metrics` shows every outcome, zero ones too, growing with the sender's counts.
    @Test func metrics_listEveryOutcome() {
        let metrics = ServerMetrics()
        let counts = Mutex(WebhookStatistics())
        metrics.webhookStatistics = { counts.withLock { $0 } }
        func rendered() -> String {
            String(decoding: metrics.render(transport: TransportStatistics(), store: nil, storeHealthy: true), as: UTF8.self)
        }
        let first = rendered()
        for outcome in ["delivered", "retried", "failed", "cancelled", "dropped", "refused", "throttled"] {
            #expect(first.contains(#"ringcast_webhooks_total{outcome="\#(outcome)"} 0"#), "\(outcome)")
        }
        counts.withLock { $0 = WebhookStatistics(delivered: 3, dropped: 2) }
        let second = rendered()
        #expect(second.contains(#"ringcast_webhooks_total{outcome="delivered"} 3"#))
        #expect(second.contains(#"ringcast_webhooks_total{outcome="dropped"} 2"#))
    }

    // MARK: libcurl, loaded on the first delivery

    /// The poster, and with it libcurl and its thread, is made by the first delivery, not with the sender: a
    /// refused or throttled end makes none, and every later delivery shares the one made.
    @Test func thePoster_isMadeByTheFirstDelivery_andOnlyOnce() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let made = Mutex(0)
        let sender = WebhookSender(
            logger: Self.logger,
            makePoster: { () throws(PostFailure) in
                made.withLock { $0 += 1 }
                return try HTTPPoster()
            })
        defer { sender.stop() }
        let url = "http://127.0.0.1:\(receiver.port)/h"
        sender.refuse(CountdownEnd(board: "lazy", ring: "a", tick: 1, webhook: url), reason: "test")
        sender.throttle(CountdownEnd(board: "lazy", ring: "a", tick: 2, webhook: url))
        #expect(made.withLock { $0 } == 0)
        for tick in Int64(3)...5 { sender.send(CountdownEnd(board: "lazy", ring: "b", tick: tick, webhook: url), t: 0) }
        try await Self.waitUntil("the three ends are delivered") { sender.statistics.delivered == 3 }
        #expect(made.withLock { $0 } == 1)
        #expect(receiver.requests.count == 3)
    }

    /// Without libcurl an end fails like any other (tried, counted, logged) with a line that says so, the
    /// loading is not tried again, and the sender takes the next end the same way.
    @Test func withoutLibcurl_anEndFails_isCounted_andTheLogSaysLibcurlIsMissing() async throws {
        let lines = LogLines()
        let made = Mutex(0)
        let sender = WebhookSender(
            logger: Logger(label: "ringcast-test") { _ in lines }, attempts: 2, firstDelay: 0.05,
            makePoster: { () throws(PostFailure) in
                made.withLock { $0 += 1 }
                throw .libcurlMissing("libcurl.so.4: cannot open shared object file: No such file or directory")
            })
        defer { sender.stop() }
        sender.send(CountdownEnd(board: "bare", ring: "c", tick: 1, webhook: "http://127.0.0.1:9/h"), t: 0)
        try await Self.waitUntil("the end is given up") { sender.pendingCount == 0 }
        #expect(sender.statistics == WebhookStatistics(retried: 1, failed: 1))
        let missing =
            "libcurl (libcurl4) is not installed: libcurl.so.4: cannot open shared object file: No such file or directory"
        let line = "webhook http://127.0.0.1:9/h for bare/c tick 1 failed"
        #expect(lines.all.contains { $0.hasPrefix("warning \(line) (try 1 of 2)") && $0.hasSuffix(missing) })
        #expect(lines.all.contains { $0 == "error \(line) 2 times, giving up: \(missing)" })
        sender.send(CountdownEnd(board: "bare", ring: "c", tick: 2, webhook: "http://127.0.0.1:9/h"), t: 0)
        try await Self.waitUntil("the next end is given up") { sender.statistics.failed == 2 }
        #expect(made.withLock { $0 } == 1)
    }

    // MARK: Pure rules, by explicit ticks and times

    /// A 0.001 s restarting countdown ends on every tick; its webhook fires once a second per ring.
    @Test func aRingsWebhook_firesAtMostOnceASecond() {
        var pace = WebhookPace(fps: 60)
        func admit(_ board: String, _ ring: String, _ tick: Int64) -> Bool {
            pace.admit(CountdownEnd(board: board, ring: ring, tick: tick))
        }
        let admitted = (100...400).filter { admit("b", "r", Int64($0)) }
        #expect(admitted == [100, 160, 220, 280, 340, 400])
        // Another ring, and another board, have their own second.
        let others = [admit("b", "s", 401), admit("c", "r", 401), admit("b", "r", 459)]
        #expect(others == [true, true, false])
        // A removed board starts afresh.
        pace.forget("b")
        let afresh = admit("b", "r", 402)
        #expect(afresh)
    }

    /// The same line is written once per interval, then with the count of those held back.
    @Test func aRepeatedLine_isWrittenOncePerInterval_withTheCountHeldBack() {
        var log = RepeatedLog(interval: 60)
        let verdicts = [("a", 0.0), ("a", 10), ("b", 10), ("a", 59.9), ("a", 60), ("a", 61), ("a", 1000)].map {
            log.admit($0.0, at: $0.1)
        }
        #expect(
            verdicts == [
                .write(heldBack: 0), .holdBack, .write(heldBack: 0), .holdBack, .write(heldBack: 2), .holdBack,
                .write(heldBack: 1),
            ])
        #expect(log.suffix(.write(heldBack: 2)).contains("2 more like it"))
        #expect(log.suffix(.write(heldBack: 0)) == "")
        // 230 lines a second for a minute come out as 1.
        var flood = RepeatedLog(interval: 60)
        let written = (0..<(230 * 60)).filter { flood.admit("x", at: Double($0) / 230) != .holdBack }
        #expect(written.count == 1)
    }

    // MARK: Helpers

    private static func post(_ poster: HTTPPoster, _ post: HTTPPost) async -> Result<PostAnswer, PostFailure> {
        await withCheckedContinuation { continuation in
            poster.post(post) { continuation.resume(returning: $0) }
        }
    }

    /// Polls `condition` until it holds, or fails the test after `timeout` seconds.
    private static func waitUntil(_ what: String, timeout: Double = 30, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("timed out after \(timeout) s waiting until \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// This process's resident memory, from /proc/self/statm (its second field, in pages).
}

extension Result where Success == PostAnswer {
    /// The answer's byte count, when it succeeded.
    var answerBytes: Int {
        if case .success(let answer) = self { answer.answerBytes } else { 0 }
    }
}

/// Collects the lines a `Logger` writes, as `level message`.
private final class LogLines: LogHandler, Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append("\(event.level) \(event.message)") }
    }
}
