import RingCastCore
import RingCastStorage

extension PreparedWrite {
    /// What the write leaves in its board's rings' history (issue 33): a change's points and removed rings, a new
    /// board's first targets, every ring of a deleted board. Asked before the write is applied.
    var history: ChangeHistory {
        switch kind {
        case .change(let board, let change, let after):
            ChangeHistory.of(change, from: board.animator.projected, to: after.projected)
        case .create(_, let animator, _):
            ChangeHistory.created(animator.projected)
        case .delete(let board):
            ChangeHistory(removed: board.spec.rings.map(\.id))
        }
    }

    /// The board's spec once the write applied; nil for a deletion.
    var spec: BoardSpec? {
        switch kind {
        case .change(_, _, let after): after.spec
        case .create(_, let animator, _): animator.spec
        case .delete: nil
        }
    }
}

extension StoredHistory {
    /// `history` as the store keeps it, for the write that made `revision`, starting at `tick` on a grid of `fps`: a
    /// status by its API name.
    init(_ history: ChangeHistory, revision: Int64, tick: Int64, fps: Int, bound: HistoryBound) {
        let milliseconds = StoredHistory.milliseconds(tick: tick, fps: fps)
        self.init(
            points: history.points.map {
                Point(
                    ring: $0.ring, milliseconds: milliseconds, revision: revision, value: $0.value,
                    status: $0.status?.rawValue)
            },
            removedRings: history.removed, bound: bound)
    }
}

extension HistoryBound {
    init(_ retention: HistoryRetention) {
        self.init(seconds: Int64(retention.seconds), points: Int64(retention.points))
    }
}
