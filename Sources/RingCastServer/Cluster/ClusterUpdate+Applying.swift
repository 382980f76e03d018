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
