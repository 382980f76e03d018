/// One board on the wall-clock tick grid: tick k is at k / fps seconds after the Unix epoch, a frame's `seq` is
/// k and its `t` follows from k. Changes are accepted with the tick they start at and applied exactly there, so
/// the same changes at the same ticks give the same frames, bit for bit, in any process and after any restart
/// (DESIGN §4). Pure: no clock, no I/O; the caller says which tick it is.
///
/// Inside, the board's time is seconds since `epoch`, a tick that moves forward whenever a change arrives while
/// nothing moves, so times stay small and exact; `epoch` is part of the stored state, so every process agrees.
public struct Animator: Sendable {
    /// A change to a board, as the API accepts it.
    public enum Change: Sendable, Equatable {
        case patch(BoardPatch)
        case ring(String, RingUpdate)
        case background(BackgroundUpdate)
        /// `animated` false: the stroke jumps once per whole second (`Countdown.animated`).
        case startCountdown(seconds: Double, animated: Bool = true)
        case cancelCountdown
        /// New rings and placement (a board replaced, a ring added or deleted), already checked and laid out.
        case restructure(BoardSpec)
        /// Push-to-create (`autoCreate`): the board takes `spec` (a ring added, laid out by the server), then `then`
        /// (the write to that ring) at the same tick, as one write and one revision.
        indirect case grow(BoardSpec, then: Change)
    }

    public let fps: Int
    /// Every change whose start tick is at most `appliedThrough` applied.
    private var board: Board
    public private(set) var epoch: Int64
    /// Accepted changes not yet at their start tick, oldest first, with their start ticks (ascending).
    /// (No observer: one made every append copy the queue.)
    private var pending: [(tick: Int64, change: Change)] = []
    /// This animator with every pending change applied at its start tick (nil while none is pending: then it is this
    /// animator itself). Kept as changes are accepted, each applied to it once, so a write applies its own change
    /// only, never again every change queued before it (issue 32: a board pushed thousands of times a second holds
    /// dozens of changes for the next tick).
    private var future: Future?
    /// The newest tick whose changes have been applied to `board`.
    private var appliedThrough: Int64
    /// The tick (and the epoch then) whose instant the board's values were last primed for (`Board.prime(at:)`):
    /// priming again for the same one would only blend what was appended since, which reading does anyway.
    private var primed: (tick: Int64, epoch: Int64)?
    /// The last frame composed and its base, for the next tick's delta base and a repeated ask.
    private var lastFrames: (tick: Int64, frame: Frame, base: Frame)?
    /// When the board and its rings were last written, for what shows stale (DESIGN §13); kept with `board`.
    public private(set) var freshness = Freshness()
    /// The newest points of rings whose label reads their history (`rate`, `eta`); kept with `board` like `freshness`.
    public private(set) var recent = RecentHistory()

    /// A board with nothing pushed yet, its time starting at `tick`.
    public init(spec: BoardSpec, fps: Int, tick: Int64) {
        precondition(fps > 0, "fps must be positive")
        self.fps = fps
        board = Board(spec: spec)
        epoch = tick
        appliedThrough = tick
        projectedRevision = board.revision
    }

    /// A board restored from `state`, which may have been stored at another fps (its epoch is then moved to the
    /// nearest tick of this grid). Throws, naming the key, when a number is out of range; the ids of values
    /// `spec` has no ring for are returned in `skipped`.
    public init(spec: BoardSpec, fps: Int, state: BoardState) throws(BoardStateError) {
        precondition(fps > 0, "fps must be positive")
        guard (1...1000).contains(state.fps) else {
            throw BoardStateError(key: "fps", message: "must be from 1 to 1000, got \(state.fps)")
        }
        guard (0...BoardState.maximumInteger).contains(state.epoch) else {
            throw BoardStateError(
                key: "epoch", message: "must be a tick from 0 to \(BoardState.maximumInteger), got \(state.epoch)")
        }
        var board = Board(spec: spec)
        skipped = try board.restore(state)
        freshness = try Freshness(restoring: state, fps: fps, spec: board.spec)
        recent = try RecentHistory(restoring: state, fps: fps, spec: board.spec)
        self.fps = fps
        self.board = board
        epoch = state.fps == fps ? state.epoch : Int64((Double(state.epoch) * Double(fps) / Double(state.fps)).rounded())
        appliedThrough = epoch
        projectedRevision = board.revision
    }

    /// Ids of stored values that the board's spec no longer takes (see `init(spec:fps:state:)`).
    public private(set) var skipped: [String] = []

    public var spec: BoardSpec { board.spec }

    /// Board time of `tick`: seconds since `epoch`, computed from the difference of integers so it is exact.
    public func time(at tick: Int64) -> Double {
        Double(tick &- epoch) / Double(fps)
    }

    /// Milliseconds since the Unix epoch of `tick`, to a tenth: a frame's `t`.
    public func wallClockMilliseconds(at tick: Int64) -> Double {
        (Double(tick) * 10_000 / Double(fps)).rounded() / 10
    }

    // MARK: Changes

    /// Checks `change` against the board as it will be once every accepted change has started, and queues it to
    /// start at `tick` (frames before it do not show it), the grid being at `now`: `tick` is `now + 1` for a
    /// write this process accepts, `now + lead` in cluster mode. Returns the tick it was queued for: `tick`, or
    /// later if a change was already queued for a later tick or frames up to `tick` were already composed.
    /// Throws what the board's checks throw (404, 422), and then changes nothing.
    @discardableResult
    public mutating func accept(_ change: Change, at tick: Int64, now: Int64) throws(APIError) -> Int64 {
        // Changes that started before `now` are applied, so the queue stays short on a board nobody watches.
        // Never a later one: frames from `now - 1` on may still be composed (a delta's base is the frame before),
        // and a change applied before its tick would show in them — or, applied before the base was composed,
        // vanish from the delta of its own tick (a viewer would keep the old value).
        advance(to: min(tick, now) - 1)
        // A write that is stored must load (issue 20): the one number a stored board could outgrow by writes alone.
        // Every other value is checked by the request's limits and kept in range by the animations themselves
        // (`LoadableStateTests`), and what is stored is the change, which loads by the same path that took it.
        guard Int64(projectedRevision) < BoardState.maximumRevision else {
            throw .unprocessable(
                "board \(spec.name) is at revision \(projectedRevision), the largest a stored board holds; nothing was changed")
        }
        let start = max(tick, appliedThrough + 1, pending.last?.tick ?? tick)
        // The change alone, applied to the board as every change before it leaves it.
        var trial = projection
        trial.lastFrames = nil
        trial.pending = [(start, change)]
        var failure: APIError?
        trial.advance(to: start) { failure = $0 }
        if let failure { throw failure }
        pending.append((start, change))
        future = Future(trial)
        projectedRevision = trial.board.revision
        return start
    }

    /// How a change that must start at one exact tick fared (`accept(_:exactlyAt:)`).
    public enum ExactAcceptance: Sendable, Equatable {
        case accepted
        /// The tick is one this animator has already applied or composed: starting the change later
        /// would make other frames than every other node's, so it is refused and the caller reloads
        /// the board's state (cluster mode's late update, DESIGN §10).
        case late(appliedThrough: Int64)
    }

    /// Queues `change` to start at exactly `tick`, as a change accepted by another node is: never moved to a
    /// later tick, however early it arrives (`now` is the grid's tick as for `accept(_:at:now:)`). Throws what the board's checks throw; returns `.late` without changing anything when frames
    /// from `tick` on may already have been composed or when a change queued for a later tick is pending
    /// (changes start in the order they were accepted).
    public mutating func accept(_ change: Change, exactlyAt tick: Int64, now: Int64) throws(APIError) -> ExactAcceptance {
        let applied = max(appliedThrough, lastFrames?.tick ?? .min)
        guard tick > applied, tick >= (pending.last?.tick ?? tick) else {
            return .late(appliedThrough: applied)
        }
        let start = try accept(change, at: tick, now: now)
        precondition(start == tick, "an exact change starts at its own tick")
        return .accepted
    }

    /// The animator with every accepted change applied at its start tick: what the board will be. Kept, not
    /// computed (`future`).
    private var projection: Animator {
        future?.animator ?? self
    }

    /// The animator a kept projection holds (`future`): immutable, so copies of the animator share it.
    private final class Future: Sendable {
        let animator: Animator
        init(_ animator: Animator) { self.animator = animator }
    }

    /// Whether the board will have a ring `id` once every accepted change has started.
    public func willHaveRing(withID id: String) -> Bool {
        projection.board.spec.ring(withID: id) != nil
    }

    /// The board with every accepted change applied, pending ones included: what a GET shows as targets.
    public var projected: Board { projection.board }

    /// The revision once every accepted change has started.
    public var revision: Int { projectedRevision }

    /// `revision`, kept as changes are accepted (the projection's).
    private var projectedRevision: Int

    /// Lets a restored animator that has composed nothing and queued nothing take changes from its epoch tick on, as
    /// the board it was stored from could: several writes may start at one tick, and a snapshot taken between them
    /// is followed in the log by the rest (its epoch being that tick when the board rested before the first). Changes
    /// at the epoch then apply at board time 0, after the ones the state holds, as they did on the stored board.
    public mutating func reopenEpochTick() {
        guard pending.isEmpty, lastFrames == nil else { return }
        appliedThrough = min(appliedThrough, epoch - 1)
    }

    /// Makes the next change's revision follow `revision` at least, after going back to an older
    /// state (a restored animator, nothing pending), so that no revision names two different states.
    public mutating func raiseRevision(to revision: Int) {
        precondition(pending.isEmpty, "raise the revision of a restored animator, before it accepts changes")
        board.revision = max(board.revision, revision)
        projectedRevision = board.revision
    }

    /// Applies the changes that start at or before `tick`, in the order they were accepted. A change that
    /// arrives while nothing moves first moves time 0 to its tick, so board times stay small (and exact)
    /// however long the server runs; the frames are the same either way, and the same in every process that
    /// applies the same changes.
    ///
    /// Before a change applies, what has finished by its tick is dropped (`Board.settle(at:)`, as composing that
    /// tick would): the board a change leaves is then the same whichever frames were composed before it, so a
    /// restart that replays the logged changes, and every cluster node, holds the same state (issue 32).
    private mutating func advance(to tick: Int64, failed: (APIError) -> Void = { _ in }) {
        while let first = pending.first, first.tick <= tick {
            pending.removeFirst()
            let at = time(at: first.tick)
            if !board.isAnimating(at: at) {
                board.shiftTime(by: at, settlingAt: at)
                epoch = first.tick
            } else {
                board.settle(at: at)
            }
            do {
                // Only a board that shows a rate or a time to done keeps points in memory (`RecentHistory`).
                let before = RecentHistory.watches(board.spec) || first.change.startsReadingHistory ? board : nil
                try Self.apply(first.change, to: &board, at: time(at: first.tick))
                freshness.record(first.change, on: board.spec, at: first.tick)
                if let before, RecentHistory.watches(board.spec) || !recent.rings.isEmpty {
                    recent.record(
                        ChangeHistory.of(first.change, from: before, to: board), on: board.spec, at: first.tick, fps: fps)
                }
            } catch {
                failed(error)
            }
            appliedThrough = max(appliedThrough, first.tick)
        }
        // Every accepted change applied: the board is its own projection again.
        if pending.isEmpty { future = nil }
        appliedThrough = max(appliedThrough, tick)
    }

    /// Keeps every value's motion at the instant `snapshot(at:)` reads while changes are pending (the newest one's
    /// start tick), so that reading the board there blends only what is pushed after this call: a write answered
    /// with the board calls it, once a tick in effect (`prime(at:)`). A replay, which reads nothing, does not.
    public mutating func primeForReading() {
        guard let tick = pending.last?.tick, var animator = future?.animator, animator.prime(at: tick) else { return }
        future = Future(animator)
    }

    /// Primes the board's values at `tick` (`Board.prime(at:)`) unless they were primed there already: a board
    /// thousands of segments deep is then folded once a tick, not once a read. Returns whether it primed.
    @discardableResult
    private mutating func prime(at tick: Int64) -> Bool {
        if let primed, primed.tick == tick, primed.epoch == epoch { return false }
        board.prime(at: time(at: tick))
        primed = (tick, epoch)
        return true
    }

    private static func apply(_ change: Change, to board: inout Board, at time: Double) throws(APIError) {
        switch change {
        case .patch(let patch): try board.apply(patch, at: time)
        case .ring(let id, let update): try board.apply(update, toRing: id, at: time)
        case .background(let update): try board.apply(update, at: time)
        case .startCountdown(let seconds, let animated):
            try board.startCountdown(seconds: seconds, animated: animated, at: time)
        case .cancelCountdown: board.cancelCountdown(at: time)
        case .restructure(let spec): board.restructure(to: spec, at: time)
        case .grow(let spec, let then):
            // One revision for both, on a copy, so that a refused `then` leaves the board as it was.
            var grown = board
            grown.restructure(to: spec, at: time)
            try apply(then, to: &grown, at: time)
            grown.revision = board.revision + 1
            board = grown
        }
    }

    // MARK: Frames

    /// The grid frame of `tick` and the grid frame of `tick − 1`, the base its delta is computed against.
    /// Ticks only go forward: `tick` may repeat the last one asked for, not go before it.
    public mutating func frames(at tick: Int64) -> (frame: Frame, base: Frame) {
        if let last = lastFrames, last.tick == tick { return (last.frame, last.base) }
        let base: Frame
        if let last = lastFrames, last.tick == tick - 1 {
            base = last.frame
        } else {
            advance(to: tick - 1)
            base = compose(at: tick - 1)
        }
        advance(to: tick)
        prime(at: tick)
        let frame = compose(at: tick)
        lastFrames = (tick, frame, base)
        // Nothing before `tick` is composed again: finished animations can go.
        board.settle(at: time(at: tick))
        return (frame, base)
    }

    /// The newest tick composed: frames are asked for from here on.
    public var composedThrough: Int64? { lastFrames?.tick }

    /// The grid frame of `tick` on its own (a greeting's keyframe).
    public mutating func frame(at tick: Int64) -> Frame {
        frames(at: tick).frame
    }

    /// The frame reduced-motion viewers see at `tick`: the board with every change accepted up to `tick` and every
    /// animation at its end (`Board.atRest`). It differs from the one before only on a change's start tick and
    /// when a countdown's label steps, never during an animation. Ticks only go forward, as for `frames(at:)`.
    public mutating func restingFrame(at tick: Int64) -> Frame {
        advance(to: tick)
        return compose(board.atRest, at: tick)
    }

    /// The resting frame once every accepted change has started: at `tick`, or at the last pending change's start
    /// tick if that is later (a write is accepted for the next tick). Composed on a copy, so the ticks this
    /// animator composes are not moved: what `GET …svg?at=end` shows, the targets at rest.
    public func restingFrameOnceStarted(from tick: Int64) -> Frame {
        var copy = self
        return copy.restingFrame(at: max(tick, pending.last?.tick ?? tick))
    }

    /// Whether anything moves at `tick` (a ring's progress or colours, the countdown, a splash layer).
    public func isAnimating(at tick: Int64) -> Bool {
        board.isAnimating(at: time(at: tick))
    }

    /// Whether the board, with every accepted change applied (pending ones too, which an unwatched board applies
    /// only at its next write or frame), has nothing moving at `tick` and nothing starting after it.
    public func isAtRest(at tick: Int64) -> Bool {
        guard (pending.last?.tick ?? .min) <= tick else { return false }
        let projection = projection
        return !projection.board.isAnimating(at: projection.time(at: tick))
    }

    /// The next tick after `tick` whose frame differs from the one before it: `tick + 1` while something moves
    /// at `tick`, else the first of the start of the next accepted change and the next tick at which a stale text
    /// changes (`Freshness.nextChange`), else nil (the board rests; send nothing).
    public func nextTick(after tick: Int64) -> Int64? {
        if board.isAnimating(at: time(at: tick)) { return tick + 1 }
        let change = pending.first.map { max($0.tick, tick + 1) }
        let texts = [
            freshness.nextChange(after: tick, in: board.spec, fps: fps), recent.nextChange(after: tick, in: board.spec, fps: fps),
        ].compactMap { $0 }.min()
        guard let texts else { return change }
        return min(change ?? texts, texts)
    }

    /// How many animations the board holds once every accepted change has started (`Board.heldAnimations`).
    public var heldAnimations: Int { projection.board.heldAnimations }

    /// What `GET /api/v1/boards/{board}` shows at `tick`: targets with every accepted change, presentation.
    public func snapshot(at tick: Int64) -> BoardSnapshot {
        let projection = projection
        let at = max(tick, pending.last?.tick ?? tick)
        var snapshot = projection.board.snapshot(at: projection.time(at: at))
        snapshot.mark(projection.freshness, spec: projection.spec, at: at, fps: fps)
        projection.recent.mark(&snapshot, spec: projection.spec, at: at, fps: fps)
        return snapshot
    }

    /// The whole state to store: every accepted change applied at its start tick, exactly as `frames(at:)`
    /// will apply it, so a restored animator continues with the same bytes.
    public var state: BoardState {
        let projection = projection
        var state = projection.board.state(fps: fps, epoch: projection.epoch)
        state.written = projection.freshness.written
        state.recent = projection.recent.stored
        return state
    }

    /// `state` with every animation that has finished by the last accepted change's start tick dropped: the
    /// same on every node that accepted the same changes at the same ticks, whichever frames each one happened to
    /// compose (composing settles what is done). Cluster mode stores and compares this one (DESIGN §10).
    public var settledState: BoardState {
        var projection = projection
        let time = projection.time(at: projection.appliedThrough)
        // Values too, though composing keeps them longer for threshold followers (`Board.settle(at:)`): every
        // node settled them at an earlier tick, if at all, so settling them by this one gives the same on each.
        // Only compared, never shown, so what a follower would have read does not matter here.
        projection.board.settle(at: time, valuesAt: time)
        var state = projection.board.state(fps: fps, epoch: projection.epoch)
        state.written = projection.freshness.written
        state.recent = projection.recent.stored
        return state
    }

    // MARK: Countdown ends

    /// Ticks `countdownEnds(after:through:)` looks at, at most: the newest ones of a longer range.
    public static let maximumScannedTicks: Int64 = 4096

    /// The countdown ends on the ticks after `after` up to `through`, in tick order: each countdown ring whose
    /// countdown reaches 0 on a tick (`Board.countdownEnds`), with the changes accepted so far applied at their
    /// start ticks. A pure function of the changes and their ticks, so every process finds the same ends.
    public func countdownEnds(after: Int64, through: Int64) -> [CountdownEnd] {
        guard through > after, board.countdown != nil || pending.contains(where: \.change.startsCountdown) else {
            return []
        }
        var copy = self
        var ends: [CountdownEnd] = []
        for tick in max(after + 1, through - Self.maximumScannedTicks + 1)...through {
            copy.advance(to: tick)
            for ring in copy.board.countdownEnds(between: copy.time(at: tick - 1), and: copy.time(at: tick)) {
                ends.append(
                    CountdownEnd(board: spec.name, ring: ring.id, tick: tick, webhook: ring.countdownOptions.webhook))
            }
        }
        return ends
    }

    /// Whether `end` is still an end of this board as it is defined on `tick` (the changes accepted so far applied
    /// up to it): false once its countdown was cancelled or started again, its ring removed, or the ring's webhook
    /// changed. A webhook's retry asks before each try, so that it never POSTs an end that no longer is.
    public func stillEnds(_ end: CountdownEnd, asOf tick: Int64) -> Bool {
        var copy = self
        copy.advance(to: max(tick, end.tick))
        let rings = copy.board.countdownEnds(between: copy.time(at: end.tick - 1), and: copy.time(at: end.tick))
        return rings.contains { $0.id == end.ring && $0.countdownOptions.webhook == end.webhook }
    }

    /// The first tick after `tick` on which a countdown ring reaches 0, with the changes accepted so far applied
    /// at their start ticks; nil when none will (no countdown, or every one has ended for good). Found by
    /// bisection on `Countdown.completions`, so a countdown of a day costs a few dozen steps, not a scan.
    public func nextCountdownEnd(after tick: Int64) -> Int64? {
        // Every push asks (the webhook timer is reset after each change): without a countdown running or one
        // about to start, there is no end to find, and no copy of the board to advance.
        guard board.countdown != nil || pending.contains(where: \.change.startsCountdown) else { return nil }
        var copy = self
        copy.advance(to: tick)
        var from = tick
        while true {
            // The state holds until the next pending change starts; from its tick on, the changed one does.
            let limit = copy.pending.first?.tick
            if let found = copy.firstCountdownEnd(after: from, before: limit) { return found }
            guard let limit else { return nil }
            copy.advance(to: limit)
            from = limit - 1
        }
    }

    /// The first tick after `from` (and before `limit`) on which the board as it is now has a countdown ring
    /// reach 0.
    private func firstCountdownEnd(after from: Int64, before limit: Int64?) -> Int64? {
        guard let countdown = board.countdown else { return nil }
        var first: Int64?
        for ring in board.spec.rings where ring.kind.tag == .countdown {
            let then = ring.countdownOptions.then
            func completions(_ tick: Int64) -> Int64 { countdown.completions(at: time(at: tick), then: then) }
            let base = completions(from)
            guard then == .restart || base == 0 else { continue }
            // A tick by which the next completion has surely happened: that end's time, a couple of ticks on.
            let next = then == .restart ? countdown.start + Double(base + 1) * countdown.seconds : countdown.end
            let ticks = (next * Double(fps)).rounded(.up)
            guard ticks.isFinite, abs(ticks) < 1e15 else { continue }
            var high = max(epoch + Int64(ticks) + 2, from + 1)
            guard completions(high) > base else { continue }
            var low = from
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if completions(middle) > base { high = middle } else { low = middle }
            }
            if let limit, high >= limit { continue }
            first = min(first ?? high, high)
        }
        return first
    }

    private func compose(at tick: Int64) -> Frame {
        compose(board, at: tick)
    }

    /// Frame `tick` of `board` (this animator's, or as reduced motion shows it), with what the animator adds:
    /// the stale text of rings nobody wrote to for their `staleAfter`.
    private func compose(_ board: Board, at tick: Int64) -> Frame {
        var frame = FrameComposer.frame(
            of: board,
            at: time(at: tick),
            seq: UInt64(clamping: tick),
            wallClockMilliseconds: wallClockMilliseconds(at: tick)
        )
        freshness.mark(&frame, spec: board.spec, at: tick, fps: fps)
        // A board without rate, eta or sparkline points composes nothing more (their labels read `—` meanwhile).
        if !recent.rings.isEmpty {
            recent.mark(&frame, spec: board.spec, at: tick, fps: fps)
        }
        return frame
    }
}

extension Animator.Change {
    /// Whether the change gives a ring a label that reads its history (`rate`, `eta`), so that its points are kept
    /// from this change on.
    var startsReadingHistory: Bool {
        switch self {
        case .ring(_, let update): update.label?.readsHistory == true
        case .patch(let patch): patch.rings.values.contains { $0.label?.readsHistory == true }
        case .restructure(let spec): RecentHistory.watches(spec)
        case .grow(let spec, let then): RecentHistory.watches(spec) || then.startsReadingHistory
        case .background, .startCountdown, .cancelCountdown: false
        }
    }

    /// Whether the change starts a countdown.
    var startsCountdown: Bool {
        if case .startCountdown = self { true } else { false }
    }
}
