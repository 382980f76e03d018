import Dispatch
import Foundation
import Logging
import RingCastClient
import RingCastCore
import Synchronization

/// POSTs countdown end events to their rings' webhooks from a queue of its own, never the event loop:
/// `{"board":B,"ring":R,"event":"countdownEnded","tick":K,"t":MS}`, with up to `attempts` tries, waiting
/// `firstDelay` after the first failure and twice as long after each next one. A try fails on a connection
/// error, a timeout or a status outside 2xx; the last failure is logged as an error, the others as warnings.
///
/// In cluster mode every node finds the same end on the same tick; `claim` lets one of them deliver it.
///
/// Thread-safe: `send` may be called from any thread; deliveries run one at a time on the queue.
final class WebhookSender: Sendable {
    /// Asks whether this process should deliver `end` and answers on any thread: true for one process only
    /// (cluster mode's Redis `SET NX`), or for every one when the answer cannot be had (at least once).
    typealias Claim = @Sendable (CountdownEnd, @escaping @Sendable (Bool) -> Void) -> Void

    /// The JSON body of one delivery.
    struct Payload: Sendable, Equatable, Encodable {
        var board: String
        var ring: String
        var event: String
        var tick: Int64
        var t: Double
    }

    private let queue = DispatchQueue(label: "ringcast-webhooks")
    private let logger: Logger
    private let claim: Claim?
    let attempts: Int
    let firstDelay: Double
    let timeoutSeconds: Int
    /// Deliveries queued or waiting for a retry; beyond `maximumPending` new ones are dropped and logged.
    private let pending = Mutex(0)
    static let maximumPending = 1000
    /// Set by `stop()`: the server has stopped, so no try starts any more (documented: retries still queued
    /// at shutdown are lost).
    private let stopped = Mutex(false)

    init(logger: Logger, claim: Claim? = nil, attempts: Int = 5, firstDelay: Double = 0.5, timeoutSeconds: Int = 5) {
        self.logger = logger
        self.claim = claim
        self.attempts = max(1, attempts)
        self.firstDelay = firstDelay
        self.timeoutSeconds = max(1, timeoutSeconds)
    }

    /// Deliveries not finished yet (tests and the log at shutdown).
    var pendingCount: Int { pending.withLock { $0 } }

    /// Starts no further try, logging how many deliveries are given up; a try under way finishes. Any thread.
    func stop() {
        stopped.withLock { $0 = true }
        let left = pendingCount
        if left > 0 {
            logger.warning("\(left) webhook \(left == 1 ? "delivery" : "deliveries") given up at shutdown")
        }
    }

    /// Logs that `end`'s webhook is not POSTed, and why.
    func refuse(_ end: CountdownEnd, reason: String) {
        logger.error("webhook \(end.webhook ?? "") for \(end.board)/\(end.ring) tick \(end.tick) not sent: \(reason)")
    }

    /// Queues the POST of `end` (whose `webhook` is set) with `t`, the wall-clock milliseconds of its tick.
    func send(_ end: CountdownEnd, t: Double) {
        guard let url = end.webhook, case .success(let target) = CountdownOptions.webhookTarget(url) else { return }
        let admitted = pending.withLock { count in
            guard count < Self.maximumPending else { return false }
            count += 1
            return true
        }
        guard admitted else {
            logger.error(
                "webhook for \(end.board)/\(end.ring) at tick \(end.tick) dropped: \(Self.maximumPending) deliveries pending")
            return
        }
        let payload = Payload(board: end.board, ring: end.ring, event: "countdownEnded", tick: end.tick, t: t)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(payload)).map(Array.init) ?? []
        let label = "\(end.board)/\(end.ring) tick \(end.tick)"
        guard let claim else {
            queue.async { [self] in deliver(body, to: target, url: url, attempt: 1, label: label) }
            return
        }
        claim(end) { [self] claimed in
            guard claimed else {
                pending.withLock { $0 -= 1 }
                logger.debug("webhook \(url) for \(label): another node delivers it")
                return
            }
            queue.async { [self] in deliver(body, to: target, url: url, attempt: 1, label: label) }
        }
    }

    /// One try; on failure another after the backoff, until `attempts` tries.
    private func deliver(_ body: [UInt8], to target: CountdownOptions.WebhookTarget, url: String, attempt: Int, label: String) {
        guard !stopped.withLock({ $0 }) else {
            pending.withLock { $0 -= 1 }
            return
        }
        do {
            let address = try ServerAddress(resolving: target.host, port: target.port)
            let client = HTTPClient(
                address: address, token: nil, timeoutSeconds: timeoutSeconds, tls: target.https ? TLSOptions() : nil)
            defer { client.disconnect() }
            _ = try client.request("POST", target.path, json: body)
            pending.withLock { $0 -= 1 }
            logger.debug("webhook \(url) took \(label)")
        } catch {
            guard attempt < attempts else {
                pending.withLock { $0 -= 1 }
                logger.error("webhook \(url) for \(label) failed \(attempt) times, giving up: \(error)")
                return
            }
            let delay = firstDelay * Double(1 << min(attempt - 1, 20))
            logger.warning("webhook \(url) for \(label) failed (try \(attempt) of \(attempts)), again in \(delay) s: \(error)")
            queue.asyncAfter(deadline: .now() + delay) { [self] in
                deliver(body, to: target, url: url, attempt: attempt + 1, label: label)
            }
        }
    }
}
