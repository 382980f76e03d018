import RingCastCore
import RingCastTransport

/// Schedules ticks on the wall-clock grid and publishes the bytes: for each board that has viewers
/// and needs a frame at tick k, the animator's frame k, encoded once per format someone watches, as
/// a delta against grid frame k − 1 and as a keyframe for viewers that do not hold k − 1. What a
/// frame shows is the animator's business; this type only decides when and to whom.
///
/// Touched only on the service thread.
final class Broadcaster {
    private let loop: EventLoop
    private let channels: [BoardChannel]
    private let clock: TickClock
    private let metrics: ServerMetrics
    /// The tick the pending timer is for; a timer that fires for another tick is stale.
    private var scheduledTick: Int64?

    /// Frames composed since start, for the log at shutdown.
    private(set) var framesPublished = 0

    init(loop: EventLoop, channels: [BoardChannel], clock: TickClock, metrics: ServerMetrics) {
        self.loop = loop
        self.channels = channels
        self.clock = clock
        self.metrics = metrics
    }

    /// The tick a change accepted now starts at: the first tick after now (and never one already
    /// published).
    func startTick(for channel: BoardChannel) -> Int64 {
        now(for: channel) + 1
    }

    /// The tick it is now for `channel`: the clock's, or the newest it has composed should the
    /// clock have stepped back (frames only go forward).
    private func now(for channel: BoardChannel) -> Int64 {
        max(clock.currentTick(), channel.animator.composedThrough ?? .min)
    }

    /// A change was queued on `channel` to start at `tick`.
    func changeAccepted(_ channel: BoardChannel, at tick: Int64) {
        channel.nextTick = min(channel.nextTick ?? .max, tick)
        if channel.totalViewers > 0 {
            schedule(tick)
        } else {
            // Nobody watches the frames this change makes: no run of equal frames can be vouched for.
            channel.unchangedSince = nil
        }
    }

    /// The board's state was replaced (a failed write reverted): every viewer gets a keyframe of
    /// the next tick.
    func stateReplaced(_ channel: BoardChannel) {
        channel.forceKeyframe = true
        channel.unchangedSince = nil
        channel.dropKeyframes()
        changeAccepted(channel, at: startTick(for: channel))
    }

    /// What a joining viewer gets, on its own connection: the layout and a keyframe of the board's
    /// newest grid frame, and that frame's tick. Nobody else is sent anything.
    func greeting(for channel: BoardChannel, format: WireFormat) -> (messages: [OutgoingMessage], tick: Int64) {
        let tick = now(for: channel)
        let frame = channel.animator.frame(at: tick)
        let keyframe = channel.keyframe(format, of: frame, at: tick)
        // The frame may have applied a change that was due; the board may need ticks again.
        let next = channel.animator.nextTick(after: tick)
        if let next {
            channel.nextTick = min(channel.nextTick ?? .max, next)
            schedule(next)
        }
        if next != tick + 1, channel.unchangedSince == nil {
            // The board rests at this tick: the next frame's delta applies to this picture too.
            channel.unchangedSince = tick
        }
        return ([channel.layouts[format]!, keyframe], tick)
    }

    private func schedule(_ tick: Int64) {
        if let scheduled = scheduledTick, scheduled <= tick { return }
        scheduledTick = tick
        loop.schedule(after: clock.seconds(until: tick)) { [weak self] in self?.fire(tick) }
    }

    private func fire(_ scheduled: Int64) {
        guard scheduledTick == scheduled else { return }
        scheduledTick = nil
        // The timer may wake a hair early (it rounds to milliseconds) or late (a busy loop): the
        // frame is the one of the tick it is now, never an earlier one.
        let tick = max(clock.currentTick(), scheduled)
        metrics.tickLate(bySeconds: -clock.seconds(until: tick))
        var next: Int64?
        for channel in channels where channel.totalViewers > 0 {
            guard let due = channel.nextTick else { continue }
            if due <= tick {
                let at = max(tick, channel.animator.composedThrough ?? .min)
                // Frames from `unchangedSince` up to the one before `due` all show the same picture.
                let base = due == at ? channel.unchangedSince : nil
                publish(channel, at: at, baseFrom: base)
                let next = channel.animator.nextTick(after: at)
                channel.nextTick = next
                channel.unchangedSince = next == at + 1 ? nil : at
            }
            if let due = channel.nextTick { next = min(next ?? .max, due) }
        }
        if let next { schedule(next) }
    }

    private func publish(_ channel: BoardChannel, at tick: Int64, baseFrom: Int64?) {
        guard tick > channel.lastPublished ?? .min else { return }
        let (frame, base) = channel.animator.frames(at: tick)
        channel.lastPublished = tick
        framesPublished += 1
        let resting = !channel.animator.isAnimating(at: tick)
        let forceKeyframe = channel.forceKeyframe
        channel.forceKeyframe = false

        for format in WireFormat.allCases where channel.viewers[format, default: 0] > 0 {
            let started = ContinuousClock.now
            let keyframe = channel.keyframe(format, of: frame, at: tick)
            let delta = forceKeyframe ? keyframe : OutgoingMessage(format: format, format.encode(frame, previous: base))
            let encoding = ContinuousClock.now - started
            metrics.framePublished(
                board: channel.name,
                bytes: delta.count,
                encodeNanoseconds: encoding.components.seconds * 1_000_000_000 + encoding.components.attoseconds / 1_000_000_000
            )
            // After a revert nobody holds the base: every viewer gets the keyframe.
            let sequence = UInt64(clamping: tick)
            let lowest = UInt64(clamping: min(baseFrom ?? (tick - 1), tick - 1))
            let deltaBase = forceKeyframe ? UInt64.max...UInt64.max : lowest...UInt64(clamping: tick - 1)
            loop.publish(
                delta, keyframe: keyframe, to: channel.channel(format, resting: false), sequence: sequence, base: deltaBase)
            if resting {
                loop.publish(keyframe, keyframe: keyframe, to: channel.channel(format, resting: true), sequence: sequence)
            }
        }
    }
}

@available(*, unavailable)
extension Broadcaster: Sendable {}
