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
        let sender = WebhookSender(logger: Logger(label: "ringcast-test"), attempts: 5, firstDelay: 0.3)
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
}
