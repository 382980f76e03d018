import RingCastCore
import RingCastTransport

/// The playlists' side of the broadcaster (DESIGN §13, docs/PROTOCOL.md "Playlists"): which board each playlist's
/// viewers see, and the switches between boards.
///
/// While a playlist shows board B, its channels get B's own messages, as B's channels do (B is composed for them even
/// when nobody else watches it: the broadcaster counts them among B's viewers). At a switch — a tick where the
/// playlist's position changes board, on the grid of its definition — every viewer is sent B's layout and a keyframe
/// of the switch tick as notices (never skipped, so every screen's first frame of B is the switch tick's), and while
/// the switch's splash grows (easeInOut over 0.5 s) its full-motion channels get the playlist's own frames: B's
/// frame with B's background growing over the previous board's (`Frame.switching`), encoded once per format and
/// tick; then a keyframe of B, and B's own messages again. Reduced-motion viewers get B's keyframe at the switch and
/// no splash. Everything sent is a function of the playlist, the tick and the boards' frames, so every node sends
/// the same bytes.
///
/// Touched only on the service thread.
final class PlaylistStreams: PlaylistObserver {
    /// What is kept of one playlist between ticks.
    final class Stream {
        let playlist: LivePlaylist
        /// The board its channels show; nil until a viewer's greeting (and again once none watches).
        var board: String?
        /// The spec whose layout its full-motion viewers hold.
        var layoutSpec: BoardSpec?
        /// The newest tick it published itself to its full-motion channels: a switch, a splash frame, or the
        /// keyframe that ends a splash.
        var lastPublished: Int64?
        /// The tick of the last switch: its reduced-motion channels get the board's messages after it.
        var switched: Int64?
        /// The newest tick forwarded from its board, per channel.
        var forwarded: [PlaylistKey: Int64] = [:]
        /// The first tick from which its full-motion channels have shown the board's own frames: a delta of the
        /// board applies to a viewer holding one of them, never to one holding an older tick (another board's, or a
        /// splash frame). nil during a splash.
        var plainSince: Int64?
        /// The splash running at `lastPublished`.
        var splash: Splash?
        /// The newest splash frame published, the base of the next one's delta; nil when no splash shows.
        var lastSplashFrame: (tick: Int64, frame: Frame)?
        /// The next tick it needs a look at: a splash's next frame, or the next switch.
        var nextTick: Int64?

        init(playlist: LivePlaylist) {
            self.playlist = playlist
        }

        var name: String { playlist.name }

        /// Forgets what its viewers were sent: the next one to join starts it again.
        func reset() {
            board = nil
            layoutSpec = nil
            lastPublished = nil
            switched = nil
            forwarded = [:]
            plainSince = nil
            splash = nil
            lastSplashFrame = nil
            nextTick = nil
        }
    }

    /// A switch's splash: the previous board's background, and the style of the definition that holds the switch.
    struct Splash: Equatable {
        let switched: Int64
        let from: RGBAColor
        let style: SplashStyle
    }

    private let loop: any ServiceLoop
    private let clock: TickClock
    let playlists: Playlists
    private weak var broadcaster: Broadcaster?
    private var streams: [String: Stream] = [:]

    init(loop: any ServiceLoop, clock: TickClock, playlists: Playlists, broadcaster: Broadcaster) {
        self.loop = loop
        self.clock = clock
        self.playlists = playlists
        self.broadcaster = broadcaster
    }

    // MARK: - Viewers

    /// Viewers of the playlist named `name`, in every encoding and motion.
    func viewers(of name: String) -> Int {
        PlaylistKey.all(of: name).reduce(0) { $0 + loop.viewerCount(of: $1) }
    }

    /// Viewers in `format` of the playlists that show `board` now: the broadcaster composes the board for them.
    func viewers(showing board: String, format: WireFormat) -> Int {
        StreamKey.Motion.allCases.reduce(0) { $0 + viewers(showing: board, format: format, motion: $1) }
    }

    /// Viewers in `format` and `motion` of the playlists that show `board` now.
    func viewers(showing board: String, format: WireFormat, motion: StreamKey.Motion) -> Int {
        var count = 0
        for stream in streams.values where stream.board == board {
            count += loop.viewerCount(of: PlaylistKey(playlist: stream.name, format: format, motion: motion))
        }
        return count
    }

    private func watching(_ stream: Stream) -> [PlaylistKey] {
        PlaylistKey.all(of: stream.name).filter { loop.viewerCount(of: $0) > 0 }
    }

    private func served(_ board: String) -> Bool {
        broadcaster?.stream(of: board) != nil
    }

    /// The stream of `playlist`, made when it has none (or one of a playlist of the same name deleted since).
    private func stream(of playlist: LivePlaylist) -> Stream {
        if let stream = streams[playlist.name], stream.playlist === playlist { return stream }
        let stream = Stream(playlist: playlist)
        streams[playlist.name] = stream
        return stream
    }

    // MARK: - Greeting

    /// What a joining viewer of `key` gets on its own connection: the layout of the board the playlist shows and a
    /// keyframe of the tick it is now (with the splash, when one grows), and that tick. 404 for an unknown playlist or
    /// one none of whose boards is served.
    func greeting(for key: PlaylistKey) throws(ViewerRefusal) -> (messages: [OutgoingMessage], tick: Int64) {
        guard let broadcaster, let live = playlists[key.playlist] else {
            throw ViewerRefusal(.notFound("no playlist named \"\(key.playlist)\"", field: "playlist"))
        }
        let stream = stream(of: live)
        if watching(stream).isEmpty { stream.reset() }
        var tick = max(clock.currentTick(), stream.lastPublished ?? .min)
        advance(stream, to: tick)
        guard let name = stream.board, let board = broadcaster.stream(of: name) else {
            throw ViewerRefusal(
                .notFound("none of the boards of playlist \"\(key.playlist)\" is served", field: "playlist"),
                boards: broadcaster.boardNames)
        }
        tick = max(tick, stream.lastPublished ?? .min, board.board.animator.composedThrough ?? .min)
        let frame = board.board.animator.frame(at: tick)
        board.refreshLayout()
        var keyframe: OutgoingMessage
        let layout: OutgoingMessage
        do throws(EncodingFailure) {
            keyframe = try board.keyframe(key.format, of: frame, at: tick)
            if key.motion == .reduced {
                // The board with every animation at its end, as its own reduced-motion viewers see it.
                let resting = board.board.animator.restingFrame(at: tick)
                keyframe = OutgoingMessage(format: key.format, try key.format.encode(resting, previous: nil))
            }
            if key.motion == .full, let splash = stream.splash,
                let progress = Playlist.splashProgress(at: tick, switched: splash.switched, fps: clock.fps)
            {
                let shown = frame.switching(from: splash.from, style: splash.style, progress: progress, spec: board.board.spec)
                keyframe = OutgoingMessage(format: key.format, try key.format.encode(shown, previous: nil))
            }
            layout = try board.layout(key.format)
        } catch {
            broadcaster.notSent("the greeting of \(key)", of: board.name, error)
            throw ViewerRefusal(.unshowable(board.name, error))
        }
        if let next = stream.nextTick { broadcaster.schedule(next) }
        return ([layout, keyframe], tick)
    }

    // MARK: - Ticks

    /// Looks at every watched playlist whose next tick has come, at `tick`; returns the next tick any of them needs.
    /// Runs before the boards publish their frames of `tick`, so a switch is published before its board's frame of
    /// the same tick would be forwarded.
    func fire(at tick: Int64) -> Int64? {
        var next: Int64?
        for stream in streams.values.sorted(by: { $0.name < $1.name }) where !watching(stream).isEmpty {
            if let due = stream.nextTick, due <= tick { advance(stream, to: tick) }
            if let due = stream.nextTick { next = min(next ?? .max, due) }
        }
        return next
    }

    /// Brings `stream` to `tick`: a switch if its position shows another board (published at the switch's own tick
    /// when that is still to come on its channels, else now), then the splash frame of `tick` or the keyframe that
    /// ends the splash; and when it needs a look next.
    private func advance(_ stream: Stream, to tick: Int64) {
        guard let broadcaster else { return }
        guard let position = stream.playlist.timeline.position(at: tick, served: served) else {
            for key in PlaylistKey.all(of: stream.name) {
                loop.closeViewers(of: key, code: 4404, reason: "none of the playlist's boards is served")
            }
            stream.reset()
            return
        }
        guard let board = broadcaster.stream(of: position.board) else { return }
        if position.board != stream.board {
            let natural = stream.board != nil && (position.switched.map { $0 > (stream.lastPublished ?? .min) } ?? false)
            var at = natural ? position.switched! : tick
            // Frames only go forward, on its channels and on the board's.
            at = max(at, (stream.lastPublished ?? .min) + 1, board.board.animator.composedThrough ?? .min)
            publishSwitch(stream, to: board, at: at, splash: splash(of: position, at: at, for: stream))
        }
        let splash = splash(of: position, at: tick, for: stream)
        if tick > stream.lastPublished ?? .min {
            if let splash {
                publishSplashFrame(stream, of: board, at: tick, splash: splash)
            } else if stream.lastSplashFrame != nil {
                publishSplashEnd(stream, of: board, at: tick)
            }
        }
        stream.splash = splash
        stream.nextTick = splash != nil ? tick + 1 : position.next
    }

    /// The splash that grows at `tick` after the switch that brought `position`'s board, if any: the definition's
    /// transition, from the previous board's background on the tick before the switch.
    private func splash(of position: PlaylistPosition, at tick: Int64, for stream: Stream) -> Splash? {
        guard let switched = position.switched, let style = stream.playlist.timeline.transition(at: switched),
            Playlist.splashProgress(at: tick, switched: switched, fps: clock.fps) != nil
        else { return nil }
        if let running = stream.splash, running.switched == switched { return running }
        guard let previous = position.previous, let board = broadcaster?.stream(of: previous) else { return nil }
        // On a copy: the previous board's own frames (and any playlist showing it) go on unaffected.
        var animator = board.board.animator
        return Splash(switched: switched, from: animator.frame(at: switched - 1).background.color, style: style)
    }

    /// The switch to `board` at `at`: its layout and keyframe to every viewer as notices, then the same keyframe as
    /// the channels' newest message.
    private func publishSwitch(_ stream: Stream, to board: BoardStream, at tick: Int64, splash: Splash?) {
        let frame = board.board.animator.frame(at: tick)
        board.refreshLayout()
        stream.board = board.name
        stream.layoutSpec = board.board.spec
        stream.lastPublished = tick
        stream.switched = tick
        stream.forwarded = [:]
        stream.splash = splash
        var shown: Frame?
        if let splash, let progress = Playlist.splashProgress(at: tick, switched: splash.switched, fps: clock.fps) {
            shown = frame.switching(from: splash.from, style: splash.style, progress: progress, spec: board.board.spec)
        }
        stream.lastSplashFrame = shown.map { (tick, $0) }
        stream.plainSince = shown == nil ? tick : nil
        var encoded: [WireFormat: OutgoingMessage] = [:]
        var resting: [WireFormat: OutgoingMessage] = [:]
        for key in watching(stream) {
            var message: OutgoingMessage
            let layout: OutgoingMessage
            do throws(EncodingFailure) {
                message = try board.keyframe(key.format, of: frame, at: tick)
                if key.motion == .full, let shown {
                    if let made = encoded[key.format] {
                        message = made
                    } else {
                        message = OutgoingMessage(format: key.format, try key.format.encode(shown, previous: nil))
                        encoded[key.format] = message
                    }
                }
                if key.motion == .reduced {
                    // No splash for them, and the new board with every animation at its end.
                    if let made = resting[key.format] {
                        message = made
                    } else {
                        let frame = board.board.animator.restingFrame(at: tick)
                        message = OutgoingMessage(format: key.format, try key.format.encode(frame, previous: nil))
                        resting[key.format] = message
                    }
                }
                layout = try board.layout(key.format)
            } catch {
                // Its viewers keep the last board they were sent until a frame of this one encodes.
                broadcaster?.notSent("the switch of playlist \(stream.name) at tick \(tick)", of: board.name, error)
                continue
            }
            loop.notify(layout, viewersOf: key)
            loop.notify(message, viewersOf: key)
            loop.publish(
                message, keyframe: message, to: key, sequence: UInt64(clamping: tick), base: UInt64.max...UInt64.max,
                preamble: nil)
        }
    }

    /// The splash frame of `tick` to the full-motion channels: a delta against the one of `tick − 1` when that was
    /// published, else a keyframe.
    private func publishSplashFrame(_ stream: Stream, of board: BoardStream, at tick: Int64, splash: Splash) {
        guard let progress = Playlist.splashProgress(at: tick, switched: splash.switched, fps: clock.fps) else { return }
        let frame = board.board.animator.frame(at: tick)
        board.refreshLayout()
        let shown = frame.switching(from: splash.from, style: splash.style, progress: progress, spec: board.board.spec)
        let newLayout = board.board.spec != stream.layoutSpec
        stream.layoutSpec = board.board.spec
        let base = newLayout ? nil : stream.lastSplashFrame.flatMap { $0.tick == tick - 1 ? $0.frame : nil }
        for format in WireFormat.allCases {
            let key = PlaylistKey(playlist: stream.name, format: format, motion: .full)
            guard loop.viewerCount(of: key) > 0 else { continue }
            let keyframe: OutgoingMessage
            let delta: OutgoingMessage
            let preamble: OutgoingMessage?
            do throws(EncodingFailure) {
                keyframe = OutgoingMessage(format: format, try format.encode(shown, previous: nil))
                if let base {
                    delta = OutgoingMessage(format: format, try format.encode(shown, previous: base))
                } else {
                    delta = keyframe
                }
                preamble = newLayout ? try board.layout(format) : nil
            } catch {
                broadcaster?.notSent("splash frame \(tick) of playlist \(stream.name)", of: board.name, error)
                continue
            }
            let previous = UInt64(clamping: tick - 1)
            loop.publish(
                delta, keyframe: keyframe, to: key, sequence: UInt64(clamping: tick),
                base: base == nil ? UInt64.max...UInt64.max : previous...previous, preamble: preamble)
        }
        stream.lastSplashFrame = (tick, shown)
        stream.lastPublished = tick
        stream.plainSince = nil
    }

    /// The splash has finished: a keyframe of the board's own frame of `tick` to the full-motion channels, whose
    /// viewers then take the board's own messages again.
    private func publishSplashEnd(_ stream: Stream, of board: BoardStream, at tick: Int64) {
        let frame = board.board.animator.frame(at: tick)
        board.refreshLayout()
        let newLayout = board.board.spec != stream.layoutSpec
        stream.layoutSpec = board.board.spec
        for format in WireFormat.allCases {
            let key = PlaylistKey(playlist: stream.name, format: format, motion: .full)
            guard loop.viewerCount(of: key) > 0 else { continue }
            let keyframe: OutgoingMessage
            let preamble: OutgoingMessage?
            do throws(EncodingFailure) {
                keyframe = try board.keyframe(format, of: frame, at: tick)
                preamble = newLayout ? try board.layout(format) : nil
            } catch {
                broadcaster?.notSent("frame \(tick) of playlist \(stream.name)", of: board.name, error)
                continue
            }
            loop.publish(
                keyframe, keyframe: keyframe, to: key, sequence: UInt64(clamping: tick), base: UInt64.max...UInt64.max,
                preamble: preamble)
        }
        stream.lastSplashFrame = nil
        stream.lastPublished = tick
        stream.plainSince = tick
    }

    // MARK: - The boards' messages

    /// `board` published `message` (a delta against the ticks in `base`, `keyframe` the same picture whole) of `tick`
    /// to its channel of `format` and `motion`: the same bytes go to the playlists that show it, unless they publish
    /// their own for that tick (a switch, a splash). A delta's base is narrowed to the ticks since which a playlist's
    /// viewers hold the board's own frames.
    func forward(
        _ message: OutgoingMessage, keyframe: OutgoingMessage, of board: BoardStream, format: WireFormat,
        motion: StreamKey.Motion, tick: Int64, base: ClosedRange<UInt64>?, preamble: OutgoingMessage?
    ) {
        for stream in streams.values where stream.board == board.name {
            let key = PlaylistKey(playlist: stream.name, format: format, motion: motion)
            guard tick > stream.forwarded[key] ?? .min, loop.viewerCount(of: key) > 0 else { continue }
            var range = base
            switch motion {
            case .full:
                guard stream.lastSplashFrame == nil, tick > stream.lastPublished ?? .min, let since = stream.plainSince else {
                    continue
                }
                let given = base ?? UInt64(clamping: tick - 1)...UInt64(clamping: tick - 1)
                let lowest = max(given.lowerBound, UInt64(clamping: since))
                range = lowest <= given.upperBound ? lowest...given.upperBound : UInt64.max...UInt64.max
                if preamble != nil { stream.layoutSpec = board.board.spec }
            case .reduced:
                guard tick > stream.switched ?? .min else { continue }
            }
            loop.publish(message, keyframe: keyframe, to: key, sequence: UInt64(clamping: tick), base: range, preamble: preamble)
            stream.forwarded[key] = tick
        }
    }

    /// `board`'s event (a countdown end) in `format`, to the viewers of the playlists that show it.
    func notify(_ message: OutgoingMessage, of board: String, format: WireFormat) {
        for stream in streams.values where stream.board == board {
            for motion in StreamKey.Motion.allCases {
                loop.notify(message, viewersOf: PlaylistKey(playlist: stream.name, format: format, motion: motion))
            }
        }
    }

    // MARK: - Changes

    /// Boards were added or removed: every watched playlist looks again at the next tick (one whose board went
    /// switches to the board that takes its slot).
    func boardsChanged() {
        for stream in streams.values where !watching(stream).isEmpty {
            lookAgain(stream)
        }
    }

    func playlistChanged(_ playlist: LivePlaylist) {
        // Before its next tick: a viewer whose token may not read a board it now holds is never sent that board.
        broadcaster?.scopes?.playlistChanged(playlist.name, boards: playlist.playlist.boards)
        guard let stream = streams[playlist.name], stream.playlist === playlist, !watching(stream).isEmpty else { return }
        // The new definition takes effect at its anchor; its position says when the next switch is.
        lookAgain(stream)
    }

    func playlistRemoved(_ playlist: LivePlaylist) {
        for key in PlaylistKey.all(of: playlist.name) {
            loop.closeViewers(of: key, code: 4404, reason: "playlist deleted")
        }
        if streams[playlist.name]?.playlist === playlist { streams[playlist.name] = nil }
    }

    private func lookAgain(_ stream: Stream) {
        let tick = clock.currentTick() + 1
        stream.nextTick = min(stream.nextTick ?? .max, tick)
        broadcaster?.schedule(tick)
    }
}

@available(*, unavailable)
extension PlaylistStreams: Sendable {}
