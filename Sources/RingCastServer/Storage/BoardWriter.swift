import Dispatch
import Logging
import RingCastCore
import RingCastStorage
import RingCastTransport

/// The embedded store as the pipeline's backend (`BoardBackend`): the client's write rate and the
/// Idempotency-Key's answers are kept here, in memory; a committed write is applied to its board's
/// animator at once (it starts at the next tick), handed to the store, and answered once the store's
/// batch holding it is durable. Ticks and other requests never wait for the disk. A write the store
/// could not commit is answered 503 and its board reverts to the last committed state; until a probe
/// commits again (once a second) writes are refused and /readyz answers 503. Once a second while
/// writes are taken, the store also checks that it still owns its data directory, so that a deleted
/// or replaced database stops writes (and turns /readyz to 503) even when nobody writes.
///
/// A change is stored as itself, appended to the board's log (`ChangeLog`); the board's whole state is written as a
/// snapshot off the write path: after `ChangeLog.snapshotEvery` changes, when the board comes to rest, and at shutdown.
///
/// Touched only on the service thread.
final class BoardWriter: BoardBackend {
    let store: any BoardStore
    private let boards: Boards
    private let clock: TickClock
    /// The way back to the service thread: the event loop's inbox, set once it exists.
    var queue: (any ServiceQueue)?
    let logger: Logger
    private let metrics: ServerMetrics
    /// Told of every accepted change and revert (the broadcaster); nil in process tests.
    weak var observer: (any BoardObserver)?
    /// Why the store cannot commit, from a failed commit until a probe commits again.
    private(set) var problem: String?
    private var probing = false
    /// Writes handed to the store, by id, until their batch is durable (or failed).
    private var pending: [UInt64: PendingWrite] = [:]
    private var nextID: UInt64 = 0
    private var rateLimiter: RateLimiter
    private var writesPerMinute: Int
    private let idempotency: IdempotencyCache
    /// What each ring's history keeps unless its board keeps its own (`history.*`, read at start).
    let historyRetention: HistoryRetention

    init(
        store: any BoardStore, boards: Boards, clock: TickClock, queue: (any ServiceQueue)?, metrics: ServerMetrics,
        configuration: RingCastConfiguration, logger: Logger
    ) {
        self.store = store
        self.boards = boards
        self.clock = clock
        self.queue = queue
        self.metrics = metrics
        self.logger = logger
        rateLimiter = RateLimiter(perMinute: configuration.writesPerMinute)
        writesPerMinute = configuration.writesPerMinute
        idempotency = IdempotencyCache(capacityBytes: configuration.idempotencyCacheBytes)
        historyRetention = configuration.historyRetention
    }

    /// False while the store cannot commit.
    var isHealthy: Bool { problem == nil }

    /// The figures of the store, for /metrics.
    var storeStatistics: StorageStatistics? { store.statistics }

    // MARK: - BoardBackend

    func earliestStart(now: Int64) -> Int64 { now + 1 }

    func admit(_ write: WriteIntent) throws(APIError) -> Admission {
        try admit(from: write.http.peer, idempotency: write.idempotency)
    }

    /// The rate of `peer`'s writes (boards' and playlists' together) and a repeated Idempotency-Key.
    func admit(from peer: String, idempotency key: WriteIntent.Idempotency?) throws(APIError) -> Admission {
        if let wait = rateLimiter.take(for: peer, at: clock.now()) {
            return .answered(
                .rateLimited("more than \(writesPerMinute) writes a minute from \(peer); retry in \(wait) s", retryAfter: wait))
        }
        guard let key else { return .proceed }
        switch idempotency.begin(key: key.key, digest: key.digest, at: clock.now()) {
        case .replay(var response):
            response.headers.append((name: "Idempotent-Replayed", value: "true"))
            return .answered(response)
        case .conflict:
            throw .idempotencyKeyReused
        case .inFlight:
            throw APIError(
                status: 409, code: "idempotency_key_in_flight",
                message: "a request with this Idempotency-Key is still being applied; retry in a moment",
                field: "Idempotency-Key")
        case .miss:
            return .proceed
        }
    }

    /// Writes to one board need not wait for each other: each is applied in turn on the service thread.
    func serialize(board: String, chainable: Bool, _ body: @escaping (@escaping () -> Void) -> Void) {
        body {}
    }

    /// Every write is applied to the board held as it is accepted.
    func projection(of board: String) -> LiveBoard? { nil }

    func commit(
        _ prepared: PreparedWrite, of write: WriteIntent, attempt: Int, completion: @escaping (CommitOutcome) -> Void
    ) {
        guard let queue, problem == nil else { return completion(.answered(.error(Self.unavailable(problem)))) }
        // Prepared against the board as it is on this thread, now: the If-Match revision is the board's.
        if let expected = write.precondition.revision, expected != prepared.base {
            return completion(.answered(.error(.changedSince("\(write.precondition)"))))
        }
        let answered: (LiveBoard) -> (APIError?) -> Void = { board in
            { error in completion(.answered(error.map { .error($0) } ?? prepared.answer(board))) }
        }
        switch prepared.kind {
        case .change(let board, let change, let after):
            // What the change leaves in its rings' history, stored in its own transaction (issue 33).
            let history = StoredHistory(
                prepared.history, revision: prepared.base + 1, tick: prepared.start, fps: clock.fps,
                bound: HistoryBound(historyRetention.of(after.spec)))
            board.animator = after
            board.etag = boards.etag(revision: prepared.base + 1)
            observer?.changeAccepted(board, at: prepared.start)
            // The change is what is stored (`ChangeLog`): its bytes made on the store's thread, never the board's.
            let logged = ClusterUpdate.Change(change, body: prepared.body)
            let stored = StoredChange(
                board: board.name, revision: prepared.base + 1, tick: prepared.start, fps: clock.fps, history: history
            ) {
                try ChangeLog.encode(logged)
            }
            track(.change(after), of: board, on: queue, completion: answered(board)) { store, done in
                store.append(stored, completion: done)
            }
        case .create(_, let animator, _):
            // Served at once; if the store cannot commit it, it goes again. A new board is written whole: its
            // first snapshot, which its logged changes follow.
            let board = boards.adopt(animator: animator, revision: prepared.base + 1)
            board.isNew = true
            observer?.boardAdded(board)
            observer?.changeAccepted(board, at: prepared.start)
            let state = prepared.state()
            let history = StoredHistory(
                prepared.history, revision: state.revision, tick: prepared.start, fps: clock.fps,
                bound: HistoryBound(historyRetention.of(animator.spec)))
            let record = StoredRecord(board: board.name, revision: state.revision, history: history) {
                try StateCodec.encode(state)
            }
            track(.change(animator), of: board, on: queue, completion: answered(board)) { store, done in
                store.write([record], completion: done)
            }
        case .delete(let board):
            // No longer served from now on, its viewers closed with 4404; a tombstone keeps it deleted across
            // restarts, whatever the configuration says, and ends its log. If the store cannot commit it, it is
            // served again.
            _ = boards.delete(board)
            observer?.boardRemoved(board, reason: "board deleted")
            let tombstone = prepared.state()
            let record = StoredRecord(board: board.name, revision: tombstone.revision, endsLog: true) {
                try StateCodec.encode(tombstone)
            }
            track(.deletion, of: board, on: queue, completion: answered(board)) { store, done in
                store.write([record], completion: done)
            }
        }
    }

    func history(_ query: HistoryQuery, completion: @escaping (Result<[HistoryPoint], APIError>) -> Void) {
        guard let queue else { return completion(.failure(.storageUnavailable("the server is starting; retry in a moment"))) }
        let (store, done) = (store, ServiceThreadBound(value: completion))
        DispatchQueue.global().async {
            let result = Result { () throws(StorageError) in try store.history(query) }
                .map { rows in rows.map { HistoryPoint(tick: $0.milliseconds, value: $0.value, status: $0.status) } }
                .mapError { error in APIError.storageUnavailable("cannot read the history: \(error)") }
            queue.async { done.value(result) }
        }
    }

    func finished(_ write: WriteIntent, with response: HTTPResponse?) {
        finished(write.idempotency, with: response)
    }

    /// Keeps the answer to a write admitted with `key` (nil: frees the key).
    func finished(_ key: WriteIntent.Idempotency?, with response: HTTPResponse?) {
        guard let key = key?.key else { return }
        if let response {
            idempotency.finish(key: key, response: response, at: clock.now())
        } else {
            idempotency.abandon(key: key)
        }
    }

    /// A new write rate starts every client with a full bucket.
    func apply(_ configuration: RingCastConfiguration, added: [LiveBoard]) {
        if configuration.writesPerMinute != writesPerMinute {
            rateLimiter = RateLimiter(perMinute: configuration.writesPerMinute)
            writesPerMinute = configuration.writesPerMinute
        }
        idempotency.resize(to: configuration.idempotencyCacheBytes)
    }

    var nodeName: String? { nil }

    func name(_ name: String) {}

    func attach(queue: any ServiceQueue, broadcaster: Broadcaster) {
        observer = broadcaster
        self.queue = queue
        scheduleCheck()
    }

    func stop() {}

    // MARK: - The store

    /// Hands a write of `board` to the store (`submit`); `finished` reports it back on the service thread.
    private func track(
        _ kind: PendingWrite.Kind, of board: LiveBoard, on queue: any ServiceQueue,
        completion: @escaping (APIError?) -> Void,
        submit: (any BoardStore, @escaping @Sendable (StorageError?) -> Void) -> Void
    ) {
        nextID += 1
        let id = nextID
        pending[id] = PendingWrite(board: board, kind: kind, completion: completion)
        let writer = ServiceThreadBound(value: self)
        submit(store) { error in
            queue.async { writer.value.finished(id, error: error) }
        }
    }

    // MARK: - Snapshots

    /// Hands `board`'s whole state to the store as its snapshot, off the write path: the store writes it and
    /// compacts the board's log in one transaction. Behind every change already handed over, so the snapshot
    /// commits only with them; one that fails is only logged (the log still holds every change), and tried again
    /// when the board next rests.
    func snapshot(_ board: LiveBoard) {
        guard let queue, board.changesSinceSnapshot > 0 else { return }
        board.changesSinceSnapshot = 0
        let state = board.animator.state
        let bound = StoredHistory(bound: HistoryBound(historyRetention.of(board.spec)))
        let record = StoredRecord(board: board.name, revision: state.revision, history: bound) {
            try StateCodec.encode(state)
        }
        let (writer, name) = (ServiceThreadBound(value: self), board.name)
        store.write([record]) { error in
            guard let error else { return }
            queue.async { writer.value.snapshotFailed(name, error) }
        }
    }

    private func snapshotFailed(_ name: String, _ error: StorageError) {
        logger.warning("cannot write a snapshot of board \(name) (its changes stay logged): \(error)")
        if let board = boards[name] { board.changesSinceSnapshot = max(board.changesSinceSnapshot, 1) }
    }

    /// Snapshots of the boards that rest with changes logged since their last one (once a second).
    private func snapshotRestingBoards() {
        let now = clock.currentTick()
        for board in boards.all where board.changesSinceSnapshot > 0 && board.animator.isAtRest(at: board.now(now)) {
            snapshot(board)
        }
    }

    /// Snapshots of every board with changes logged since its last one; at shutdown, before the store closes, so the
    /// next start replays nothing.
    func writeSnapshots() {
        for board in boards.all where board.changesSinceSnapshot > 0 { snapshot(board) }
    }

    private static func unavailable(_ problem: String?) -> APIError {
        .storageUnavailable("the store cannot commit writes right now (\(problem ?? "starting")); nothing was changed")
    }

    /// A write's batch was committed (or failed): report it, keep what is durable, or revert.
    private func finished(_ id: UInt64, error: StorageError?) {
        guard let write = pending.removeValue(forKey: id) else { return }
        let board = write.board
        guard let error else {
            switch write.kind {
            case .change(let animator):
                board.durable = .animator(animator)
                if !board.isNew {
                    board.changesSinceSnapshot += 1
                    // The count first: counting the animations walks the board's rings.
                    if board.changesSinceSnapshot >= ChangeLog.snapshotEvery,
                        board.changesSinceSnapshot >= ChangeLog.snapshotInterval(holding: board.animator.heldAnimations)
                    {
                        snapshot(board)
                    }
                }
                board.isNew = false
            case .deletion: break
            }
            metrics.pushed(board: board.name)
            write.completion(nil)
            return
        }
        logger.error("cannot store board \(board.name): \(error)")
        // A state that cannot be encoded is this write's fault, not the store's: it goes on taking writes.
        if error.kind == .store { failed(error) }
        if case .deletion = write.kind {
            boards.reinstate(board, tick: clock.currentTick())
            observer?.boardAdded(board)
        } else if board.isNew {
            // A board whose creation is not durable is not served.
            if boards[board.name] === board {
                boards.discard(board)
                observer?.boardRemoved(board, reason: "board could not be stored")
            }
        } else {
            // Everything accepted since the last commit goes: the board shows what is durable.
            boards.revert(board, tick: clock.currentTick())
            observer?.stateReplaced(board)
        }
        switch error.kind {
        case .store:
            write.completion(
                .storageUnavailable("the change could not be stored durably and was not applied (\(error.message))"))
        case .unencodable:
            write.completion(
                APIError(status: 500, code: "internal", message: "the change was not applied: \(error); nothing was changed"))
        }
    }

    /// The store's ownership check, a second from now and every second after (`BoardStore.check`).
    private func scheduleCheck() {
        guard let queue else { return }
        let writer = ServiceThreadBound(value: self)
        queue.async(after: 1) { [store] in
            store.check { error in
                queue.async { writer.value.checked(error) }
            }
        }
    }

    private func checked(_ error: StorageError?) {
        defer { scheduleCheck() }
        if problem == nil { snapshotRestingBoards() }
        // A failure the writer already knows of is being probed.
        guard let error, problem == nil else { return }
        logger.error("the store stops taking writes: \(error)")
        failed(error)
    }

    /// Writes are refused from now on, until a probe commits again.
    func failed(_ error: StorageError) {
        problem = error.message
        scheduleProbe()
    }

    private func scheduleProbe() {
        guard !probing, let queue else { return }
        probing = true
        let writer = ServiceThreadBound(value: self)
        queue.async(after: 1) { [store] in
            store.probe { error in
                queue.async { writer.value.probed(error) }
            }
        }
    }

    private func probed(_ error: StorageError?) {
        probing = false
        if let error {
            problem = error.message
            scheduleProbe()
        } else {
            logger.notice("the store commits again; accepting writes")
            problem = nil
        }
    }
}

@available(*, unavailable)
extension BoardWriter: Sendable {}

/// A write the store has not answered yet, and whom to tell once it has.
private struct PendingWrite {
    enum Kind {
        /// A change or a creation: the animator that accepted it, durable once the store says so.
        case change(Animator)
        case deletion
    }

    var board: LiveBoard
    var kind: Kind
    var completion: (APIError?) -> Void
}
