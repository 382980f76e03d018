import Logging
import RingCastCore

/// Every configured board, by name, restored from the store; and the ETags they carry.
/// Touched only on the service thread (after `init`, which runs before the loop starts).
final class Boards {
    let all: [LiveBoard]
    private let byName: [String: LiveBoard]
    private let fps: Int
    private let logger: Logger
    /// Random per server run; part of every ETag.
    private let etagNonce: String

    init(specs: [BoardSpec], stored: [String: BoardState], fps: Int, tick: Int64, logger: Logger) {
        self.fps = fps
        self.logger = logger
        let nonce = String(UInt32.random(in: .min ... .max), radix: 36)
        self.etagNonce = nonce
        all = specs.map { spec in
            let animator = Self.animator(for: spec, stored: stored[spec.name], fps: fps, tick: tick, logger: logger)
            return LiveBoard(animator: animator, etag: Self.etag(revision: Int64(animator.revision), nonce: nonce))
        }
        byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
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
        board.animator = Self.animator(for: board.spec, stored: board.durable, fps: fps, tick: tick, logger: logger)
        board.animator.raiseRevision(to: handedOut)
        board.etag = etag(revision: board.durable.revision)
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

    private static func etag(revision: Int64, nonce: String) -> String {
        "\"\(revision)-\(nonce)\""
    }
}

@available(*, unavailable)
extension Boards: Sendable {}
