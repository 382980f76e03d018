import Foundation
import RingCastCluster
import RingCastCore

extension ClusterUpdate {
    /// What applying one update from Redis to a board's animator gives (`applying(_:to:fps:now:)`).
    enum Applying {
        /// The board's animator with the change queued at its start tick.
        case changed(ClusterUpdate, Animator)
        /// The update creates the board: its animator, built exactly as the accepting node built it.
        case created(ClusterUpdate, BoardSpec, Animator)
        /// The update deletes the board.
        case deleted
        /// Its start tick is one the animator already applied or composed: nothing changed.
        case late(appliedThrough: Int64)
        /// This node cannot apply it: why. Nothing changed.
        case refused(String)
    }

    /// Applies `update` (as Redis keeps it) to `animator` (nil: the node has no such board), the grid being at
    /// `now`: the one way every node, and the cluster model test, turns an update into a board. Pure.
    static func applying(_ update: BoardUpdate, to animator: Animator?, fps: Int, now: Int64) -> Applying {
        let decoded: ClusterUpdate
        do {
            decoded = try JSONDecoder().decode(ClusterUpdate.self, from: Data(update.update))
        } catch {
            return .refused("it cannot be read: \(error)")
        }
        if case .delete = decoded.change { return .deleted }
        let change: Animator.Change
        do {
            change = try decoded.change.decoded()
        } catch {
            return .refused("\(error)")
        }
        guard var animator else {
            let (spec, then): (BoardSpec, Animator.Change?)
            switch change {
            case .restructure(let created): (spec, then) = (created, nil)
            case .grow(let created, let write): (spec, then) = (created, write)
            default: return .refused("this node has no such board")
            }
            do {
                return .created(
                    decoded, spec,
                    try Animator.created(spec: spec, fps: fps, base: update.base, startTick: decoded.startTick, then: then))
            } catch {
                return .refused("\(error)")
            }
        }
        do {
            switch try animator.accept(change, exactlyAt: decoded.startTick, now: now) {
            case .accepted: return .changed(decoded, animator)
            case .late(let appliedThrough): return .late(appliedThrough: appliedThrough)
            }
        } catch {
            return .refused("it does not fit this node's board: \(error)")
        }
    }

    /// The digest of `animator`'s settled state as the stream and the channel carry it; throws for a state that
    /// cannot be encoded (`ClusterUpdate.digest(of:)`).
    static func digestBytes(of animator: Animator) throws(EncodingFailure) -> [UInt8] {
        ClusterAnswer.digestBytes(try digest(of: animator.settledState))
    }
}

extension ClusterUpdate {
    /// What one update `.apply` asked for comes to on a board holding revision `held` (`animator` nil: the node has
    /// no such board): the board's new animator with the digest of its settled state, or why nothing changed, as
    /// `ClusterSync.applied` takes it. Every decision of applying is here, for the node and the cluster model test
    /// alike; the caller only stores the result and tells viewers. Pure.
    enum Outcome {
        case changed(ClusterUpdate, Animator, digest: [UInt8])
        case created(ClusterUpdate, BoardSpec, Animator, digest: [UInt8])
        case deleted
        case unchanged(ClusterSync.Applied)

        /// What `ClusterSync.applied` is told.
        var applied: ClusterSync.Applied {
            switch self {
            case .changed(_, _, let digest), .created(_, _, _, let digest): .applied(digest: digest)
            case .deleted: .applied(digest: nil)
            case .unchanged(let result): result
            }
        }
    }

    /// What applying `update` on a board at revision `held` comes to (`Outcome`). `digested`: the node applies a write
    /// it accepted itself, whose digest it took of the very state applying makes (the same change on the same revision,
    /// computed by the same code): that digest, not taken again.
    static func outcome(
        of update: BoardUpdate, held: Int64, animator: Animator?, fps: Int, now: Int64, digested: Bool = false
    ) -> Outcome {
        guard held == update.base else {
            return .unchanged(.refused("it follows revision \(update.base), this node's board is at \(held)"))
        }
        let applying = applying(update, to: animator, fps: fps, now: now)
        // Digested before anything changes: a state with no digest is refused, not applied.
        func digest(of animator: Animator) throws(EncodingFailure) -> [UInt8] {
            digested ? update.digest : try digestBytes(of: animator)
        }
        do throws(EncodingFailure) {
            switch applying {
            case .changed(let decoded, let changed): return .changed(decoded, changed, digest: try digest(of: changed))
            case .created(let decoded, let spec, let created):
                return .created(decoded, spec, created, digest: try digest(of: created))
            case .deleted: return .deleted
            case .late(let appliedThrough): return .unchanged(.late(appliedThrough: appliedThrough))
            case .refused(let reason): return .unchanged(.refused(reason))
            }
        } catch {
            return .unchanged(.refused("its result cannot be digested: \(error)"))
        }
    }
}

/// The side of a node that carries out `ClusterSync`'s actions: the I/O (Redis jobs, boards, viewers, logs).
/// `perform` is the one loop that runs the actions in order and hands how an applied update went back to the
/// machine; `ClusterNode` and the cluster model test's nodes both run it, so the test copies no decision.
protocol ClusterSyncShell: AnyObject {
    var sync: ClusterSync { get set }
    /// Applies one update the machine found to follow the revision held (`ClusterUpdate.outcome`), at its start tick.
    func apply(_ update: BoardUpdate, toBoard name: String) -> ClusterSync.Applied
    /// Carries out any action but `.apply`.
    func carryOut(_ action: ClusterSync.Action)
}

extension ClusterSyncShell {
    /// Carries out what the state machine decided, in order; what applying reports goes back to it at once.
    func perform(_ actions: [ClusterSync.Action]) {
        for action in actions {
            if case .apply(let board, let update) = action {
                let result = apply(update, toBoard: board)
                perform(sync.applied(update, board: board, result))
            } else {
                carryOut(action)
            }
        }
    }
}

extension ClusterUpdate {
    /// Whether a snapshot of `animator` at the revision that started at `startTick` (nil: not known) may be taken by
    /// Redis only while that revision is the newest (`SnapshotScript`): once frames past its start were composed, the
    /// animations that ended by then are gone from the state, so it is good only for changes starting after them.
    static func snapshotMustBeNewest(_ animator: Animator?, startTick: Int64?) -> Bool {
        startTick.map { (animator?.composedThrough ?? .min) >= $0 } ?? true
    }

    /// A board as Redis holds it (`restoring`): its newest snapshot with the later changes replayed.
    struct Restored {
        enum Board {
            /// Served from now on.
            case served(Animator)
            /// Deleted (a tombstone, or a deletion replayed).
            case deleted
            /// Neither configured here nor created by a change: nothing to serve.
            case unconfigured
        }

        var board: Board
        /// The revision the board is at: the last change replayed, else the snapshot's.
        var revision: Int64
        /// Changes that did not apply here, each with why (this node cannot apply what another accepted: another
        /// build). The board goes on without them.
        var skipped: [String] = []
        /// The replayed board's digest disagrees with the one the last change's accepting node had, or cannot be taken.
        var mismatch: String?

        /// What went wrong, a line each, for the log.
        var problems: [String] {
            var lines: [String] = []
            if !skipped.isEmpty {
                lines.append(
                    "\(Counted(skipped.count, "change")) from Redis do not apply on this node and are left out: \(skipped.prefix(5).joined(separator: "; "))"
                )
            }
            if let mismatch { lines.append(mismatch) }
            return lines
        }
    }

    /// The board `snapshot` (at the revision it covers; empty for none: the board is then its configured spec, or
    /// nothing until a change creates it) makes once `updates` (the stream after it, in order) are replayed through
    /// the one way updates apply (`applying`), each at its own start tick however long ago that was: the state of a
    /// node that applied them as they came. Nothing is composed while replaying (`now` 0); the caller serves the
    /// result from now on. `tick` is where a board that starts from its configured spec begins when no change says.
    /// Throws what decoding the snapshot throws. Pure.
    static func restoring(
        _ snapshot: RingCastCluster.BoardSnapshot, updates: [BoardUpdate], configured: BoardSpec?, fps: Int, tick: Int64,
        source: String
    ) throws(StartupError) -> Restored {
        var animator: Animator?
        var deleted = false
        if snapshot.covers == 0 {
            // Before the first change (the board was at rest until then), so that its time starts there as on a node
            // that held it from the start.
            animator = configured.map { Animator(spec: $0, fps: fps, tick: (updates.first?.tick ?? tick) - 1) }
        } else {
            switch try StateCodec.decode(snapshot.snapshot, configured: configured, fps: fps, source: source) {
            case .deleted: deleted = true
            case .unconfigured: return Restored(board: .unconfigured, revision: snapshot.covers)
            case .served(_, let restored):
                animator = restored
                // The snapshot may have been taken between changes starting at one tick.
                animator?.reopenEpochTick()
            }
        }
        var restored = Restored(board: .unconfigured, revision: snapshot.covers)
        for update in updates where update.revision > snapshot.covers {
            switch applying(update, to: animator, fps: fps, now: 0) {
            case .changed(_, let changed): animator = changed
            case .created(_, _, let created): (animator, deleted) = (created, false)
            case .deleted: (animator, deleted) = (nil, true)
            case .late(let appliedThrough):
                restored.skipped.append(
                    "revision \(update.revision): it starts at tick \(update.tick), not after tick \(appliedThrough)")
            case .refused(let reason):
                restored.skipped.append("revision \(update.revision): \(reason)")
            }
            restored.revision = update.revision
        }
        if let animator {
            restored.board = .served(animator)
            if let last = updates.last, last.revision > snapshot.covers, restored.skipped.isEmpty {
                do throws(EncodingFailure) {
                    let digest = try digestBytes(of: animator)
                    if digest != last.digest {
                        restored.mismatch =
                            "state digest \(Hex.encode(digest)) after revision \(last.revision), the accepting node had \(Hex.encode(last.digest))"
                    }
                } catch {
                    restored.mismatch = "the state after revision \(last.revision) has no digest: \(error)"
                }
            }
        } else if deleted {
            restored.board = .deleted
        }
        return restored
    }
}
