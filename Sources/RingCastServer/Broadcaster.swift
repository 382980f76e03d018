import Foundation
import RingCastCore
import RingCastTransport

/// Composes and publishes frames: once per board per tick, only while something animates on a
/// board that has viewers. Every viewer of a board gets the same encoded bytes; the transport
/// sends a slow viewer only the newest frame.
///
/// Touched only on the service thread.
final class Broadcaster {
    private let loop: EventLoop
    private let channels: [BoardChannel]
    private let interval: Double
    private let metrics: ServerMetrics
    private var ticking = false
    private var nextDeadline = 0.0

    /// Frames composed since start, for the log at shutdown.
    private(set) var framesPublished = 0

    init(loop: EventLoop, channels: [BoardChannel], fps: Int, metrics: ServerMetrics) {
        self.loop = loop
        self.metrics = metrics
        self.channels = channels
        self.interval = 1.0 / Double(fps)
    }

    /// A push changed `channel`'s targets.
    func boardChanged(_ channel: BoardChannel) {
        channel.needsFrame = true
        if channel.viewers > 0 { startTicking() }
    }

    /// The messages a new viewer gets first: the layout and a full frame of the current picture.
    func greeting(for channel: BoardChannel) -> [OutgoingMessage] {
        if channel.needsFrame || channel.latestFrame == nil {
            publishFrame(of: channel, at: loop.now())
        }
        if channel.needsFrame { startTicking() }
        return [channel.layout, channel.latestFrame!]
    }

    private func publishFrame(of channel: BoardChannel, at now: Double) {
        channel.seq += 1
        let frame = FrameComposer.frame(
            of: channel.board,
            at: now,
            seq: channel.seq,
            wallClockMilliseconds: Self.wallClockMilliseconds()
        )
        let started = ContinuousClock.now
        let message = OutgoingMessage(text: FrameEncoder.json(frame))
        let encoding = ContinuousClock.now - started
        metrics.framePublished(
            board: channel.name,
            bytes: message.count,
            encodeNanoseconds: encoding.components.seconds * 1_000_000_000 + encoding.components.attoseconds / 1_000_000_000
        )
        channel.latestFrame = message
        loop.publish(message, to: channel.channel)
        framesPublished += 1
        // The frame that shows the resting value is the last one until the next push.
        channel.needsFrame = channel.board.isAnimating(at: now)
        channel.board.settle(at: now)
        if !channel.needsFrame {
            loop.publish(message, to: channel.restingChannel)
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
        for channel in channels where channel.viewers > 0 && channel.needsFrame {
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
