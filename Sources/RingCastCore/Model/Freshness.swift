/// When a board and each of its rings last received a write, as ticks on the grid, and what that makes stale
/// (DESIGN §13, "stale data").
///
/// A ring or widget with a `staleAfter` of its own is stale once no write touched it for that many seconds; one
/// without is stale once no write reached the board for the board's `staleAfter`. Stale from tick
/// `since + staleAfter · fps` on, exactly, it shows `StaleLabel`'s text until the next write. A ring never
/// written (and a board never written) is not stale: it shows no data rather than old data.
///
/// Pure and on the tick grid: the same writes at the same ticks give the same texts at the same ticks in every
/// process, and the ticks at which a text changes are computed (`nextChange(after:in:fps:)`), never polled.
public struct Freshness: Sendable, Equatable {
    /// The tick of the newest write to the board; nil: none yet.
    public private(set) var board: Int64?
    /// Per ring id, the tick of the newest write that touched the ring.
    public private(set) var rings: [String: Int64]

    public init(board: Int64? = nil, rings: [String: Int64] = [:]) {
        self.board = board
        self.rings = rings
    }

    /// Notes `change`, accepted and applied to the board (now shaped `spec`), as written at `tick`: every change
    /// writes the board; an entry writes its ring; a countdown started or cancelled writes the countdown rings; a
    /// new structure keeps the ticks of the rings still there.
    mutating func record(_ change: Animator.Change, on spec: BoardSpec, at tick: Int64) {
        board = tick
        switch change {
        case .patch(let patch):
            for id in patch.rings.keys { rings[id] = tick }
        case .ring(let id, _):
            rings[id] = tick
        case .startCountdown, .cancelCountdown:
            for ring in spec.rings where ring.kind.tag == .countdown { rings[ring.id] = tick }
        case .background:
            break
        case .restructure(let spec):
            let ids = Set(spec.rings.map(\.id))
            rings = rings.filter { ids.contains($0.key) }
        case .grow(let grown, let then):
            record(.restructure(grown), on: spec, at: tick)
            record(then, on: spec, at: tick)
        }
    }

    // MARK: Staleness

    /// The tick of the newest write that touched ring `id`: its own, and for a derived ring its sources' too (it
    /// shows their values); nil when none did.
    public func lastWrite(ofRing id: String, in spec: BoardSpec) -> Int64? {
        var newest = rings[id]
        if let sources = spec.ring(withID: id)?.kind.sources {
            for source in sources {
                if let tick = rings[source] { newest = max(newest ?? tick, tick) }
            }
        }
        return newest
    }

    /// What `ring`'s staleness counts from and for how long: its own `staleAfter` from its own newest write, else
    /// the board's from the board's; nil when neither is set or nothing was written.
    private func clock(of ring: RingSpec, in spec: BoardSpec) -> (since: Int64, seconds: Int)? {
        if let seconds = ring.staleAfter {
            return lastWrite(ofRing: ring.id, in: spec).map { ($0, seconds) }
        }
        guard let seconds = spec.staleAfter, let board else { return nil }
        return (board, seconds)
    }

    /// Whether any ring of `spec` may ever show stale: without, frames and scheduling skip every question.
    static func watches(_ spec: BoardSpec) -> Bool {
        spec.staleAfter != nil || spec.rings.contains { $0.staleAfter != nil }
    }

    /// `ring`'s stale text at `tick` (`StaleLabel`), or nil while it is fresh.
    public func staleText(of ring: RingSpec, in spec: BoardSpec, at tick: Int64, fps: Int) -> String? {
        guard let (since, seconds) = clock(of: ring, in: spec) else { return nil }
        let elapsed = tick &- since
        guard elapsed >= Int64(seconds) * Int64(fps) else { return nil }
        return StaleLabel.string(elapsed: elapsed, fps: fps)
    }

    /// The first tick after `tick` at which some ring's stale text changes, as long as nothing is written: the
    /// tick it goes stale, then each one at which `StaleLabel` counts on. Nil when none will.
    public func nextChange(after tick: Int64, in spec: BoardSpec, fps: Int) -> Int64? {
        guard Self.watches(spec) else { return nil }
        var next: Int64?
        for ring in spec.rings {
            guard let (since, seconds) = clock(of: ring, in: spec) else { continue }
            let elapsed = tick &- since
            let stale = Int64(seconds) * Int64(fps)
            let change = since &+ (elapsed < stale ? stale : StaleLabel.nextChange(after: elapsed, fps: fps))
            next = min(next ?? change, change)
        }
        return next
    }

    /// Each ring's stale text at `tick` set on `frame`'s entries (composed for `spec`, in its ring order).
    func mark(_ frame: inout Frame, spec: BoardSpec, at tick: Int64, fps: Int) {
        guard Self.watches(spec) else { return }
        for (index, ring) in zip(frame.rings.indices, spec.rings) {
            frame.rings[index].stale = staleText(of: ring, in: spec, at: tick, fps: fps)
        }
    }

    // MARK: Stored

    /// As stored (`BoardState.written`).
    var written: BoardState.Written {
        BoardState.Written(board: board, rings: rings)
    }

    /// The freshness `state` stored, its ticks moved to a grid of `fps` ticks a second as the caller moves the
    /// epoch (`Animator.init(spec:fps:state:)`), only for rings of `spec`. A state stored before freshness existed
    /// counts as written at its `epoch`, the board and every ring it holds values for: the same tick on every
    /// node that loads it, not long before the last write for a board that rested since. Throws, naming the
    /// key, for a tick outside what a state may hold.
    init(restoring state: BoardState, fps: Int, spec: BoardSpec) throws(BoardStateError) {
        func moved(_ tick: Int64, _ key: String) throws(BoardStateError) -> Int64 {
            guard (0...BoardState.maximumInteger).contains(tick) else {
                throw BoardStateError(key: key, message: "must be a tick from 0 to \(BoardState.maximumInteger), got \(tick)")
            }
            return state.fps == fps ? tick : Int64((Double(tick) * Double(fps) / Double(state.fps)).rounded())
        }
        let ids = Set(spec.rings.map(\.id))
        guard let written = state.written else {
            let epoch = try moved(state.epoch, "epoch")
            self.init(
                board: epoch, rings: Dictionary(uniqueKeysWithValues: state.rings.keys.filter(ids.contains).map { ($0, epoch) }))
            return
        }
        var rings: [String: Int64] = [:]
        for (id, tick) in written.rings.sorted(by: { $0.key < $1.key }) {
            let tick = try moved(tick, "written.rings.\(id)")
            if ids.contains(id) { rings[id] = tick }
        }
        let board = try written.board.map { tick throws(BoardStateError) in try moved(tick, "written.board") }
        self.init(board: board, rings: rings)
    }
}
