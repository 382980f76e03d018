import RingCastCore
import RingCastTransport

/// Fires each countdown ring's webhook on the tick its countdown reaches 0, whether anyone watches or not:
/// one timer per board, set from the accepted changes (`Animator.nextCountdownEnd`), checked again when it
/// fires (`Animator.countdownEnds`) and set for the next end after it. Deliveries go to the `WebhookSender`,
/// off the loop. Ends are never replayed: a board's first look starts at the tick it is now. A ring's webhook
/// fires at most once a second (`WebhookPace`), and a retry asks this loop first whether its end still counts
/// (`isCurrent`): not once its countdown was cancelled or redefined.
///
/// In cluster mode every node runs this for every board, so a webhook is POSTed once per node (docs/CLUSTER.md).
///
/// Touched only on the service thread.
final class CountdownWebhooks {
    private let loop: any ServiceLoop
    private let clock: TickClock
    private let sender: WebhookSender
    private let board: (String) -> LiveBoard?
    /// `webhookHosts` now: a stored ring whose webhook names another host (the list changed) is not POSTed.
    private let allowedHosts: () -> [String]
    /// Per board: the tick its timer is set for.
    private var scheduled: [String: Int64] = [:]
    /// Per board: the last tick whose ends were handled (or the tick it was first looked at).
    private var handledThrough: [String: Int64] = [:]
    /// At most one POST a second per ring.
    private var pace: WebhookPace

    /// `board` finds the board served under a name now.
    init(
        loop: any ServiceLoop, clock: TickClock, sender: WebhookSender, board: @escaping (String) -> LiveBoard?,
        allowedHosts: @escaping () -> [String] = { [] }
    ) {
        self.loop = loop
        self.clock = clock
        self.sender = sender
        self.board = board
        self.allowedHosts = allowedHosts
        pace = WebhookPace(fps: clock.fps)
    }

    /// Sets the board's timer for its next countdown end, if it will have one sooner than the timer set now. Call
    /// after every change to the board (and once for each board at start).
    func reschedule(_ board: LiveBoard) {
        let name = board.name
        // Never an end before the tick it is now: one the timer did not see was not on its tick anymore.
        let after = max(handledThrough[name] ?? .min, board.now(clock.currentTick()) - 1)
        handledThrough[name] = after
        guard let next = board.animator.nextCountdownEnd(after: after) else { return }
        if let set = scheduled[name], set <= next { return }
        scheduled[name] = next
        loop.schedule(after: clock.seconds(until: next)) { [weak self] in self?.fire(name, at: next) }
    }

    /// Stops the sender: no webhook try starts once the server has stopped.
    func stop() {
        sender.stop()
    }

    /// The board is gone: its timer does nothing when it fires, and a board of that name starts afresh.
    func forget(_ name: String) {
        scheduled[name] = nil
        handledThrough[name] = nil
        pace.forget(name)
    }

    /// Whether `end` is still one of its board's ends, as the board is defined now (the accepted changes
    /// applied): false once the board is gone, or the countdown cancelled or redefined.
    func isCurrent(_ end: CountdownEnd) -> Bool {
        guard let board = board(end.board) else { return false }
        return board.animator.stillEnds(end, asOf: board.now(clock.currentTick()))
    }

    /// How the sender asks `isCurrent` from its own threads: on the service thread, through the loop's inbox.
    /// Never answered once the loop has stopped, when the sender has stopped too.
    private func check(_ end: CountdownEnd) -> WebhookSender.Check {
        let queue = loop.queue
        let webhooks = ServiceThreadBound(value: self)
        return { answer in queue.async { answer(webhooks.value.isCurrent(end)) } }
    }

    private func fire(_ name: String, at tick: Int64) {
        // A timer another one replaced (an earlier end came up) does nothing.
        guard scheduled[name] == tick else { return }
        scheduled[name] = nil
        guard let board = board(name) else {
            forget(name)
            return
        }
        handledThrough[name] = tick
        for end in board.animator.countdownEnds(after: tick - 1, through: tick) {
            guard let webhook = end.webhook else { continue }
            guard pace.admit(end) else {
                sender.throttle(end)
                continue
            }
            guard CountdownOptions.webhook(webhook, isAllowedBy: allowedHosts()) else {
                sender.refuse(end, reason: "its host is not in webhookHosts")
                continue
            }
            sender.send(end, t: board.animator.wallClockMilliseconds(at: tick), isCurrent: check(end))
        }
        reschedule(board)
    }
}

@available(*, unavailable)
extension CountdownWebhooks: Sendable {}
