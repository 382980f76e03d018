import Logging
import RingCastCore
import RingCastTransport

/// Schedules ticks on the wall-clock grid and publishes the bytes: for each board that has viewers
/// and needs a frame at tick k, the animator's frame k, encoded once per format someone watches, as
/// a delta against grid frame k − 1 and as a keyframe for viewers that do not hold k − 1. What a
/// frame shows is the animator's business; this type only decides when and to whom.
///
/// Touched only on the service thread.
final class Broadcaster: BoardObserver {
    private let loop: any ServiceLoop
    private var streams: [BoardStream]
    private var streamsByName: [String: BoardStream]
    private let clock: TickClock
    private let metrics: ServerMetrics
    private let logger: Logger
    /// The tick each board last logged a message it could not encode at (`notSent`).
    private var notSentLogged: [String: Int64] = [:]
    /// The tick the pending timer is for; a timer that fires for another tick is stale.
    private var scheduledTick: Int64?

    /// Frames composed since start, for the log at shutdown.
    private(set) var framesPublished = 0

    /// Fires countdown webhooks, whether anyone watches or not; told of every change the broadcaster is.
    var webhooks: CountdownWebhooks?

    /// The playlists' viewers: counted among the viewers of the board each shows, sent its messages, switched
    /// between boards on the grid (`PlaylistStreams`).
    var playlists: PlaylistStreams?

    /// What each viewer watches and the token it was admitted with, so that a playlist redefined or tokens reloaded
    /// close the viewers who may no longer read what they would be shown (`ViewerScopes`).
    var scopes: ViewerScopes?

    init(loop: any ServiceLoop, boards: Boards, clock: TickClock, metrics: ServerMetrics, logger: Logger) {
        self.loop = loop
        self.streams = boards.all.map(BoardStream.init)
        self.streamsByName = Dictionary(uniqueKeysWithValues: streams.map { ($0.name, $0) })
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
    }

    /// Logs that `what` of `board` was not sent because it cannot be encoded (`EncodingFailure`: a non-finite number,
    /// which the composer never makes); at most once a second per board, so a board stuck on such a value does not
    /// flood the log with a line per tick.
    func notSent(_ what: String, of board: String, _ failure: EncodingFailure) {
        let tick = clock.currentTick()
        if let last = notSentLogged[board], tick - last < Int64(clock.fps) { return }
        notSentLogged[board] = tick
        logger.error("\(what) of board \(board) not sent: \(failure)")
    }

    /// The names of the boards, in the configured order.
    var boardNames: [String] { streams.map(\.name) }

    /// The stream of the board named `name`.
    func stream(of name: String) -> BoardStream? {
        streamsByName[name]
    }

    /// Viewers of the board named `name`, in every encoding and motion, as the transport counts them.
    func viewers(of name: String) -> Int {
        guard let stream = streamsByName[name] else { return 0 }
        return WireFormat.allCases.reduce(0) { $0 + viewers(of: stream, format: $1) }
    }

    private func viewers(of stream: BoardStream, format: WireFormat) -> Int {
        StreamKey.Motion.allCases.reduce(0) { $0 + loop.viewerCount(of: stream.key(format, $1)) }
            + (playlists?.viewers(showing: stream.name, format: format) ?? 0)
    }

    /// The tick it is now for `stream`'s board.
    private func now(for stream: BoardStream) -> Int64 {
        stream.board.now(clock.currentTick())
    }

    // MARK: - BoardObserver

    /// A change was queued on `board` to start at `tick`.
    func changeAccepted(_ board: LiveBoard, at tick: Int64) {
        guard let stream = streamsByName[board.name] else { return }
        webhooks?.reschedule(board)
        stream.nextTick = min(stream.nextTick ?? .max, tick)
        if viewers(of: board.name) > 0 {
            schedule(tick)
        } else {
            // Nobody watches the frames this change makes: no run of equal frames can be vouched for.
            stream.unchangedSince = nil
        }
    }

    /// The board's state was replaced (a failed write reverted): every viewer gets a keyframe of
    /// the next tick.
    func stateReplaced(_ board: LiveBoard) {
        guard let stream = streamsByName[board.name] else { return }
        stream.forceKeyframe = true
        stream.unchangedSince = nil
        stream.lastResting = nil
        stream.dropKeyframes()
        changeAccepted(board, at: board.startTick(now: clock.currentTick()))
    }

    /// The board is served from now on: it gets a stream.
    func boardAdded(_ board: LiveBoard) {
        guard streamsByName[board.name] == nil else { return }
        boardsChanged(BoardChanges(added: [board]))
    }

    /// The board is no longer served: its stream goes and its viewers are closed with 4404.
    func boardRemoved(_ board: LiveBoard, reason: String) {
        guard streamsByName[board.name]?.board === board else { return }
        webhooks?.forget(board.name)
        boardsChanged(BoardChanges(removed: [board]))
        closeViewers(of: [board], code: 4404, reason: reason)
    }

    /// The boards of playlists that show them change at once: the ones removed, the ones added.
    private func playlistBoardsChanged(_ changes: BoardChanges) {
        guard !changes.added.isEmpty || !changes.removed.isEmpty else { return }
        playlists?.boardsChanged()
    }

    /// Closes every viewer of `boards`, in every encoding and motion.
    func closeViewers(of boards: [LiveBoard], code: Int, reason: String) {
        for board in boards {
            for format in WireFormat.allCases {
                for motion in StreamKey.Motion.allCases {
                    loop.closeViewers(
                        of: StreamKey(board: board.name, format: format, motion: motion), code: code, reason: reason)
                }
            }
        }
    }

    /// A reload changed the boards: a stream for each added one, none for each removed one, and a
    /// new stream (with the new layout) for each changed one, whose viewers get the new layout and
    /// then a keyframe, as after a structure change through the API. Closing the viewers of
    /// removed boards is the caller's.
    func boardsChanged(_ changes: BoardChanges) {
        let removed = Set(changes.removed.map(\.name))
        streams.removeAll { removed.contains($0.name) }
        for name in removed { webhooks?.forget(name) }
        for board in changes.added {
            streams.append(BoardStream(board: board))
            webhooks?.reschedule(board)
        }
        for board in changes.changed {
            let stream = BoardStream(board: board)
            guard let index = streams.firstIndex(where: { $0.name == board.name }) else { continue }
            // Frames only go forward on a channel, whichever stream publishes them.
            stream.lastPublished = streams[index].lastPublished
            stream.eventsThrough = streams[index].eventsThrough
            stream.unpublishedLayout = Set(StreamKey.Motion.allCases)
            streams[index] = stream
        }
        streamsByName = Dictionary(uniqueKeysWithValues: streams.map { ($0.name, $0) })
        for board in changes.changed {
            stateReplaced(board)
        }
        playlistBoardsChanged(changes)
    }

    // MARK: - Viewers and ticks

    /// What a joining viewer gets, on its own connection: the layout and a keyframe of the board's
    /// newest grid frame (a reduced-motion viewer: of its resting frame), and that frame's tick. Nobody
    /// else is sent anything. Throws when the layout or the keyframe cannot be encoded: the viewer is refused then.
    func greeting(
        for stream: BoardStream, format: WireFormat, motion: StreamKey.Motion = .full
    ) throws(EncodingFailure) -> (messages: [OutgoingMessage], tick: Int64) {
        let tick = now(for: stream)
        if viewers(of: stream.name) == 0 {
            // Events from now on: the ones before were for viewers that have left (or never came).
            stream.eventsThrough = tick
        }
        let frame = stream.board.animator.frame(at: tick)
        stream.refreshLayout()
        let keyframe: OutgoingMessage
        switch motion {
        case .full:
            keyframe = try stream.keyframe(format, of: frame, at: tick)
        case .reduced:
            let resting = stream.board.animator.restingFrame(at: tick)
            if reducedViewers(of: stream) == 0 {
                // What the reduced-motion channel shows from now on; later ticks are compared with it.
                stream.lastResting = resting
            }
            keyframe = OutgoingMessage(format: format, try format.encode(resting, previous: nil))
        }
        // The frame may have applied a change that was due; the board may need ticks again.
        let next = stream.board.animator.nextTick(after: tick)
        if let next {
            stream.nextTick = min(stream.nextTick ?? .max, next)
            schedule(next)
        }
        if next != tick + 1, stream.unchangedSince == nil {
            // The board rests at this tick: the next frame's delta applies to this picture too.
            stream.unchangedSince = tick
        }
        return ([try stream.layout(format), keyframe], tick)
    }

    private func reducedViewers(of stream: BoardStream) -> Int {
        WireFormat.allCases.reduce(0) { $0 + reducedViewers(of: stream, format: $1) }
    }

    /// Full-motion viewers of `stream`'s board in `format`: its own, and those of the playlists showing it.
    private func fullViewers(of stream: BoardStream, format: WireFormat) -> Int {
        loop.viewerCount(of: stream.key(format, .full))
            + (playlists?.viewers(showing: stream.name, format: format, motion: .full) ?? 0)
    }

    /// Reduced-motion viewers of `stream`'s board in `format`: its own, and those of the playlists showing it.
    private func reducedViewers(of stream: BoardStream, format: WireFormat) -> Int {
        loop.viewerCount(of: stream.key(format, .reduced))
            + (playlists?.viewers(showing: stream.name, format: format, motion: .reduced) ?? 0)
    }

    func schedule(_ tick: Int64) {
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
        // Playlists first: a switch is published before its board's frame of the same tick could be forwarded.
        var next: Int64? = playlists?.fire(at: tick)
        for stream in streams {
            let watching = WireFormat.allCases.filter { viewers(of: stream, format: $0) > 0 }
            guard !watching.isEmpty, let due = stream.nextTick else { continue }
            if due <= tick {
                let at = stream.board.now(tick)
                // Ticks between the one due and now get no frame of their own (viewers see the latest).
                if at > due { metrics.ticksSkipped(at - due) }
                // Frames from `unchangedSince` up to the one before `due` all show the same picture.
                let base = due == at ? stream.unchangedSince : nil
                publish(stream, formats: watching, at: at, baseFrom: base)
                let next = stream.board.animator.nextTick(after: at)
                stream.nextTick = next
                stream.unchangedSince = next == at + 1 ? nil : at
            }
            if let due = stream.nextTick { next = min(next ?? .max, due) }
        }
        if let next { schedule(next) }
    }

    /// Frame `tick` of `stream`'s board, to the viewers of `formats` (the ones someone watches): the animation's
    /// frame to the formats someone watches in full motion, the resting frame to reduced-motion viewers when it
    /// shows something new. A board only reduced-motion viewers watch is never composed in full motion: nobody
    /// would see those frames (issue 35).
    private func publish(_ stream: BoardStream, formats: [WireFormat], at tick: Int64, baseFrom: Int64?) {
        guard tick > stream.lastPublished ?? .min else { return }
        stream.lastPublished = tick
        framesPublished += 1
        // Events first, so that a viewer gets a tick's events before its frame on whatever loop it is (each loop runs
        // what it is handed in order, and may write a frame between two of its rounds of jobs).
        notifyEvents(of: stream, formats: formats, through: tick)
        let moving = formats.filter { fullViewers(of: stream, format: $0) > 0 }
        let still = formats.contains { reducedViewers(of: stream, format: $0) > 0 }
        // Composing applies the changes due by `tick`, a new shape among them: the layout is looked at after it.
        let frames = moving.isEmpty ? nil : stream.board.animator.frames(at: tick)
        let rest = still ? stream.board.animator.restingFrame(at: tick) : nil
        stream.refreshLayout()
        if let frames {
            publishMotion(frames, of: stream, formats: moving, at: tick, baseFrom: baseFrom)
        }
        if let resting = restingFrame(rest, of: stream) {
            publishResting(resting, of: stream, formats: formats, at: tick)
        }
    }

    /// The animation's frame of `tick` (`frames`: it and the one before), a delta and a keyframe in each of
    /// `formats`, to the full-motion viewers.
    private func publishMotion(
        _ frames: (frame: Frame, base: Frame), of stream: BoardStream, formats: [WireFormat], at tick: Int64,
        baseFrom: Int64?
    ) {
        let (frame, base) = frames
        // A new structure: every viewer gets the new layout, then this frame as a keyframe.
        let newLayout = stream.unpublishedLayout.contains(.full)
        let forceKeyframe = stream.forceKeyframe || newLayout
        stream.forceKeyframe = false
        stream.unpublishedLayout.remove(.full)
        for format in formats {
            let started = ContinuousClock.now
            let keyframe: OutgoingMessage
            let delta: OutgoingMessage
            let preamble: OutgoingMessage?
            do throws(EncodingFailure) {
                keyframe = try stream.keyframe(format, of: frame, at: tick)
                delta = forceKeyframe ? keyframe : OutgoingMessage(format: format, try format.encode(frame, previous: base))
                preamble = newLayout ? try stream.layout(format) : nil
            } catch {
                // Nothing is sent for this tick; the next frame that encodes goes to everyone whole, with the layout.
                notSent("frame \(tick)", of: stream.name, error)
                stream.forceKeyframe = true
                if newLayout { stream.unpublishedLayout.insert(.full) }
                continue
            }
            let encoding = ContinuousClock.now - started
            metrics.framePublished(
                board: stream.name,
                bytes: delta.count,
                encodeNanoseconds: encoding.components.seconds * 1_000_000_000 + encoding.components.attoseconds / 1_000_000_000
            )
            // After a revert nobody holds the base: every viewer gets the keyframe.
            let sequence = UInt64(clamping: tick)
            let lowest = UInt64(clamping: min(baseFrom ?? (tick - 1), tick - 1))
            let deltaBase = forceKeyframe ? UInt64.max...UInt64.max : lowest...UInt64(clamping: tick - 1)
            loop.publish(
                delta, keyframe: keyframe, to: stream.key(format, .full), sequence: sequence, base: deltaBase,
                preamble: preamble)
            playlists?.forward(
                delta, keyframe: keyframe, of: stream, format: format, motion: .full, tick: tick, base: deltaBase,
                preamble: preamble)
        }
    }

    /// `resting` (`restingFrame`) in each of `formats`, to the reduced-motion viewers.
    private func publishResting(
        _ resting: (frame: Frame, newLayout: Bool), of stream: BoardStream, formats: [WireFormat], at tick: Int64
    ) {
        for format in formats {
            let message: OutgoingMessage
            let preamble: OutgoingMessage?
            do throws(EncodingFailure) {
                message = OutgoingMessage(format: format, try format.encode(resting.frame, previous: nil))
                preamble = resting.newLayout ? try stream.layout(format) : nil
            } catch {
                notSent("resting frame \(tick)", of: stream.name, error)
                stream.lastResting = nil
                if resting.newLayout { stream.unpublishedLayout.insert(.reduced) }
                continue
            }
            let sequence = UInt64(clamping: tick)
            loop.publish(
                message, keyframe: message, to: stream.key(format, .reduced), sequence: sequence, base: nil, preamble: preamble)
            playlists?.forward(
                message, keyframe: message, of: stream, format: format, motion: .reduced, tick: tick, base: nil,
                preamble: preamble)
        }
    }

    /// The frame reduced-motion viewers get, `composed` (the tick's resting frame; nil when nobody watches in reduced
    /// motion), if it shows anything their last one did not: the end state of a change on its first tick, the next
    /// whole second of a countdown, a new layout. Never a run of animation frames (PROTOCOL.md "Reduced motion").
    private func restingFrame(_ composed: Frame?, of stream: BoardStream) -> (frame: Frame, newLayout: Bool)? {
        guard let frame = composed else {
            stream.lastResting = nil
            return nil
        }
        let newLayout = stream.unpublishedLayout.contains(.reduced)
        stream.unpublishedLayout.remove(.reduced)
        if !newLayout, let last = stream.lastResting, last.rings == frame.rings, last.background == frame.background {
            return nil
        }
        stream.lastResting = frame
        return (frame, newLayout)
    }

    /// The board's events (countdown ends) after the last ones sent, up to `tick`, to every viewer now, each
    /// once and before the frame of `tick`: every node computes the same ones from the same changes.
    private func notifyEvents(of stream: BoardStream, formats: [WireFormat], through tick: Int64) {
        let after = stream.eventsThrough ?? (tick - 1)
        stream.eventsThrough = tick
        let animator = stream.board.animator
        for end in animator.countdownEnds(after: after, through: tick) {
            let event = BoardEvent(end, on: animator)
            for format in formats {
                let message: OutgoingMessage
                do throws(EncodingFailure) {
                    message = OutgoingMessage(format: format, try format.encode(event))
                } catch {
                    notSent("the countdown end of ring \(end.ring) at tick \(end.tick)", of: stream.name, error)
                    continue
                }
                for motion in StreamKey.Motion.allCases {
                    loop.notify(message, viewersOf: stream.key(format, motion))
                }
                playlists?.notify(message, of: stream.name, format: format)
            }
        }
    }

    /// Sets each board's webhook timer; once, when the loop runs.
    func startWebhooks() {
        for stream in streams { webhooks?.reschedule(stream.board) }
    }
}

@available(*, unavailable)
extension Broadcaster: Sendable {}
