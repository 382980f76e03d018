import Foundation
import Logging
import RingCastCore
import Testing

@testable import RingCastServer

/// The webhook sender on its own, against a real loopback receiver.
@Suite("Webhook sender")
struct WebhookSenderTests {
    /// A stopped server starts no further try: the retry of a failed POST that was waiting is given up.
    @Test func afterStop_noRetryStarts_andNothingStaysPending() async throws {
        let receiver = try WebhookReceiver(status: 500)
        defer { receiver.stop() }
        let sender = WebhookSender(logger: Logger(label: "ringcast-test"), attempts: 5, firstDelay: 0.3)
        // A board name no other test uses: a port freed by another test's receiver may be this one's, and a
        // server of that test still retrying would reach it.
        let end = CountdownEnd(
            board: "stopped-sender", ring: "c", tick: 7, webhook: "http://127.0.0.1:\(receiver.port)/h")
        sender.send(end, t: 1000)
        _ = try await receiver.waitForRequests(1)  // the first try, answered 500
        sender.stop()
        // The retry was due 0.3 s after the failure; it ran (or would have) well within a second.
        let deadline = Date().addingTimeInterval(5)
        while sender.pendingCount > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(sender.pendingCount == 0)
        #expect(receiver.requests.filter { $0.body.contains(#""board":"stopped-sender""#) }.count == 1)
    }
}
