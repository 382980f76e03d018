import Logging
import RingCastCore
import RingCastStorage

/// Every board the server serves, by name: the configured ones restored from the store, then the
/// ones created through the API; and the ETags they carry. A board created, reshaped or deleted
/// through the API stays so across restarts and reloads, whatever the configuration says
/// (docs/CONFIGURATION.md).
/// Touched only on the service thread (after `init`, which runs before the loop starts).
final class Boards {
    private(set) var all: [LiveBoard]
    private var byName: [String: LiveBoard]
    /// Boards a reload removed, kept as they were (with writes still being stored) in case a later
    /// reload brings them back; their stored state is never touched.
    private var retired: [String: LiveBoard] = [:]
    /// Boards deleted through the API, with their last revision (so a board created again under the
    /// name never repeats an ETag).
    private(set) var deleted: [String: Int64] = [:]
    /// `limits.maxBoards` and `limits.maxRingsPerBoard`.
    var maximumBoards: Int
    var maximumRings: Int
    /// `webhookHosts`: the hosts a countdown ring's webhook may name; empty: any.
    var webhookHosts: [String] = []
    /// `autoCreate`'s template: writes to rings and boards that do not exist create them; nil: 404.
    var autoCreate: BoardTemplate?
    /// `defaultBoard`: the board the page at `/` shows, which `GET /api/v1/boards` names.
    var defaultBoard = "main"
    /// The boards the configuration defines (served or not), by name: deleting one through the API removes it for
    /// good, so `GET /api/v1/boards` marks them `"configured":true` and the CLI asks for `--force` first; reshaping
    /// one (a ring added or deleted, the board replaced) needs `?force=true` (`checkReshape`), and
    /// `DELETE …/boards/{board}/shape` gives it this spec again (issue 34).
    private(set) var configuredSpecs: [String: BoardSpec]

    /// The names of `configuredSpecs`.
    var configuredNames: Set<String> { Set(configuredSpecs.keys) }
    private let fps: Int
    private let logger: Logger
    /// Random per server run, or the cluster's id in cluster mode; part of every ETag.
    private(set) var etagNonce: String

    init(
        specs: [BoardSpec], stored: [String: BoardState], fps: Int, tick: Int64, logger: Logger,
        maximumBoards: Int = 100, maximumRings: Int = 24, etagNonce: String? = nil
    ) {
        self.fps = fps
        self.logger = logger
        self.maximumBoards = maximumBoards
        self.maximumRings = maximumRings
        let nonce = etagNonce ?? String(UInt32.random(in: .min ... .max), radix: 36)
        self.etagNonce = nonce
        var boards: [LiveBoard] = []
        configuredSpecs = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        let configured = Set(configuredSpecs.keys)
        for (name, state) in stored where state.deleted == true {
            deleted[name] = state.revision
            if configured.contains(name) {
                logger.notice("board \(name) was deleted through the API; not serving its configured version")
            }
        }
        for spec in specs where deleted[spec.name] == nil {
            let animator = Self.animator(for: spec, stored: stored[spec.name], fps: fps, tick: tick, logger: logger)
            if animator.projected.isShapedByAPI && animator.projected.spec != spec {
                logger.notice(
                    """
                    board \(spec.name) was reshaped through the API; serving that instead of its configuration \
                    (ringcast board reset \(spec.name), or DELETE /api/v1/boards/\(spec.name)/shape, brings it back)
                    """)
            }
            boards.append(LiveBoard(animator: animator, etag: Self.etag(revision: Int64(animator.revision), nonce: nonce)))
        }
        // Boards created through the API, by name.
        for (name, state) in stored.sorted(by: { $0.key < $1.key })
        where !configured.contains(name) && state.deleted != true {
            guard let spec = state.spec else { continue }
            let animator = Self.animator(for: spec, stored: state, fps: fps, tick: tick, logger: logger)
            boards.append(LiveBoard(animator: animator, etag: Self.etag(revision: Int64(animator.revision), nonce: nonce)))
        }
        all = boards
        byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    }

    // MARK: - Created and deleted through the API

    /// Whether `board` is what the configuration makes of it: never reshaped through the API, or given its
    /// configured spec again (`DELETE …/shape`, which stores the spec as any reshape does). A reload applies to it.
    func followsConfiguration(_ board: LiveBoard) -> Bool {
        !board.animator.projected.isShapedByAPI || board.animator.projected.spec == configuredSpecs[board.name]
    }

    /// Throws 409 `conflict` when `board` is one the configuration defines and the request does not say `force`:
    /// `doing` (a ring added, deleted, the board replaced) would reshape it until it is reset, and it would no longer
    /// follow the configuration (issue 34: a configured board's shape changes only on purpose).
    func checkReshape(of board: LiveBoard, _ request: RouteRequest, doing: String) throws(APIError) {
        guard configuredSpecs[board.name] != nil else { return }
        // A create-only write (`If-None-Match: *`) of a board that exists is 412, whatever it would do.
        guard try !Pipeline.createOnly(request.http) else { return }
        guard try QueryFlag.value(of: "force", in: request.http.query) != true else { return }
        throw .conflict(
            "board \(board.name) is defined by the server's configuration: \(doing) reshapes it, and it no longer "
                + "follows the configuration until DELETE /api/v1/boards/\(board.name)/shape (ringcast board reset "
                + "\(board.name)) gives it its configured shape again; add ?force=true (ringcast: --force) to do it",
            field: "force")
    }

    /// Throws 422 `limit_exceeded` when `maximumBoards` are served.
    func checkRoom() throws(APIError) {
        guard all.count < maximumBoards else {
            throw .limitExceeded(
                "this server holds at most \(maximumBoards) boards (limits.maxBoards); delete one first", field: "board")
        }
    }

    /// The last revision of a board that had the name `name` and is gone (deleted or removed by a reload), else
    /// 0: a board created under the name goes on from it, so an old ETag never names the new board.
    func previousRevision(of name: String) -> Int64 {
        max(deleted[name] ?? 0, Int64(retired[name]?.animator.revision ?? 0))
    }

    /// Serves a board another cluster node created (or whose state Redis holds) from now on, at `revision`.
    func adopt(animator: Animator, revision: Int64) -> LiveBoard {
        let board = LiveBoard(animator: animator, etag: etag(revision: revision))
        deleted[board.name] = nil
        retired[board.name] = nil
        if let existing = byName[board.name] { discard(existing) }
        all.append(board)
        byName[board.name] = board
        return board
    }

    /// Stops serving the board named `name`, if it is served, deleted at `revision` through another cluster
    /// node.
    func markDeleted(_ name: String, revision: Int64) {
        if let board = byName[name] { discard(board) }
        deleted[name] = revision
    }

    /// Forgets that a board named `name` was deleted (Redis no longer has its tombstone).
    func forget(_ name: String) {
        deleted[name] = nil
    }

    /// Stops serving `board`, deleted through the API; returns the revision its tombstone takes.
    func delete(_ board: LiveBoard) -> Int64 {
        discard(board)
        let revision = Int64(board.animator.revision) + 1
        deleted[board.name] = revision
        return revision
    }

    /// Stops serving `board`, whose creation the store refused.
    func discard(_ board: LiveBoard) {
        all.removeAll { $0 === board }
        byName[board.name] = nil
    }

    /// Serves `board` again at its durable state, after the store refused its deletion.
    func reinstate(_ board: LiveBoard, tick: Int64) {
        deleted[board.name] = nil
        revert(board, tick: tick)
        all.append(board)
        byName[board.name] = board
    }

    /// The board named `name`, or 404 `not_found` naming it.
    func board(named name: String) throws(APIError) -> LiveBoard {
        guard let board = byName[name] else {
            throw APIError.notFound("no board named \"\(name)\"", field: "board")
        }
        return board
    }

    /// The board named `name`, if there is one.
    subscript(name: String) -> LiveBoard? { byName[name] }

    /// Makes every ETag carry `nonce` from now on (cluster mode: Redis lost its data and the cluster
    /// has a new id), so that no tag of the lost data names a state of the new.
    func changeETagNonce(to nonce: String) {
        etagNonce = nonce
        for board in all {
            board.etag = etag(revision: Int64(board.animator.revision))
        }
    }

    /// The ETag of a board at `revision`: the revision and this server run's nonce. Revisions are
    /// never reused within a run (a revert skips the lost ones); the nonce keeps a tag of a write
    /// that was lost in a crash from naming another state after the restart.
    func etag(revision: Int64) -> String {
        Self.etag(revision: revision, nonce: etagNonce)
    }

    /// `board` back at its durable state, continued at `tick`; the revisions handed out since are
    /// never used again for other states.
    func revert(_ board: LiveBoard, tick: Int64) {
        let handedOut = board.animator.revision
        let durable = board.durable.state
        board.animator = Self.animator(for: board.configured, stored: durable, fps: fps, tick: tick, logger: logger)
        board.animator.raiseRevision(to: handedOut)
        board.etag = etag(revision: durable.revision)
    }

    /// The board's stored state, continued on the grid; a fresh board if none was stored. States
    /// are checked when loaded, so one that fails here was stored for another spec.
    private static func animator(for spec: BoardSpec, stored: BoardState?, fps: Int, tick: Int64, logger: Logger) -> Animator {
        guard let stored else { return Animator(spec: spec, fps: fps, tick: tick) }
        do {
            let animator = try Animator(spec: spec, fps: fps, state: stored)
            if !animator.skipped.isEmpty {
                logger.warning("ignoring stored values board \(spec.name) no longer takes: \(animator.skipped)")
            }
            return animator
        } catch {
            logger.error("cannot restore board \(spec.name) (\(error)); starting it empty")
            return Animator(spec: spec, fps: fps, tick: tick)
        }
    }

    /// Serves `specs` from now on (a reload): a new board starts from its stored state (`stored`,
    /// by board) or empty; a removed one stops being served; one whose spec changed continues from
    /// its current state under the new spec, as after a restart, dropping values the spec no
    /// longer takes. Throws, changing nothing, when a state does not fit its new spec.
    func reconfigure(_ specs: [BoardSpec], stored: [String: StoredRecord], tick: Int64, source: String) throws -> BoardChanges {
        // First everything that can fail, so a refused reload changes nothing.
        let configured = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        var animators: [String: Animator] = [:]
        var skipped: [String: [String]] = [:]
        // Boards shaped or deleted through the API keep what the API made of them.
        let specs = specs.filter { spec in
            deleted[spec.name] == nil && byName[spec.name].map(followsConfiguration) != false
        }
        for spec in specs {
            if let board = byName[spec.name] ?? retired[spec.name] {
                guard board.spec != spec else { continue }
                var animator: Animator
                // A board given its configured shape again (`DELETE …/shape`) stores that spec as its own; it takes
                // the configuration's new one instead.
                var state = board.animator.state
                state.spec = nil
                do {
                    animator = try Animator(spec: spec, fps: fps, state: state)
                } catch {
                    throw StartupError("\(source): board \(spec.name): key \(error.key) \(error.message)")
                }
                animator.raiseRevision(to: board.animator.revision)
                animators[spec.name] = animator
                skipped[spec.name] = animator.skipped
            } else if let record = stored[spec.name] {
                let state = try StateCodec.decode(record.state, for: spec, fps: fps, source: "\(source): board \(spec.name)")
                let animator = try Animator(spec: spec, fps: fps, state: state)
                animators[spec.name] = animator
                skipped[spec.name] = animator.skipped
            } else {
                animators[spec.name] = Animator(spec: spec, fps: fps, tick: tick)
            }
        }
        var changes = BoardChanges()
        var next: [LiveBoard] = []
        for spec in specs {
            if let values = skipped[spec.name], !values.isEmpty {
                logger.warning("ignoring values board \(spec.name) no longer takes: \(values)")
            }
            if let board = byName[spec.name] {
                if let animator = animators[spec.name] {
                    board.animator = animator
                    board.configured = spec
                    changes.changed.append(board)
                }
                next.append(board)
            } else if let board = retired.removeValue(forKey: spec.name) {
                if let animator = animators[spec.name] {
                    board.animator = animator
                    board.configured = spec
                }
                changes.added.append(board)
                next.append(board)
            } else if let animator = animators[spec.name] {
                let board = LiveBoard(animator: animator, etag: etag(revision: Int64(animator.revision)))
                changes.added.append(board)
                next.append(board)
            }
        }
        let names = Set(specs.map(\.name))
        for board in all where !names.contains(board.name) && followsConfiguration(board) {
            retired[board.name] = board
            changes.removed.append(board)
        }
        for board in all where !followsConfiguration(board) && !next.contains(where: { $0 === board }) {
            next.append(board)
        }
        all = next
        byName = Dictionary(uniqueKeysWithValues: next.map { ($0.name, $0) })
        configuredSpecs = configured
        return changes
    }

    private static func etag(revision: Int64, nonce: String) -> String {
        "\"\(revision)-\(nonce)\""
    }
}

@available(*, unavailable)
extension Boards: Sendable {}

/// What a reload did to the boards.
struct BoardChanges {
    var added: [LiveBoard] = []
    var removed: [LiveBoard] = []
    /// Boards still served whose spec changed.
    var changed: [LiveBoard] = []
}

@available(*, unavailable)
extension BoardChanges: Sendable {}
