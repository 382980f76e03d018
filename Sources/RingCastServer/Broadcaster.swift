import Foundation
import RingCastCore
import RingCastTransport

/// Composes and publishes frames: once per board per tick, only while something animates on a
/// board that has viewers, encoded once per format someone watches. Every viewer of a board and
/// format gets the same bytes; the transport sends a viewer that fell behind the keyframe
/// instead of a delta it could not apply.
///
/// Touched only on the service thread.
final class Broadcaster {
    private let loop: EventLoop
    private let channels: [BoardChannel]
    private let interval: Double
    private let metrics: ServerMetrics
    private var ticking = false
    private var nextDeadline = 0.0
    /// Wall-clock milliseconds at monotonic time 0: a frame's `t` is the instant it was computed
    /// for, on the same clock as its animation, however late the thread got to encode it.
    private let wallClockOffset: Double

    /// Frames composed since start, for the log at shutdown.
    private(set) var framesPublished = 0

    init(loop: EventLoop, channels: [BoardChannel], fps: Int, metrics: ServerMetrics) {
        self.loop = loop
        self.channels = channels
        self.interval = 1.0 / Double(fps)
        self.metrics = metrics
        self.wallClockOffset = Self.wallClockMilliseconds() - loop.now() * 1000
    }

    /// A push changed `channel`'s targets.
    func boardChanged(_ channel: BoardChannel) {
        channel.needsFrame = true
        if channel.totalViewers > 0 { startTicking() }
    }

    /// The messages a new viewer gets first: the layout and a keyframe of the current picture.
    func greeting(for channel: BoardChannel, format: WireFormat) -> [OutgoingMessage] {
        if channel.needsFrame || channel.latestFrame == nil {
            publishFrame(of: channel, at: loop.now())
        }
        if channel.needsFrame { startTicking() }
        return [channel.layouts[format]!, channel.keyframe(format)!]
    }

    private func publishFrame(of channel: BoardChannel, at now: Double) {
        channel.seq += 1
        let frame = FrameComposer.frame(
            of: channel.board,
            at: now,
            seq: channel.seq,
            wallClockMilliseconds: ((wallClockOffset + now * 1000) * 10).rounded() / 10
        )
        let previous = channel.latestFrame
        channel.latestFrame = frame
        framesPublished += 1
        // The frame that shows the resting value is the last one until the next push.
        channel.needsFrame = channel.board.isAnimating(at: now)
        channel.board.settle(at: now)

        for format in WireFormat.allCases where channel.viewers[format, default: 0] > 0 {
            let started = ContinuousClock.now
            let keyframe = channel.keyframe(format)!
            let delta = previous == nil ? keyframe : OutgoingMessage(format: format, format.encode(frame, previous: previous))
            let encoding = ContinuousClock.now - started
            metrics.framePublished(
                board: channel.name,
                bytes: delta.count,
                encodeNanoseconds: encoding.components.seconds * 1_000_000_000 + encoding.components.attoseconds / 1_000_000_000
            )
            loop.publish(delta, keyframe: keyframe, to: channel.channel(format, resting: false))
            if !channel.needsFrame {
                loop.publish(keyframe, to: channel.channel(format, resting: true))
            }
        }
    }

    private func startTicking() {
        guard !ticking else { return }
        ticking = true
        nextDeadline = loop.now() + interval
        loop.schedule(after: interval) { [weak self] in self?.tick() }
    }

    private func tick() {
        let now = loop.now()
        metrics.tickLate(bySeconds: now - nextDeadline)
        var again = false
        for channel in channels where channel.totalViewers > 0 && channel.needsFrame {
            publishFrame(of: channel, at: now)
            again = again || channel.needsFrame
        }
        guard again else {
            ticking = false
            return
        }
        // Keep an exact deadline so ticks do not drift; after a stall, skip rather than burst.
        nextDeadline += interval
        if nextDeadline <= now { nextDeadline = now + interval }
        loop.schedule(after: nextDeadline - now) { [weak self] in self?.tick() }
    }

    static func wallClockMilliseconds() -> Double {
        (Date().timeIntervalSince1970 * 1000 * 10).rounded() / 10
    }
}

@available(*, unavailable)
extension Broadcaster: Sendable {}
