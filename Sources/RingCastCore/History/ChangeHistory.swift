/// What one accepted change leaves in its board's history (issue 33): a point for each ring it gave a target, and
/// the rings it removed, whose history goes with them. A pure function of the board before and after the change and
/// the change itself, so the node that accepts a write and a start that replays it find the same points.
public struct ChangeHistory: Sendable, Equatable {
    /// One ring's new point: its target (progress from 0 to 1, a counter's number) and status after the change.
    public struct Point: Sendable, Hashable {
        public var ring: String
        public var value: Double
        public var status: RingStatus?

        public init(ring: String, value: Double, status: RingStatus? = nil) {
            self.ring = ring
            self.value = value
            self.status = status
        }
    }

    /// In the order of the board's rings after the change.
    public var points: [Point] = []
    /// Rings the board had before and not after (deleted, or the board reshaped without them), or had as another kind
    /// (a plain ring that became a counter: its progress is not the counter's history), in the order they had.
    public var removed: [String] = []

    public init(points: [Point] = [], removed: [String] = []) {
        self.points = points
        self.removed = removed
    }

    public var isEmpty: Bool { points.isEmpty && removed.isEmpty }

    /// The history `change` leaves, turning `before` into `after` (each a board with every accepted change applied:
    /// `Animator.projected`). A ring that keeps history (`RingKind.keepsHistory`) and has a target gets a point when
    /// its target or status changed, or when the change set its progress or value (the same number pushed again is a
    /// sample too: the estimate of its rate reads it as no progress); a derived ring when its target changed.
    public static func of(_ change: Animator.Change, from before: Board, to after: Board) -> ChangeHistory {
        var history = ChangeHistory()
        let pushed = pushedRings(of: change)
        for ring in after.spec.rings where ring.kind.keepsHistory {
            guard let value = after.target(ofRing: ring.id) else { continue }
            let status = after.status(ofRing: ring.id)
            let existed = before.spec.ring(withID: ring.id)?.kind.tag == ring.kind.tag
            let changed =
                !existed || before.target(ofRing: ring.id) != value || before.status(ofRing: ring.id) != status
            if changed || pushed.contains(ring.id) {
                history.points.append(Point(ring: ring.id, value: value, status: status))
            }
        }
        history.removed = before.spec.rings.filter { after.spec.ring(withID: $0.id)?.kind.tag != $0.kind.tag }.map(\.id)
        return history
    }

    /// The history a new board (`after`) starts with: a point for each ring that has a target.
    public static func created(_ after: Board) -> ChangeHistory {
        ChangeHistory(
            points: after.spec.rings.compactMap { ring in
                guard ring.kind.keepsHistory, let value = after.target(ofRing: ring.id) else { return nil }
                return Point(ring: ring.id, value: value, status: after.status(ofRing: ring.id))
            })
    }

    /// The rings whose progress or value `change` sets.
    private static func pushedRings(of change: Animator.Change) -> Set<String> {
        switch change {
        case .ring(let id, let update): update.setsTarget ? [id] : []
        case .patch(let patch): Set(patch.rings.filter { $0.value.setsTarget }.keys)
        case .grow(_, let then): pushedRings(of: then)
        case .background, .startCountdown, .cancelCountdown, .restructure: []
        }
    }
}

extension RingPatch {
    /// Whether it sets a target: a progress or a value.
    var setsTarget: Bool { progress != nil || value != nil }
}
