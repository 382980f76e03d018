import RingCastCluster

/// How one cluster node keeps its boards in step with Redis (docs/CLUSTER.md, "Joining and catching up"), as a
/// state machine: every event (an update from the subscription or from a write's script, a reading of one board
/// or of all, an error, the subscription made or lost, the health check) is a `mutating func` that returns the
/// actions the node's shell (`ClusterNode`) carries out — apply this update, reload this board from this
/// snapshot, read this board, read every board, change the ETag nonce, log, count. Pure: no clock, no threads,
/// no I/O, no randomness; results of actions come back as further events.
///
/// The state is explicit: `connection` (the subscription and the reading of every board that follows it),
/// `health` (what the last command met in Redis) and one `BoardSync` per board, with the revision held.
struct ClusterSync {
    // MARK: - State

    /// The subscription, and whether this node has caught up since it was made.
    enum Connection: Equatable {
        /// No subscription (not yet, or it dropped): why.
        case unsubscribed(reason: String)
        /// Subscribed; every board is being read (`catalog`) before the node takes writes.
        case catchingUp
        /// Subscribed and caught up.
        case live
    }

    /// The reading of every board (at each subscription, after Redis lost data or went back in time).
    enum Catalog: Equatable {
        case idle
        /// A reading is under way, asked when the boards were at the revisions `from`. `reload`: take every board's
        /// snapshot whatever the revisions; `again`: read once more when this one is back (the subscription was made
        /// again meanwhile).
        case reading(from: [String: Int64], reload: Bool, again: Bool)
        /// The reading failed; made again by the next command that works.
        case failed(reload: Bool)
        /// Redis holds an older history than this node (`reason`): the cluster's id is being replaced, after which
        /// every board is reloaded, so that no ETag names two states.
        /// `asked`: a `.renewClusterID` is under way (else it is asked again by the next command that works).
        /// `replacing`: the id Redis holds, which the new one replaces.
        case renewing(reason: String, replacing: String, asked: Bool)
    }

    /// What the last command met in Redis.
    enum Health: Equatable {
        case answering
        /// No connection, a broken one, or Redis loading its data.
        case unreachable(String)
        /// Redis refuses writes (`OOM command not allowed …`): only a write that works clears it, not a PING.
        case outOfMemory(String)
        /// Redis is a read-only replica (`READONLY …`): only a write that works clears it.
        case readOnly(String)
        /// Another error reply to a command.
        case failing(String)

        init(_ error: RedisError) {
            switch error {
            case .server(let message) where message.contains("OOM"): self = .outOfMemory(message)
            case .server(let message) where message.contains("READONLY"): self = .readOnly(message)
            case .server(let message) where message.hasPrefix("LOADING"): self = .unreachable(message)
            case .server(let message), .unexpectedReply(let message): self = .failing(message)
            case .io, .connectFailed, .invalidEndpoint: self = .unreachable("\(error)")
            }
        }

        /// A problem only a working write clears.
        var refusesWrites: Bool {
            switch self {
            case .outOfMemory, .readOnly: true
            default: false
            }
        }
    }

    /// One board's place in the sync.
    enum BoardSync: Equatable {
        /// Following the subscription: each update whose base is the revision held is applied.
        case following
        /// One reading of the board (snapshot and stream) is under way, asked when the board was at revision `from`
        /// (a Redis older than that is behind this node; newer revisions may have come since). `reload` takes the
        /// snapshot even when the
        /// revisions agree (a late update, a digest mismatch); updates that arrive meanwhile and do not follow the
        /// revision held (all of them while reloading) wait in `arrived`; `again` reads once more when it is back.
        case reading(from: Int64, reload: Bool, again: Bool, arrived: [BoardUpdate])
        /// A reading failed: read again once a command works.
        case stale(reload: Bool)
    }

    struct Board: Equatable {
        /// The revision this node holds (0 for a board without state).
        var revision: Int64
        var sync: BoardSync = .following
        /// The digests of the newest revisions held, as the stream names them: a revision with another digest
        /// in Redis is another history.
        var digests: [Int64: [UInt8]] = [:]
    }

    /// What a `readBoard` or `readAll` action found in Redis for one board.
    struct Reading: Sendable, Equatable {
        var snapshot: BoardSnapshot?
        /// The stream's entries from the revision that was held (inclusive), or from the first one the snapshot does not
        /// cover, in order (`RedisConnection.readBoard`).
        var updates: [BoardUpdate]
        /// The revision the reading was asked from; 0: the snapshot's entries in any case.
        var from: Int64 = 0
    }

    /// How the shell fared applying an `.apply` action to its board.
    enum Applied: Equatable {
        /// Applied at its start tick; `digest` of the board's settled state afterwards (nil: the board is deleted).
        case applied(digest: [UInt8]?)
        /// Its start tick was already applied or composed: nothing changed.
        case late(appliedThrough: Int64)
        /// This node cannot apply it (unreadable, refused by the board's checks): nothing changed.
        case refused(String)
    }

    /// Which commands a success proves work.
    enum Command: Equatable {
        /// A read, a PING, a script that changed nothing: Redis answers.
        case read
        /// A write went through: Redis takes writes.
        case write
    }

    enum Metric: Equatable {
        case updateReceived, catchUp, lateUpdate, digestMismatch
    }

    enum LogLevel: Equatable {
        case info, notice, warning, error
    }

    enum Action: Equatable {
        /// Apply `update` to `board` at its start tick (the board holds `update.base`), then report `applied`.
        case apply(board: String, update: BoardUpdate)
        /// Serve `board` from `snapshot` with `updates` (the ones after the revision it covers, in order) replayed onto
        /// it, from now on; viewers get a keyframe (and the layout if it changed).
        case restore(board: String, snapshot: BoardSnapshot, updates: [BoardUpdate])
        /// Redis has no state of `board`: a configured board starts again empty, any other goes.
        case forget(board: String)
        /// Read `board`'s snapshot and its stream from revision `from` on, then report `boardRead`.
        case readBoard(String, from: Int64)
        /// Read the cluster's id and every board (these, Redis's and the configured ones), each from the revision
        /// given (0 when not listed), then report `allRead`.
        case readAll(from: [String: Int64])
        /// Replace the cluster's id in Redis if it is still `replacing`, then report `clusterIDRenewed`.
        case renewClusterID(replacing: String)
        /// ETags carry `nonce` from now on.
        case changeNonce(String)
        /// PING, or a harmless write while Redis refuses writes; report `commandSucceeded` / `commandFailed`.
        case ping
        case probeWrite
        /// Run what waits for `board` to be caught up (a write after a conflict), or for every board.
        case boardCaughtUp(String)
        case everyBoardCaughtUp
        case count(Metric)
        case log(LogLevel, String)
        /// An event this machine cannot account for (an answer to nothing it asked): a bug in the node, not in
        /// Redis. Nothing changed. The node logs it as an error and carries on (a server must not crash on one);
        /// the cluster model test fails on it.
        case unexpected(String)
    }

    /// The requests asked (`.readBoard`, `.readAll`, `.renewClusterID`) and not yet answered: an answer is
    /// expected only while its request is out. An answer may still be stale (the state moved on meanwhile) and be
    /// ignored; an answer with no request out is `.unexpected`.
    struct Asked: Equatable {
        var boards: [String: Int] = [:]
        var all = 0
        var renewals = 0
    }

    // MARK: - Properties

    /// Redis's address, for the words of `problem` and the logs.
    let address: String
    private(set) var connection: Connection = .unsubscribed(reason: "not subscribed yet")
    private(set) var catalog: Catalog = .idle
    private(set) var health: Health = .answering
    private(set) var boards: [String: Board]
    /// The cluster's id, part of every ETag.
    private(set) var nonce: String
    /// Ids this node followed before `nonce`: Redis holding one again went back in time.
    private(set) var pastNonces: Set<String> = []
    /// The requests out (`Asked`).
    private(set) var asked = Asked()
    /// How many revisions' digests each board keeps.
    static let digestsKept = 64

    init(address: String, nonce: String, revisions: [String: Int64]) {
        self.address = address
        self.nonce = nonce
        boards = revisions.mapValues { Board(revision: $0) }
    }

    /// Follows `board` from `revision` on, unless it is followed already (a board a reload of the configuration
    /// added).
    mutating func track(_ board: String, revision: Int64) {
        if boards[board] == nil { boards[board] = Board(revision: revision) }
    }

    /// The revision held of `board` (0 for one never held).
    func revision(of board: String) -> Int64 { boards[board]?.revision ?? 0 }

    /// Why this node cannot take writes, or nil when it can: what `/readyz` says.
    var problem: String? {
        switch health {
        case .answering: break
        case .unreachable(let reason): return "Redis at \(address) is unreachable: \(reason)"
        case .outOfMemory(let reason): return "Redis at \(address) refuses writes: it is out of memory (\(reason))"
        case .readOnly(let reason): return "Redis at \(address) refuses writes: it is a read-only replica (\(reason))"
        case .failing(let reason): return "Redis at \(address) answers commands with an error: \(reason)"
        }
        if case .renewing(let reason, _, _) = catalog {
            return "Redis at \(address) holds an older history than this node (\(reason)); following it"
        }
        switch connection {
        case .unsubscribed(let reason): return "not subscribed to Redis at \(address): \(reason)"
        case .catchingUp: return "catching up with Redis at \(address)"
        case .live: return nil
        }
    }

    /// Whether `board` is followed and caught up: what this node shows of it is Redis's revision `revision(of:)`
    /// as every caught-up node shows it.
    func isCaughtUp(_ board: String) -> Bool {
        guard connection == .live, catalog == .idle, health == .answering else { return false }
        return (boards[board]?.sync ?? .following) == .following
    }

    // MARK: - The subscription

    mutating func subscribed() -> [Action] {
        connection = .catchingUp
        return [.log(.notice, "subscribed to Redis at \(address); catching up")] + readAll(reload: false)
    }

    mutating func subscriptionLost(_ reason: String) -> [Action] {
        var wasSubscribed = true
        if case .unsubscribed = connection { wasSubscribed = false }
        connection = .unsubscribed(reason: reason)
        return wasSubscribed ? [.log(.error, "the subscription to Redis at \(address) is down: \(reason)")] : []
    }

    /// Another node replaced the cluster's id (Redis went back in time): follow it.
    mutating func clusterIDAnnounced(_ id: String) -> [Action] {
        guard id != nonce else { return [] }
        return [.log(.warning, "the cluster's id in Redis at \(address) is now \(id); reloading every board")]
            + readAll(reload: true)
    }

    // MARK: - Updates

    /// An update from the subscription.
    mutating func received(_ update: BoardUpdate, board: String) -> [Action] {
        [.count(.updateReceived)] + deliver(update, board: board)
    }

    /// An update the subscription brought that cannot be read.
    mutating func receivedUnreadable(board: String, reason: String) -> [Action] {
        [.log(.error, "an update of board \(board) from Redis cannot be read (\(reason)); catching the board up")]
            + read(board, reload: false)
    }

    /// What this node's write script answered for `update`.
    mutating func scriptAnswered(_ outcome: WriteOutcome, update: BoardUpdate, board: String) -> [Action] {
        switch outcome {
        case .applied:
            return commandSucceeded(.write) + deliver(update, board: board)
        case .conflict(let current):
            var actions = commandSucceeded(.read)
            let held = revision(of: board)
            // The write was computed when this node held `update.base`; updates may have come since.
            if current < update.base {
                actions += behind("Redis holds revision \(current) of board \(board), this node held \(update.base)")
            } else if current > held {
                actions += read(board, reload: false)
            }
            return actions
        case .clusterChanged(let id):
            // Another node replaced the id (Redis went back in time), or Redis lost it: follow Redis.
            let actions = commandSucceeded(.read)
            guard id != nonce else { return actions }
            return actions
                + [
                    .log(
                        .warning,
                        "a write met the cluster id \(id.isEmpty ? "gone" : id) in Redis at \(address), not \(nonce); reloading every board"
                    )
                ]
                + readAll(reload: true)
        case .rateLimited, .replay, .keyReused, .preconditionFailed:
            return commandSucceeded(.read)
        }
    }

    /// Applies an update if it is the next one; an old one is checked against the history held; after a gap the
    /// board is read.
    private mutating func deliver(_ update: BoardUpdate, board name: String) -> [Action] {
        // Every board is reloaded once the cluster's id is replaced.
        if case .renewing = catalog { return [] }
        var board = boards[name] ?? Board(revision: 0)
        defer { boards[name] = board }
        switch board.sync {
        case .stale:
            // The next reading brings it.
            return []
        case .reading(let from, let reload, let again, var arrived):
            if !reload, update.base == board.revision {
                return apply(update, to: &board, name: name)
            }
            if !arrived.contains(update) { arrived.append(update) }
            board.sync = .reading(from: from, reload: reload, again: again, arrived: arrived)
            return []
        case .following:
            if update.revision <= board.revision {
                if let held = board.digests[update.revision], held != update.digest {
                    return behind("board \(name): Redis sent revision \(update.revision) unlike the one this node holds")
                }
                if update.base == 0, board.revision > 1, board.digests[update.revision] == nil {
                    // A history that starts again, or only a copy of revision 1 that the subscription delivered after a
                    // reading had gone past it (seen at a start under load, and taken for Redis going back in time):
                    // Redis's own revision and digests, read now, tell which.
                    board.sync = .reading(from: board.revision, reload: false, again: false, arrived: [])
                    return [
                        .log(
                            .notice,
                            "board \(name): Redis sent revision \(update.revision) starting from nothing, this node holds \(board.revision); reading the board"
                        ),
                        .count(.catchUp), askRead(name, from: board.revision),
                    ]
                }
                return []
            }
            if update.base == board.revision {
                return apply(update, to: &board, name: name)
            }
            board.sync = .reading(from: board.revision, reload: false, again: false, arrived: [update])
            return [
                .log(
                    .notice,
                    "board \(name): update \(update.revision) follows \(update.base), this node holds \(board.revision); catching up"
                ),
                .count(.catchUp), askRead(name, from: board.revision),
            ]
        }
    }

    private func apply(_ update: BoardUpdate, to board: inout Board, name: String) -> [Action] {
        board.revision = update.revision
        board.digests[update.revision] = update.digest
        board.digests[update.revision - Int64(Self.digestsKept)] = nil
        return [.apply(board: name, update: update)]
    }

    /// What applying an `.apply` action did.
    mutating func applied(_ update: BoardUpdate, board name: String, _ result: Applied) -> [Action] {
        // Several updates may be applied in a row: after one fails, the later ones fail too and are ignored here.
        guard var board = boards[name], board.revision >= update.revision else { return [] }
        switch result {
        case .applied(let digest):
            guard let digest, digest != update.digest else { return [] }
            return [
                .count(.digestMismatch),
                .log(
                    .error,
                    "board \(name): state digest \(Hex.encode(digest)) after revision \(update.revision), the accepting node had \(Hex.encode(update.digest)); reloading the board"
                ),
            ] + read(name, reload: true)
        case .late(let appliedThrough):
            board.revision = update.base
            board.digests = board.digests.filter { $0.key <= update.base }
            boards[name] = board
            return [
                .count(.lateUpdate),
                .log(
                    .warning,
                    "board \(name): update \(update.revision) starts at tick \(update.tick), already sent here (through \(appliedThrough)); reloading the board"
                ),
            ] + read(name, reload: true)
        case .refused(let reason):
            board.revision = update.base
            board.digests = board.digests.filter { $0.key <= update.base }
            boards[name] = board
            return [
                .log(.error, "board \(name): update \(update.revision) is refused by this node (\(reason)); reloading the board")
            ]
                + read(name, reload: true)
        }
    }

    // MARK: - Catching up

    /// Something waits for `board` to be caught up (a write that met a conflict): `.boardCaughtUp` comes once it is.
    mutating func catchUpRequested(_ board: String) -> [Action] {
        switch catalog {
        // Every board is read: it waits for that reading.
        case .reading: return []
        // Writes are refused until every board is reloaded under a new id: what waits learns it at once.
        case .renewing: return [.boardCaughtUp(board)]
        case .idle, .failed: break
        }
        if case .reading = boards[board]?.sync { return [] }
        return read(board, reload: false)
    }

    /// Reads `board` (again, if a reading is under way: what it brings may predate what asks now).
    private mutating func read(_ name: String, reload: Bool) -> [Action] {
        var board = boards[name] ?? Board(revision: 0)
        defer { boards[name] = board }
        switch board.sync {
        case .reading(let from, let wasReload, _, let arrived):
            board.sync = .reading(from: from, reload: wasReload || reload, again: true, arrived: arrived)
            return []
        case .stale(let wasReload):
            board.sync = .reading(from: board.revision, reload: wasReload || reload, again: false, arrived: [])
        case .following:
            board.sync = .reading(from: board.revision, reload: reload, again: false, arrived: [])
        }
        // A reload takes the snapshot and every entry after it (`from` 0); a catch-up the entries after what is held.
        return [.count(.catchUp), askRead(name, from: reload ? 0 : board.revision)]
    }

    /// What a `.readBoard` found.
    mutating func boardRead(_ name: String, _ reading: Reading) -> [Action] {
        guard answered(board: name) else { return [.unexpected("a reading of board \(name) that was not asked for")] }
        guard var board = boards[name], case .reading(let from, let reload, let again, let arrived) = board.sync else {
            return []
        }
        var actions = commandSucceeded(.read)
        if case .renewing = catalog {
            // Every board is reloaded once the id is replaced.
            board.sync = .following
            boards[name] = board
            return actions
        }
        board.sync = .following
        boards[name] = board
        let settled = settle(name, reading, reload: reload, from: from)
        actions += settled
        if case .renewing = catalog { return actions }
        if again {
            let held = revision(of: name)
            boards[name]?.sync = .reading(from: held, reload: reload, again: false, arrived: arrived)
            return actions + [.count(.catchUp), askRead(name, from: reload ? 0 : held)]
        }
        let head = reading.snapshot?.revision ?? 0
        for update in arrived.sorted(by: { $0.revision < $1.revision }) {
            // An update newer than Redis's board that does not follow what is held, though Redis had nothing newer than
            // what was held when asked: Redis no longer has it (its history went back, or its data is gone), and
            // reading again would only find the same. It is dropped; were it real, the next update shows the gap.
            if update.base != revision(of: name), update.revision > head, head <= from {
                actions.append(
                    .log(
                        .notice,
                        "board \(name): update \(update.revision) is newer than Redis's revision \(head), which holds nothing newer than this node; ignoring it"
                    ))
                continue
            }
            actions += deliver(update, board: name)
        }
        return actions + [.boardCaughtUp(name)]
    }

    mutating func boardReadFailed(_ name: String, _ error: RedisError) -> [Action] {
        guard answered(board: name) else {
            return [.unexpected("a failed reading of board \(name) that was not asked for (\(error))")]
        }
        var actions = commandFailed(error)
        if case .reading(_, let reload, _, _) = boards[name]?.sync {
            boards[name]?.sync = .stale(reload: reload)
            actions.append(.boardCaughtUp(name))
        }
        return actions
    }

    /// Brings one board to what Redis holds: the stream after the revision held when it continues it, else the
    /// snapshot and the stream after it (`reload`: the snapshot in any case). A Redis behind this node (an older
    /// revision, or the held revision with another digest) starts the renewal of the cluster's id instead —
    /// unless the board follows a new id (`newID`), under which Redis's history is the only one.
    private mutating func settle(_ name: String, _ reading: Reading, reload: Bool, from: Int64, newID: Bool = false)
        -> [Action]
    {
        var board = boards[name] ?? Board(revision: 0)
        let held = board.revision
        guard let snapshot = reading.snapshot else {
            guard held > 0 else { return [] }
            boards[name] = Board(revision: 0, sync: board.sync)
            var actions: [Action] = [
                .log(
                    .warning,
                    "Redis at \(address) has no state of board \(name), which this node holds at revision \(held); following Redis"
                ),
                .forget(board: name),
            ]
            // The cluster's id went with the data, perhaps: read it, and every other board.
            if case .idle = catalog { actions += readAll(reload: false) }
            return actions
        }
        // Compared with what the node held when it asked: updates may have come since.
        if !newID {
            if snapshot.revision < from {
                return behind("Redis holds revision \(snapshot.revision) of board \(name), this node held \(from)")
            }
            if let entry = reading.updates.first(where: { $0.revision == from }), let digest = board.digests[from],
                entry.digest != digest
            {
                return behind("Redis's revision \(from) of board \(name) is not the one this node holds")
            }
        }
        let newer = reading.updates.filter { $0.revision > held }
        var actions: [Action] = []
        if !reload, let first = newer.first, first.base == held,
            zip(newer, newer.dropFirst()).allSatisfy({ $1.base == $0.revision })
        {
            for update in newer { actions += apply(update, to: &board, name: name) }
            boards[name] = board
            return actions
        }
        guard reload || snapshot.revision > held else { return [] }
        if reading.from > 0, snapshot.revision > snapshot.covers,
            !reading.updates.contains(where: { $0.revision == snapshot.covers + 1 })
        {
            // Read to continue what was held, it lacks the snapshot's first entry: read the snapshot's entries.
            return read(name, reload: true)
        }
        // The snapshot covers an older revision than Redis's newest, whose changes the stream holds after it (issue 32).
        var replayed: [BoardUpdate] = []
        var revision = snapshot.covers
        for update in reading.updates where update.revision > snapshot.covers {
            guard update.base == revision else { break }
            replayed.append(update)
            revision = update.revision
        }
        if revision < snapshot.revision {
            actions.append(
                .log(
                    .error,
                    "board \(name): Redis's stream lacks revision \(revision + 1) after its snapshot of revision \(snapshot.covers); serving revision \(revision)"
                ))
        }
        board.revision = revision
        board.digests = [:]
        if let entry = reading.updates.first(where: { $0.revision == snapshot.covers }) {
            board.digests[snapshot.covers] = entry.digest
        }
        for update in replayed.suffix(Self.digestsKept) { board.digests[update.revision] = update.digest }
        actions.append(.restore(board: name, snapshot: snapshot, updates: replayed))
        boards[name] = board
        return actions
    }

    /// Catches every board up (a reload of the configuration added boards, say).
    mutating func catchUpAll() -> [Action] { readAll(reload: false) }

    private mutating func readAll(reload: Bool) -> [Action] {
        switch catalog {
        case .reading(let from, let wasReload, _):
            catalog = .reading(from: from, reload: wasReload || reload, again: true)
            return []
        case .renewing:
            return []
        case .failed(let wasReload):
            catalog = .reading(from: boards.mapValues(\.revision), reload: wasReload || reload, again: false)
        case .idle:
            catalog = .reading(from: boards.mapValues(\.revision), reload: reload, again: false)
        }
        asked.all += 1
        // Every board is read from its snapshot (from 0), whatever the revision held: any of them may have to be restored
        // once the reading is back (a new cluster id reloads them all, before the node takes a write under it), and a
        // board left to be read again would take writes meanwhile on a revision that names another history.
        return [.count(.catchUp), .readAll(from: boards.mapValues { _ in 0 })]
    }

    /// What a `.readAll` found: the cluster's id and every board. A new id means Redis lost its data (or another
    /// node found it behind): every board is reloaded and ETags carry the new id.
    mutating func allRead(id: String, _ readings: [String: Reading]) -> [Action] {
        guard asked.all > 0 else { return [.unexpected("a reading of every board that was not asked for")] }
        asked.all -= 1
        guard case .reading(let from, var reload, let again) = catalog else { return [] }
        var actions = commandSucceeded(.read)
        if pastNonces.contains(id) {
            catalog = .idle
            return actions
                + behind("Redis holds the cluster id \(id), which this node left for \(nonce)", replacing: id)
                + [.everyBoardCaughtUp]
        }
        let newID = id != nonce
        if newID {
            actions += [
                .log(
                    .warning,
                    "the cluster's id in Redis at \(address) changed (its data was lost, or went back in time?); ETags now carry \(id)"
                ),
                .changeNonce(id),
            ]
            pastNonces.insert(nonce)
            nonce = id
            reload = true
        }
        catalog = .idle
        for (name, reading) in readings.sorted(by: { $0.key < $1.key }) {
            // A board whose own reading is under way keeps it (what it brings is as new or newer).
            if boards[name] == nil { boards[name] = Board(revision: 0) }
            actions += settle(name, reading, reload: reload, from: from[name] ?? 0, newID: newID)
            if case .renewing = catalog { return actions + [.everyBoardCaughtUp] }
        }
        if again {
            actions += readAll(reload: false)
        } else if connection == .catchingUp {
            connection = .live
            actions.append(.log(.notice, "caught up with Redis at \(address): \(Counted(readings.count, "board"))"))
        }
        return actions + [.everyBoardCaughtUp]
    }

    mutating func allReadFailed(_ error: RedisError) -> [Action] {
        guard asked.all > 0 else {
            return [.unexpected("a failed reading of every board that was not asked for (\(error))")]
        }
        asked.all -= 1
        var actions = commandFailed(error)
        if case .reading(_, let reload, _) = catalog {
            catalog = .failed(reload: reload)
        }
        actions.append(.everyBoardCaughtUp)
        return actions
    }

    // MARK: - Redis behind this node

    /// Redis holds an older history than this node (it restarted from an older AOF or snapshot, or a replica
    /// behind it was promoted): the revisions this node handed out ETags for will be reused for other states.
    /// Redis is the truth: the cluster's id is replaced (so that no ETag names two states), then every board is
    /// reloaded from Redis. Writes wait meanwhile (`problem`).
    private mutating func behind(_ reason: String, replacing: String? = nil) -> [Action] {
        if case .renewing = catalog { return [] }
        let replacing = replacing ?? nonce
        catalog = .renewing(reason: reason, replacing: replacing, asked: true)
        for (name, board) in boards {
            if case .reading = board.sync { boards[name]?.sync = .following }
        }
        return [
            .log(
                .warning, "\(reason): Redis at \(address) went back in time; replacing the cluster's id and reloading every board"
            ),
            askRenewal(replacing: replacing),
        ]
    }

    /// The cluster's id in Redis once `.renewClusterID` ran: read it, and every board from its snapshot.
    mutating func clusterIDRenewed(_ id: String) -> [Action] {
        guard asked.renewals > 0 else { return [.unexpected("a renewal of the cluster's id (\(id)) that was not asked for")] }
        asked.renewals -= 1
        guard case .renewing = catalog else { return [] }
        catalog = .idle
        return commandSucceeded(.write) + readAll(reload: true)
    }

    mutating func clusterIDRenewalFailed(_ error: RedisError) -> [Action] {
        guard asked.renewals > 0 else {
            return [.unexpected("a failed renewal of the cluster's id that was not asked for (\(error))")]
        }
        asked.renewals -= 1
        // Asked again by the next command that works.
        if case .renewing(let reason, let replacing, _) = catalog {
            catalog = .renewing(reason: reason, replacing: replacing, asked: false)
        }
        return commandFailed(error) + [.everyBoardCaughtUp]
    }

    // MARK: - Health

    /// Once a second: PING, or, while Redis refuses writes, a harmless write (a PING working proves nothing then).
    func healthCheckDue() -> Action {
        health.refusesWrites ? .probeWrite : .ping
    }

    /// A command worked. After a failure (Redis away, or refusing writes) whatever failed meanwhile is done again:
    /// every board is read, so nothing published while it was away is missed. A read or a PING does not clear a
    /// refusal of writes: only a write does.
    mutating func commandSucceeded(_ command: Command) -> [Action] {
        var actions: [Action] = []
        if health != .answering, command == .write || !health.refusesWrites {
            actions.append(.log(.notice, "Redis at \(address) answers again; catching up"))
            health = .answering
            if case .reading = catalog {} else { actions += readAll(reload: false) }
        }
        switch catalog {
        case .failed: actions += readAll(reload: false)
        case .renewing(let reason, let replacing, asked: false):
            catalog = .renewing(reason: reason, replacing: replacing, asked: true)
            actions.append(askRenewal(replacing: replacing))
        default: break
        }
        guard catalog == .idle else { return actions }
        for (name, board) in boards.sorted(by: { $0.key < $1.key }) {
            if case .stale(let reload) = board.sync { actions += read(name, reload: reload) }
        }
        return actions
    }

    /// A command failed: what it met decides `/readyz`'s words, until a command that proves otherwise works.
    mutating func commandFailed(_ error: RedisError) -> [Action] {
        let met = Health(error)
        let changed = health != met
        health = met
        return changed ? [.log(.error, "Redis at \(address): \(error)")] : []
    }

    // MARK: - Requests out

    private mutating func askRead(_ name: String, from revision: Int64) -> Action {
        asked.boards[name, default: 0] += 1
        return .readBoard(name, from: revision)
    }

    private mutating func askRenewal(replacing: String) -> Action {
        asked.renewals += 1
        return .renewClusterID(replacing: replacing)
    }

    /// Takes the answer of one reading of `name` off the requests out; false if none was out.
    private mutating func answered(board name: String) -> Bool {
        guard let out = asked.boards[name], out > 0 else { return false }
        asked.boards[name] = out > 1 ? out - 1 : nil
        return true
    }
}
