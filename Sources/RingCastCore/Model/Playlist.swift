/// A playlist (DESIGN §13): boards shown in turn, `seconds` each, on every screen that shows it, all switching on
/// the same tick.
///
/// Its time is the wall-clock tick grid's, anchored in whole Unix seconds: slot k (k ≥ 0) begins at
/// `anchor + k·seconds` — tick `(anchor + k·seconds)·fps` on a grid of any fps, so switches always fall on a tick —
/// and shows board `k mod n`. The first slot also holds every tick before the anchor, so a playlist shows its
/// first board from the moment it is written. A board that is not served when its slot comes is skipped: the
/// slot shows the next served board in the playlist's order (so each served board keeps its own slots and their
/// ticks). Everything here is a pure function of the playlist, the tick and which boards are served.
public struct Playlist: Sendable, Equatable {
    public var name: String
    public var boards: [String]
    /// Whole seconds each board is shown (`Limits.playlistSeconds`).
    public var seconds: Int
    /// How the next board's background grows over the previous one's at a switch; nil: the board changes at once.
    public var transition: SplashStyle?
    /// The Unix second the first slot ends a period after (`Limits.playlistAnchors`).
    public var anchor: Int64

    /// The splash of a switch: the seeds' easeInOut over 0.5 s, as a background change's by default.
    public static let transitionSeconds = 0.5

    public init(name: String, boards: [String], seconds: Int, transition: SplashStyle?, anchor: Int64) {
        self.name = name
        self.boards = boards
        self.seconds = seconds
        self.transition = transition
        self.anchor = anchor
    }

    /// The playlist of `definition`, named `name`, anchored at `anchor`.
    public init(name: String, definition: PlaylistDefinition, anchor: Int64) {
        self.init(
            name: name, boards: definition.boards, seconds: definition.seconds, transition: definition.transition,
            anchor: anchor)
    }

    /// What the API sets: boards, seconds and transition, without the name and the anchor.
    public var definition: PlaylistDefinition {
        PlaylistDefinition(boards: boards, seconds: seconds, transition: transition)
    }

    /// The tick of `anchor` on a grid of `fps`.
    public func anchorTick(fps: Int) -> Int64 {
        anchor * Int64(fps)
    }

    /// Ticks in one slot on a grid of `fps`.
    public func periodTicks(fps: Int) -> Int64 {
        Int64(seconds) * Int64(fps)
    }

    /// The slot holding `tick`: 0 up to the end of the first period (every tick before the anchor included).
    public func slot(at tick: Int64, fps: Int) -> Int64 {
        let since = tick - anchorTick(fps: fps)
        return since < 0 ? 0 : since / periodTicks(fps: fps)
    }

    /// The first tick of slot `slot` (the anchor for slot 0, though slot 0 holds the ticks before it too).
    public func start(ofSlot slot: Int64, fps: Int) -> Int64 {
        anchorTick(fps: fps) + slot * periodTicks(fps: fps)
    }

    /// The board slot `slot` shows, with its index in `boards`: board `slot mod n`, or the next served one after
    /// it in order; nil when none is served.
    public func shown(inSlot slot: Int64, served: (String) -> Bool) -> (index: Int, board: String)? {
        let count = Int64(boards.count)
        guard count > 0 else { return nil }
        let first = Int(((slot % count) + count) % count)
        for step in 0..<boards.count {
            let index = (first + step) % boards.count
            if served(boards[index]) { return (index, boards[index]) }
        }
        return nil
    }

    /// The board `tick` shows, with its index in `boards`; nil when none of the boards is served.
    public func shown(at tick: Int64, fps: Int, served: (String) -> Bool) -> (index: Int, board: String)? {
        shown(inSlot: slot(at: tick, fps: fps), served: served)
    }

    /// Ticks a switch's splash takes on a grid of `fps`: the first tick after it that shows the splash finished.
    public static func transitionTicks(fps: Int) -> Int64 {
        Int64((transitionSeconds * Double(fps)).rounded(.up))
    }

    /// How far the splash of a switch at `switched` has grown at `tick` (easeInOut over `transitionSeconds`), or
    /// nil once it has finished (or before it began).
    public static func splashProgress(at tick: Int64, switched: Int64, fps: Int) -> Double? {
        guard tick >= switched, tick - switched < transitionTicks(fps: fps) else { return nil }
        let fraction = Double(tick - switched) / (transitionSeconds * Double(fps))
        guard fraction < 1 else { return nil }
        return TimingCurve.easeInOut.progress(at: fraction)
    }
}

/// Where a playlist stands at one tick (`PlaylistTimeline.position`).
public struct PlaylistPosition: Sendable, Equatable {
    /// The board shown.
    public var board: String
    /// Its index in the boards of the definition that holds the tick.
    public var index: Int
    /// The switch that brought it: the newest tick at or before this one whose board differs from the tick
    /// before's; nil when the board has been shown since the playlist began.
    public var switched: Int64?
    /// The board shown before `switched` (nil when no board was served then, or without a switch).
    public var previous: String?
    /// The next switch: the first tick after this one that shows another board; nil when none will (one board
    /// served).
    public var next: Int64?
    /// The board `next` shows.
    public var nextBoard: String?
}

/// A playlist's boards over time: its definition, and the one it replaced, which still holds the ticks before
/// the new definition's anchor (a replacement takes effect at its anchor, the next whole second at least a
/// cluster's lead after the write, so that every node switches on the same tick). Switches are at the slot
/// boundaries of the definition holding each tick, and at the new anchor, wherever the board shown changes.
public struct PlaylistTimeline: Sendable, Equatable {
    public var current: Playlist
    public var previous: Playlist?
    public let fps: Int

    public init(current: Playlist, previous: Playlist? = nil, fps: Int) {
        precondition(fps > 0, "fps must be positive")
        self.current = current
        self.previous = previous
        self.fps = fps
    }

    /// The definition that holds `tick`.
    public func definition(at tick: Int64) -> Playlist {
        guard let previous, tick < current.anchorTick(fps: fps) else { return current }
        return previous
    }

    /// The board `tick` shows; nil when none is served.
    public func shown(at tick: Int64, served: (String) -> Bool) -> (index: Int, board: String)? {
        definition(at: tick).shown(at: tick, fps: fps, served: served)
    }

    /// The newest boundary (a tick where a slot begins) at or before `tick`; nil before the first.
    public func boundary(atOrBefore tick: Int64) -> Int64? {
        let anchor = current.anchorTick(fps: fps)
        if tick >= anchor {
            let slot = current.slot(at: tick, fps: fps)
            if slot >= 1 { return current.start(ofSlot: slot, fps: fps) }
            return previous == nil ? nil : anchor
        }
        guard let previous else { return nil }
        let slot = previous.slot(at: tick, fps: fps)
        return slot >= 1 ? previous.start(ofSlot: slot, fps: fps) : nil
    }

    /// The first boundary after `tick`.
    public func boundary(after tick: Int64) -> Int64 {
        let anchor = current.anchorTick(fps: fps)
        let own = current.start(ofSlot: current.slot(at: tick, fps: fps) + 1, fps: fps)
        guard tick < anchor else { return own }
        guard let previous else { return own }
        return min(previous.start(ofSlot: previous.slot(at: tick, fps: fps) + 1, fps: fps), anchor)
    }

    /// Where the playlist stands at `tick` with the boards `served` serves; nil when none of its boards is
    /// served. Looks at most a cycle of each definition back and ahead: a board shown for longer has been shown
    /// all along (it is the only one served).
    public func position(at tick: Int64, served: (String) -> Bool) -> PlaylistPosition? {
        guard let here = self.shown(at: tick, served: served) else { return nil }
        var position = PlaylistPosition(board: here.board, index: here.index)
        let steps = current.boards.count + (previous?.boards.count ?? 0) + 2
        var back = self.boundary(atOrBefore: tick)
        for _ in 0..<steps {
            guard let at = back else { break }
            let before = self.shown(at: at - 1, served: served)?.board
            if before != here.board {
                position.switched = at
                position.previous = before
                break
            }
            back = self.boundary(atOrBefore: at - 1)
        }
        var ahead = self.boundary(after: tick)
        for _ in 0..<steps {
            if let next = self.shown(at: ahead, served: served)?.board, next != here.board {
                position.next = ahead
                position.nextBoard = next
                break
            }
            ahead = boundary(after: ahead)
        }
        return position
    }

    /// The splash style of a switch at `tick`: the transition of the definition that holds it.
    public func transition(at tick: Int64) -> SplashStyle? {
        definition(at: tick).transition
    }
}
