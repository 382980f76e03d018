import Dispatch
import Foundation
import Logging
import RingCastClient
import RingCastCore
import Synchronization

/// POSTs countdown end events to their rings' webhooks, never from the event loop:
/// `{"board":B,"ring":R,"event":"countdownEnded","tick":K,"t":MS}`, with up to `attempts` tries, waiting
/// `firstDelay` after the first failure and twice as long after each next one. The POSTs run concurrently on
/// an `HTTPPoster` (libcurl), each try cut at `deadline` seconds and at `answerLimit` answer bytes, at most two
/// at once per receiver, so a slow receiver delays only its own webhooks. A try fails on a connection error,
/// the deadline, an answer too long or a status outside 2xx (a redirect included: it is not followed).
///
/// Bounds: at most `maximumPerBoard` deliveries pending per board and `maximumPending` in all (beyond them an
/// end is dropped); before each retry the end is checked to be still current (`Check`: its countdown not
/// cancelled or redefined), else the retry does not happen. Failures are logged at most once a minute per
/// webhook URL and kind (a retry's warning, a give-up's error), each line saying how many it stands for
/// (`RepeatedLog`). Outcomes are counted in `statistics` (`ringcast_webhooks_total{outcome}`).
///
/// In cluster mode every node finds the same end on the same tick; `claim` lets one of them deliver it.
///
/// The poster is made on the first delivery, off the event loop, not at start: making it loads libcurl (27 more
/// shared libraries, 6 MiB resident) and starts its thread, which a server whose countdowns have no webhook never
/// needs. When libcurl cannot be loaded, each try fails with `PostFailure.libcurlMissing`, counted and logged
/// like any failure, and the server runs on.
///
/// Thread-safe: every method may be called from any thread.
final class WebhookSender: Sendable {
    /// Asks whether this process should deliver `end` and answers on any thread: true for one process only
    /// (cluster mode's Redis `SET NX`), or for every one when the answer cannot be had (at least once).
    typealias Claim = @Sendable (CountdownEnd, @escaping @Sendable (Bool) -> Void) -> Void
    /// Asks whether an end is still one of its board's ends (its countdown not cancelled or redefined, its ring
    /// and webhook unchanged), and answers on any thread; the server asks on the service thread.
    typealias Check = @Sendable (@escaping @Sendable (Bool) -> Void) -> Void

    /// The JSON body of one delivery.
    struct Payload: Sendable, Equatable, Encodable {
        var board: String
        var ring: String
        var event: String
        var tick: Int64
        var t: Double
    }

    /// One end on its way: what is POSTed where, and how to ask whether it still counts.
    private struct Delivery: Sendable {
        var post: HTTPPost
        var board: String
        var label: String
        var isCurrent: Check?
    }

    /// Makes the poster: `HTTPPoster.init`, or a test's stand-in for a missing libcurl.
    typealias MakePoster = @Sendable () throws(PostFailure) -> HTTPPoster

    /// The poster, made on the first delivery.
    private enum PosterSlot {
        case notMade
        case made(HTTPPoster)
        case unavailable(PostFailure)
        case stopped
    }

    private struct State {
        var pending = 0
        var pendingPerBoard: [String: Int] = [:]
        var stopped = false
        var statistics = WebhookStatistics()
        var log = RepeatedLog(interval: 60)
    }

    static let maximumPending = 1000
    static let maximumPerBoard = 16
    private let makePoster: MakePoster
    private let poster = Mutex(PosterSlot.notMade)
    private let retries = DispatchQueue(label: "ringcast-webhook-retries")
    private let logger: Logger
    private let claim: Claim?
    private let state = Mutex(State())
    private let started = ContinuousClock.now
    let attempts: Int
    let firstDelay: Double
    /// The whole of one try, connection to last byte.
    let deadline: Double
    let answerLimit: Int

    init(
        logger: Logger, claim: Claim? = nil, attempts: Int = 5, firstDelay: Double = 0.5, deadline: Double = 5,
        answerLimit: Int = 64 * 1024, makePoster: @escaping MakePoster = { () throws(PostFailure) in try HTTPPoster() }
    ) {
        self.logger = logger
        self.makePoster = makePoster
        self.claim = claim
        self.attempts = max(1, attempts)
        self.firstDelay = firstDelay
        self.deadline = max(0.001, deadline)
        self.answerLimit = max(1, answerLimit)
    }

    /// Deliveries not finished yet (tests and the log at shutdown).
    var pendingCount: Int { state.withLock { $0.pending } }

    /// What became of the webhooks so far.
    var statistics: WebhookStatistics { state.withLock { $0.statistics } }

    /// Starts no further try, logging how many deliveries are given up, and ends the tries under way. Any thread.
    func stop() {
        let left = state.withLock { state in
            defer {
                state.stopped = true
                state.pending = 0
                state.pendingPerBoard = [:]
            }
            return state.stopped ? 0 : state.pending
        }
        let slot = poster.withLock { slot in
            defer { slot = .stopped }
            return slot
        }
        if case .made(let poster) = slot { poster.stop() }
        if left > 0 {
            logger.warning("\(left) webhook \(left == 1 ? "delivery" : "deliveries") given up at shutdown")
        }
    }

    /// Logs (at most once a minute per URL) that `end`'s webhook is not POSTed, and why; counted as `refused`.
    func refuse(_ end: CountdownEnd, reason: String) {
        let url = end.webhook ?? ""
        let verdict = record(\.refused, logKey: "refused \(url)")
        guard let verdict else { return }
        logger.error("webhook \(url) for \(end.board)/\(end.ring) tick \(end.tick) not sent: \(reason)\(verdict)")
    }

    /// Notes that `end` is not POSTed because its ring's webhook fired less than a second before
    /// (`WebhookPace`); counted as `throttled`, logged at most once a minute per ring.
    func throttle(_ end: CountdownEnd) {
        let verdict = record(\.throttled, logKey: "throttled \(end.board)/\(end.ring)")
        guard let verdict else { return }
        logger.notice(
            "webhook of \(end.board)/\(end.ring): end at tick \(end.tick) not POSTed, the last one was less than 1 s before (at most one a second per ring)\(verdict)"
        )
    }

    /// Queues the POST of `end` (whose `webhook` is set) with `t`, the wall-clock milliseconds of its tick.
    /// `isCurrent`, when given, is asked before each retry.
    func send(_ end: CountdownEnd, t: Double, isCurrent: Check? = nil) {
        guard let url = end.webhook, case .success = CountdownOptions.webhookTarget(url) else { return }
        // Built before it takes a place in the queue: a body that cannot be encoded is not sent, never sent empty.
        let body: [UInt8]
        do throws(EncodingFailure) {
            body = try Self.body(of: Payload(board: end.board, ring: end.ring, event: "countdownEnded", tick: end.tick, t: t))
        } catch {
            return refuse(end, reason: "\(error)")
        }
        let admitted = state.withLock { state -> Bool? in
            guard !state.stopped else { return nil }
            guard state.pending < Self.maximumPending, state.pendingPerBoard[end.board, default: 0] < Self.maximumPerBoard
            else {
                state.statistics.dropped += 1
                return false
            }
            state.pending += 1
            state.pendingPerBoard[end.board, default: 0] += 1
            return true
        }
        guard let admitted else { return }
        guard admitted else {
            if let verdict = logVerdict("dropped \(end.board)") {
                logger.error(
                    "webhook for \(end.board)/\(end.ring) at tick \(end.tick) dropped: \(Self.maximumPerBoard) deliveries of the board (or \(Self.maximumPending) in all) pending\(verdict)"
                )
            }
            return
        }
        let post = HTTPPost(
            url: url, body: body, deadlineMilliseconds: Int((deadline * 1000).rounded(.up)), answerLimit: answerLimit)
        let delivery = Delivery(
            post: post, board: end.board, label: "\(end.board)/\(end.ring) tick \(end.tick)", isCurrent: isCurrent)
        guard let claim else { return attempt(delivery, number: 1) }
        claim(end) { [self] claimed in
            guard claimed else {
                finish(delivery, counting: nil)
                logger.debug("webhook \(url) for \(delivery.label): another node delivers it")
                return
            }
            attempt(delivery, number: 1)
        }
    }

    /// The POST's body: `payload` as JSON with sorted keys. Throws only for a non-finite `t`, which a tick's
    /// wall-clock time never is.
    static func body(of payload: Payload) throws(EncodingFailure) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(payload))
        } catch {
            throw EncodingFailure(encoding: Payload.self, error)
        }
    }

    /// Try `number`; on failure another after the backoff, until `attempts` tries.
    private func attempt(_ delivery: Delivery, number: Int) {
        guard !state.withLock({ $0.stopped }) else { return }
        post(delivery.post) { [self] result in
            switch result {
            case .success:
                finish(delivery, counting: \.delivered)
                logger.debug("webhook \(delivery.post.url) took \(delivery.label)")
            case .failure(.stopped):
                return
            case .failure(let failure):
                failed(delivery, number: number, failure)
            }
        }
    }

    /// Hands `post` to the poster. Before there is one (the first delivery) or when there can be none, on the
    /// retry queue: loading libcurl, and the failure without it, never hold up the event loop, which sends the
    /// first tries.
    private func post(_ post: HTTPPost, completion: @escaping @Sendable (Result<PostAnswer, PostFailure>) -> Void) {
        if case .made(let poster) = poster.withLock({ $0 }) { return poster.post(post, completion: completion) }
        retries.async { [self] in
            // Made and handed the post under the lock: a later post, which finds the poster made, queues behind
            // this one.
            let failure = poster.withLock { slot -> PostFailure? in
                switch slot {
                case .notMade:
                    do throws(PostFailure) {
                        let made = try makePoster()
                        slot = .made(made)
                        made.post(post, completion: completion)
                        return nil
                    } catch {
                        slot = .unavailable(error)
                        return error
                    }
                case .made(let poster):
                    poster.post(post, completion: completion)
                    return nil
                case .unavailable(let failure): return failure
                case .stopped: return .stopped
                }
            }
            if let failure { completion(.failure(failure)) }
        }
    }

    private func failed(_ delivery: Delivery, number: Int, _ failure: PostFailure) {
        let url = delivery.post.url
        guard number < attempts else {
            finish(delivery, counting: \.failed)
            if let verdict = logVerdict("gave up \(url)") {
                logger.error("webhook \(url) for \(delivery.label) failed \(number) times, giving up: \(failure)\(verdict)")
            }
            return
        }
        let delay = firstDelay * Double(1 << min(number - 1, 20))
        guard let verdict = record(\.retried, logKey: "retry \(url)") else { return retry(delivery, number + 1, delay) }
        logger.warning(
            "webhook \(url) for \(delivery.label) failed (try \(number) of \(attempts)), again in \(delay) s: \(failure)\(verdict)")
        retry(delivery, number + 1, delay)
    }

    /// After `delay` seconds, try `number` if the server still runs and the end is still current.
    private func retry(_ delivery: Delivery, _ number: Int, _ delay: Double) {
        retries.asyncAfter(deadline: .now() + delay) { [self] in
            guard !state.withLock({ $0.stopped }) else { return }
            guard let isCurrent = delivery.isCurrent else { return attempt(delivery, number: number) }
            isCurrent { [self] current in
                guard current else {
                    finish(delivery, counting: \.cancelled)
                    if let verdict = logVerdict("cancelled \(delivery.post.url)") {
                        logger.notice(
                            "webhook \(delivery.post.url) for \(delivery.label) not retried: its countdown was cancelled or redefined\(verdict)"
                        )
                    }
                    return
                }
                attempt(delivery, number: number)
            }
        }
    }

    /// The delivery is over: no longer pending, counted under `outcome` (nil: another node's).
    private func finish(_ delivery: Delivery, counting outcome: WritableKeyPath<WebhookStatistics, Int>?) {
        state.withLock { state in
            guard !state.stopped else { return }
            state.pending -= 1
            state.pendingPerBoard[delivery.board, default: 1] -= 1
            if state.pendingPerBoard[delivery.board] == 0 { state.pendingPerBoard[delivery.board] = nil }
            if let outcome { state.statistics[keyPath: outcome] += 1 }
        }
    }

    /// Counts `outcome` and asks the repeated-line rule about a line of kind `logKey`: the suffix to write it
    /// with, or nil to hold it back.
    private func record(_ outcome: WritableKeyPath<WebhookStatistics, Int>, logKey: String) -> String? {
        state.withLock { state in
            state.statistics[keyPath: outcome] += 1
            return Self.verdict(&state.log, logKey, at: seconds)
        }
    }

    private func logVerdict(_ logKey: String) -> String? {
        state.withLock { Self.verdict(&$0.log, logKey, at: seconds) }
    }

    private static func verdict(_ log: inout RepeatedLog, _ key: String, at now: Double) -> String? {
        let verdict = log.admit(key, at: now)
        return verdict == .holdBack ? nil : log.suffix(verdict)
    }

    /// Seconds since this sender started, on a clock that does not go back.
    private var seconds: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
