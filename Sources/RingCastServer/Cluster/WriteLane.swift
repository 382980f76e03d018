/// The order of one board's writes on one cluster node (docs/CLUSTER.md, "Writes in a row"): which write is computed
/// next, on what, and what a write's answer from Redis means for the ones sent after it. Pure: the node (`ClusterNode`)
/// holds the writes themselves, by ticket, and carries out what this decides.
///
/// A node sends a board's writes to Redis one after another without waiting for each answer: the next is computed on
/// the board as the writes in Redis's hands will leave it (`Basis.projection`) and names the newest of them
/// (`BoardWrite.after`), so the script applies it only on top of that one. The worker sends the writes waiting
/// together, so Redis runs and fsyncs them as one. When one does not land (another node's write got in first, a
/// rate limit, Redis failed), the ones after it cannot either: the lane is `broken`, nothing more is computed on it,
/// and once every write sent is answered the writes to compute again go first, on the board as it is then.
///
/// Invariants (`WriteLaneTests` checks them after every event of a seeded random run):
/// - at most one write is computed at a time, and none while writes to compute again wait;
/// - a write is computed on a projection only when every write sent before it is still expected to land;
/// - writes are started in the order they came, retries before them and in that order too, so a board gets this
///   node's writes in the order they came;
/// - at most `depth` writes are in Redis's hands.
struct WriteLane<Projection> {
    /// A write the lane holds, as the node knows it.
    typealias Ticket = Int

    /// What a write is computed on when it is not the board as the node holds it.
    struct Basis {
        /// The write it follows, in Redis's hands when it was started.
        var after: String
        /// The board as that write leaves it.
        var projection: Projection
    }

    /// A write in Redis's hands.
    struct Sent {
        var id: String
        /// What a later write may be computed on (nil: a write nothing is computed on before it is answered, such as a
        /// board created or deleted).
        var projection: Projection?
    }

    /// What the node does next.
    enum Step: Equatable {
        /// Compute the write that came as `ticket` (its first time).
        case start(Ticket)
        /// Compute `ticket` again (after a conflict), on the board as the node holds it.
        case again(Ticket)
    }

    /// The most writes of the board in Redis's hands at once.
    let depth: Int
    /// Writes not yet started, in the order they came, and whether each may be computed on writes still in Redis's
    /// hands (a write with a precondition may not: it is checked against the board the node holds).
    private(set) var waiting: [(ticket: Ticket, chainable: Bool)] = []
    /// The write being computed, and what on.
    private(set) var computing: (ticket: Ticket, basis: Basis?)?
    /// The writes in Redis's hands, oldest first.
    private(set) var sent: [Sent] = []
    /// A write sent did not land: none sent after it can.
    private(set) var broken = false
    /// Writes to compute again once every write sent is answered, in the order they came.
    private(set) var retries: [Ticket] = []

    init(depth: Int) {
        precondition(depth >= 1)
        self.depth = depth
    }

    /// Nothing waits, is computed or is in Redis's hands: the lane can go.
    var isIdle: Bool { waiting.isEmpty && computing == nil && sent.isEmpty && retries.isEmpty }

    /// What the write being computed is computed on: nil for the board as the node holds it.
    var basis: Basis? { computing?.basis }

    // MARK: - Events

    /// A write came.
    mutating func enqueue(_ ticket: Ticket, chainable: Bool) {
        waiting.append((ticket, chainable))
    }

    /// The next write to compute, if one may be computed now; it is then `computing` until `sent` or `finished`.
    mutating func next() -> Step? {
        guard computing == nil else { return nil }
        if !retries.isEmpty {
            guard sent.isEmpty else { return nil }
            let ticket = retries.removeFirst()
            computing = (ticket, nil)
            return .again(ticket)
        }
        guard let first = waiting.first else { return nil }
        let basis: Basis?
        if let last = sent.last {
            guard first.chainable, !broken, sent.count < depth, let projection = last.projection else { return nil }
            basis = Basis(after: last.id, projection: projection)
        } else {
            basis = nil
        }
        waiting.removeFirst()
        computing = (first.ticket, basis)
        return .start(first.ticket)
    }

    /// The write being computed was sent to Redis as `id`; `projection`, what a later write may be computed on.
    mutating func sent(_ ticket: Ticket, id: String, projection: Projection?) {
        guard computing?.ticket == ticket else { return }
        computing = nil
        sent.append(Sent(id: id, projection: projection))
    }

    /// The write being computed is done without being sent (answered at once), or waits for something else (caught
    /// up) before it is computed again.
    mutating func finished(_ ticket: Ticket) {
        if computing?.ticket == ticket { computing = nil }
    }

    /// Redis answered the oldest write sent, `id`: it `landed` or not. Returns whether every write sent before it
    /// landed (false: it was sent after one that did not, so its conflict says nothing about the board).
    mutating func answered(_ id: String, landed: Bool) -> Bool {
        guard let index = sent.firstIndex(where: { $0.id == id }) else { return !broken }
        let followedLanded = !broken
        sent.remove(at: index)
        if !landed { broken = true }
        if sent.isEmpty { broken = false }
        return followedLanded
    }

    /// `ticket` is to be computed again, once every write sent is answered: before the writes that came after it
    /// (tickets ascend in the order the writes came), so this node's writes to a board land in that order.
    mutating func again(_ ticket: Ticket) {
        if computing?.ticket == ticket { computing = nil }
        retries.insert(ticket, at: retries.firstIndex { $0 > ticket } ?? retries.endIndex)
    }
}
