import Foundation
import Logging
import RingCastCluster
import RingCastCore

/// This server as one node of a cluster on Redis (DESIGN §10, docs/CLUSTER.md): the I/O shell around
/// `ClusterSync`, the state machine that decides what to do with every update, reading and error. The shell
/// feeds it events (the subscription's messages and states, the answers of the Redis jobs, the health check
/// each second) and carries out the actions it returns: Redis jobs on the worker, changes to the boards, calls
/// to the broadcaster, logs and metrics.
///
/// Threads: Redis commands run on the `RedisWorker`'s thread, the subscription on the `RedisSubscriber`'s;
/// every result comes back through the event loop's inbox, and everything here is touched only on the service
/// thread.
final class ClusterNode: ClusterSyncShell {
    /// What a write's script decided, as the pipeline answers it.
    typealias WriteResult = RedisWorker.WriteAnswer

    /// The node's name (`--node`, else HOST:PORT once the port is bound).
    var name: String
    let endpoint: RedisEndpoint
    /// Ticks between now and the start of a write accepted here.
    let leadTicks: Int64
    let replicas: Int
    /// Writes a minute a client may make to one board (0: no limit), checked in the write's script.
    var writesPerMinute: Int
    /// The bytes every board's Idempotency-Key answers may take in Redis together, kept in the write's script.
    var idempotencyBytes: Int
    let boards: Boards
    let clock: TickClock
    /// What each ring's history keeps unless its board keeps its own (`history.*`, read at start).
    let historyRetention: HistoryRetention
    private let metrics: ServerMetrics
    let logger: Logger
    let worker: RedisWorker
    private var subscriber: RedisSubscriber?
    /// The way back to the service thread, set once the loop exists.
    private(set) var queue: (any ServiceQueue)?
    /// The broadcaster, told of every change, replaced state and board added or removed.
    weak var broadcaster: Broadcaster?
    /// The configured boards' specs, by name: what a board whose state has no spec of its own is.
    var configured: [String: BoardSpec]

    /// Every decision about keeping the boards in step with Redis.
    var sync: ClusterSync
    /// Every decision about keeping the playlists in step with Redis (`ClusterNode+Playlists`).
    var playlistSync: PlaylistSync
    /// The playlists this node serves; nil until `hold(_:)`.
    private(set) var playlists: Playlists?
    /// A health check (PING or write probe) is under way.
    private var probing = false
    /// What runs once a board is caught up (a write that met a conflict), by board.
    private var waiting: [String: [() -> Void]] = [:]
    /// Boards whose newest revision this node accepted and no snapshot covers yet (`accepted`), by board.
    private var unsnapshotted: [String: Int64] = [:]
    /// The order of each board's writes on this node (`WriteLane`), while it has any.
    var lanes: [String: WriteLane<LiveBoard>] = [:]
    /// What the lanes hold by ticket: writes not yet started, and writes to compute again.
    private var lanePending: [WriteLane<LiveBoard>.Ticket: (@escaping () -> Void) -> Void] = [:]
    private var laneRetries: [WriteLane<LiveBoard>.Ticket: () -> Void] = [:]
    private var nextTicket = 0
    /// Boards whose lane is being run (`pump`): a write started there that starts the next finds it running.
    private var pumping: Set<String> = []
    /// Makes every write id this process sends unique in the cluster (`BoardWrite.id`).
    private let writeIDPrefix = String(UInt64.random(in: .min ... .max), radix: 36)
    private var writesSent: UInt64 = 0
    /// This node's own write being applied now that Redis took it: its digest was taken when it was computed.
    private var applyingOwn: BoardUpdate?
    /// The most writes of one board this node has in Redis's hands at once.
    static let laneDepth = 16

    init(
        name: String, endpoint: RedisEndpoint, worker: RedisWorker, configuration: RingCastConfiguration, boards: Boards,
        clock: TickClock, metrics: ServerMetrics, logger: Logger
    ) {
        self.name = name
        self.endpoint = endpoint
        self.worker = worker
        self.leadTicks = Int64((Double(configuration.leadMilliseconds) * Double(configuration.fps) / 1000).rounded(.up))
        self.replicas = configuration.replicas
        self.writesPerMinute = configuration.writesPerMinute
        self.idempotencyBytes = configuration.idempotencyCacheBytes
        self.configured = Dictionary(configuration.boards.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        self.boards = boards
        self.clock = clock
        historyRetention = configuration.historyRetention
        self.metrics = metrics
        self.logger = logger
        var revisions = boards.deleted
        for board in boards.all { revisions[board.name] = Int64(board.animator.revision) }
        sync = ClusterSync(address: endpoint.address, nonce: boards.etagNonce, revisions: revisions)
        playlistSync = PlaylistSync(address: endpoint.address, held: [:])
    }

    /// Keeps `playlists` in step with Redis from now on, starting from the ones it holds (read at start); before
    /// `start`.
    func hold(_ playlists: Playlists) {
        self.playlists = playlists
        playlistSync = PlaylistSync(
            address: endpoint.address, held: Dictionary(uniqueKeysWithValues: playlists.all.map { ($0.name, $0.stored) }))
    }

    // MARK: - Life

    /// Starts the subscription and the health checks; called once the loop exists. Every message
    /// and state change of the subscription comes back through `queue`.
    func start(queue: any ServiceQueue) {
        self.queue = queue
        metrics.clusterNode(name)
        let node = ServiceThreadBound(value: self)
        do {
            subscriber = try RedisSubscriber(
                endpoint: endpoint, channels: [BoardKeys.clusterChannel, PlaylistKeys.channel], patterns: [BoardKeys.allUpdates],
                onMessage: { message in queue.async { node.value.received(message) } },
                onState: { state in queue.async { node.value.subscriptionChanged(state) } })
        } catch {
            subscriptionChanged(.disconnected(reason: "\(error)"))
        }
        scheduleHealthCheck()
    }

    /// Ends the subscription and the worker (after the jobs already submitted). Any thread.
    func stop() {
        subscriber?.stop()
        worker.stop()
    }

    /// Redis holds every change; the boards' snapshots are written by the nodes that accepted them, as they go.
    func writeSnapshots() {}

    /// Why this node cannot take writes now, or nil when it can: what `/readyz` says.
    var problem: String? { sync.problem }

    private func subscriptionChanged(_ state: RedisSubscriber.State) {
        metrics.clusterSubscribed(state == .connected)
        switch state {
        case .connected:
            perform(sync.subscribed())
            perform(playlistSync.subscribed())
        case .disconnected(let reason): perform(sync.subscriptionLost(reason))
        }
    }

    /// Once a second: PING for the round trip (and to notice Redis coming back), or, while Redis refuses
    /// writes, a harmless write.
    private func scheduleHealthCheck() {
        guard let queue else { return }
        let node = ServiceThreadBound(value: self)
        queue.async(after: 1) { node.value.checkHealth() }
    }

    private func checkHealth() {
        defer { scheduleHealthCheck() }
        if sync.problem == nil { snapshotRestingBoards() }
        guard !probing, let queue else { return }
        probing = true
        let node = ServiceThreadBound(value: self)
        let write = sync.healthCheckDue() == .probeWrite
        let name = name
        worker.submit { session in
            let result = Result { () throws(RedisError) -> Duration? in
                if write {
                    try session.connection.probeWrite(node: name)
                    return nil
                }
                return try session.connection.ping()
            }
            queue.async { node.value.probed(result, write: write) }
        }
    }

    private func probed(_ result: Result<Duration?, RedisError>, write: Bool) {
        probing = false
        switch result {
        case .success(let roundTrip):
            if let roundTrip { metrics.clusterRoundTrip(roundTrip) }
            perform(sync.commandSucceeded(write ? .write : .read))
            perform(playlistSync.commandSucceeded())
        case .failure(let error):
            perform(sync.commandFailed(error))
        }
    }

    /// Another command (a playlist's write) worked (`error` nil) or failed: what it proves of Redis.
    func commandAnswered(_ error: RedisError?, write: Bool) {
        if let error {
            perform(sync.commandFailed(error))
        } else {
            perform(sync.commandSucceeded(write ? .write : .read))
        }
    }

    // MARK: - Writes

    /// Runs `body` when `board`'s lane starts it (`WriteLane`): after the writes that came before it, on the board
    /// as this node's writes in Redis's hands will leave it (`projection(of:)`) when it is `chainable`, else once they
    /// are answered. `body` calls its argument when its write is answered.
    func serialize(board: String, chainable: Bool, _ body: @escaping (@escaping () -> Void) -> Void) {
        let ticket = nextTicket
        nextTicket += 1
        lanePending[ticket] = body
        lanes[board, default: WriteLane(depth: Self.laneDepth)].enqueue(ticket, chainable: chainable)
        pump(board)
    }

    /// The board the write being computed for `board` is computed on, when not the one this node holds.
    func projection(of board: String) -> LiveBoard? {
        lanes[board]?.basis?.projection
    }

    /// Starts what `board`'s lane lets start now.
    func pump(_ board: String) {
        guard !pumping.contains(board) else { return }
        pumping.insert(board)
        defer { pumping.remove(board) }
        while let step = lanes[board]?.next() {
            switch step {
            case .start(let ticket):
                lanePending.removeValue(forKey: ticket)? { [weak self] in
                    guard let self else { return }
                    self.lanes[board]?.finished(ticket)
                    self.pump(board)
                }
            case .again(let ticket):
                laneRetries.removeValue(forKey: ticket)?()
            }
        }
        if lanes[board]?.isIdle == true { lanes[board] = nil }
    }

    /// The write being computed for `board` goes to Redis: its ticket, a new id and what it follows (nil when
    /// computed on the board as held). `projection`: what the next write may be computed on.
    func sending(_ board: String, projection: LiveBoard?) -> (ticket: Int?, id: String, after: String?) {
        writesSent += 1
        let id = "\(name)/\(writeIDPrefix)/\(writesSent)"
        guard let computing = lanes[board]?.computing else { return (nil, id, nil) }
        lanes[board]?.sent(computing.ticket, id: id, projection: projection)
        return (computing.ticket, id, computing.basis?.after)
    }

    /// `ticket` is computed again by `retry` once every write of `board` sent before is answered.
    func computeAgain(_ board: String, ticket: Int?, _ retry: @escaping () -> Void) {
        metrics.clusterWriteAgain()
        guard let ticket, lanes[board] != nil else { return retry() }
        laneRetries[ticket] = retry
        lanes[board]?.again(ticket)
    }

    /// Runs `write`'s script; on `.applied` the update is applied here before `completion` runs.
    func submit(_ write: RingCastCluster.BoardWrite, update: BoardUpdate, completion: @escaping (WriteResult) -> Void) {
        guard let queue else { return completion(.failed(.io(endpoint: endpoint.address, reason: "the node is starting"))) }
        let node = ServiceThreadBound(value: self)
        let done = ServiceThreadBound(value: completion)
        worker.submit(write, replicas: replicas) { answer in
            queue.async { node.value.written(answer, write: write, update: update, completion: done.value) }
        }
    }

    private func written(
        _ result: WriteResult, write: RingCastCluster.BoardWrite, update: BoardUpdate, completion: (WriteResult) -> Void
    ) {
        let board = write.board
        let landed: Bool
        switch result {
        case .outcome(.applied), .replicasMissing: landed = true
        case .outcome, .failed: landed = false
        }
        // A write sent after one of this node's that did not land meets a conflict that says nothing about the board.
        let followedLanded = lanes[board]?.answered(write.id, landed: landed) ?? true
        switch result {
        case .outcome(.conflict) where !followedLanded:
            perform(sync.commandSucceeded(.read))
        case .outcome(let outcome):
            if case .applied = outcome { applyingOwn = update }
            perform(sync.scriptAnswered(outcome, update: update, board: board))
            applyingOwn = nil
            if case .applied = outcome {
                metrics.pushed(board: board)
                accepted(board, update: update)
            }
        case .replicasMissing:
            applyingOwn = update
            perform(sync.scriptAnswered(.applied(revision: update.revision, streamID: ""), update: update, board: board))
            applyingOwn = nil
            metrics.pushed(board: board)
            accepted(board, update: update)
        case .failed(let error):
            perform(sync.commandFailed(error))
        }
        completion(result)
        pump(board)
    }

    // MARK: - Events from the subscription

    private func received(_ message: RedisSubscriber.Message) {
        if message.channel == BoardKeys.clusterChannel {
            return perform(sync.clusterIDAnnounced(String(decoding: message.payload, as: UTF8.self)))
        }
        if message.channel == PlaylistKeys.channel {
            return perform(playlistSync.notified())
        }
        guard let board = BoardKeys.board(ofUpdatesChannel: message.channel) else { return }
        do {
            perform(sync.received(try BoardUpdate(payload: message.payload), board: board))
        } catch {
            perform(sync.receivedUnreadable(board: board, reason: "\(error)"))
        }
    }

    /// The revision this node holds of `board`: its own, its tombstone's, or 0 for one it never had.
    func revision(of board: String) -> Int64 {
        if let live = boards[board] { return Int64(live.animator.revision) }
        return boards.deleted[board] ?? 0
    }

    // MARK: - Catching up

    /// Reads `board` from Redis unless a reading is under way; `then` runs once it is caught up, whatever the
    /// outcome.
    func catchUp(_ board: String, then: @escaping () -> Void) {
        waiting[board, default: []].append(then)
        perform(sync.catchUpRequested(board))
    }

    /// Catches every board up: the ones Redis has, the configured ones and the ones this node serves (a reload of
    /// the configuration added boards).
    func catchUpAll() {
        for board in boards.all { sync.track(board.name, revision: Int64(board.animator.revision)) }
        perform(sync.catchUpAll())
    }

    // MARK: - Actions

    /// Carries out one action of the state machine (`perform`, `ClusterSyncShell`); what it reports goes back to it
    /// as a further event.
    func carryOut(_ action: ClusterSync.Action) {
        switch action {
        case .apply(let board, let update):
            // `perform` applies updates itself; carried out here, it is applied the same way.
            perform([.apply(board: board, update: update)])
        case .restore(let board, let snapshot, let updates):
            restore(board, snapshot: snapshot, updates: updates)
        case .forget(let board):
            forgotten(board)
        case .readBoard(let board, let from):
            read(board, from: from)
        case .readAll(let from):
            readAll(from: from)
        case .renewClusterID(let replacing):
            renewClusterID(replacing: replacing)
        case .changeNonce(let nonce):
            boards.changeETagNonce(to: nonce)
        case .ping, .probeWrite:
            break  // the health check asks for these itself
        case .boardCaughtUp(let board):
            for then in waiting.removeValue(forKey: board) ?? [] { then() }
        case .everyBoardCaughtUp:
            let all = waiting
            waiting = [:]
            for board in all.keys.sorted() { for then in all[board]! { then() } }
        case .count(let metric):
            switch metric {
            case .updateReceived: metrics.clusterUpdateReceived()
            case .catchUp: metrics.clusterCatchUp()
            case .lateUpdate: metrics.clusterLateUpdate()
            case .digestMismatch: metrics.clusterDigestMismatch()
            }
        case .log(let level, let text):
            log(level, text)
        case .unexpected(let text):
            log(.error, "cluster sync: unexpected event, ignored: \(text)")
        }
    }

    /// A line a state machine (`ClusterSync`, `PlaylistSync`) asked for, at its level.
    func log(_ level: ClusterSync.LogLevel, _ text: String) {
        switch level {
        case .info: logger.info("\(text)")
        case .notice: logger.notice("\(text)")
        case .warning: logger.warning("\(text)")
        case .error: logger.error("\(text)")
        }
    }

    private func read(_ board: String, from revision: Int64) {
        guard let queue else { return }
        let node = ServiceThreadBound(value: self)
        worker.submit { session in
            let result = Result { () throws(RedisError) in try Self.read(board, from: revision, on: session.connection) }
            queue.async {
                switch result {
                case .success(let reading): node.value.perform(node.value.sync.boardRead(board, reading))
                case .failure(let error): node.value.perform(node.value.sync.boardReadFailed(board, error))
                }
            }
        }
    }

    private func readAll(from known: [String: Int64]) {
        guard let queue else { return }
        let node = ServiceThreadBound(value: self)
        let names = Set(known.keys).union(configured.keys)
        // A fresh candidate: should Redis have lost its data (and the id with it), no tag of the lost data may
        // name a state of the new.
        let candidate = String(UInt64.random(in: .min ... .max), radix: 36)
        worker.submit { session in
            let result = Result { () throws(RedisError) -> (id: String, readings: [String: ClusterSync.Reading]) in
                let id = try session.connection.clusterID(candidate: candidate)
                var readings: [String: ClusterSync.Reading] = [:]
                for board in Set(try session.connection.boardNames()).union(names) {
                    readings[board] = try Self.read(board, from: known[board] ?? 0, on: session.connection)
                }
                return (id, readings)
            }
            queue.async {
                switch result {
                case .success(let (id, readings)): node.value.perform(node.value.sync.allRead(id: id, readings))
                case .failure(let error): node.value.perform(node.value.sync.allReadFailed(error))
                }
            }
        }
    }

    private func renewClusterID(replacing: String) {
        guard let queue else { return }
        let node = ServiceThreadBound(value: self)
        let candidate = String(UInt64.random(in: .min ... .max), radix: 36)
        worker.submit { session in
            let result = Result { () throws(RedisError) in
                try session.connection.renewClusterID(replacing: replacing, candidate: candidate)
            }
            queue.async {
                switch result {
                case .success(let id): node.value.perform(node.value.sync.clusterIDRenewed(id))
                case .failure(let error): node.value.perform(node.value.sync.clusterIDRenewalFailed(error))
                }
            }
        }
    }

    /// What Redis holds of one board: its snapshot, and the stream from the revision this node held (or from the
    /// snapshot's, when older).
    private static func read(_ board: String, from revision: Int64, on connection: RedisConnection) throws(RedisError)
        -> ClusterSync.Reading
    {
        let (snapshot, updates) = try connection.readBoard(board, from: revision)
        return ClusterSync.Reading(snapshot: snapshot, updates: updates, from: revision)
    }

    // MARK: - Boards

    /// Applies one update the state machine found to follow the revision held, at its start tick.
    func apply(_ update: BoardUpdate, toBoard name: String) -> ClusterSync.Applied {
        let board = boards[name]
        let outcome = ClusterUpdate.outcome(
            of: update, held: revision(of: name), animator: board?.animator, fps: clock.fps,
            now: board?.now(clock.currentTick()) ?? clock.currentTick(), digested: update == applyingOwn)
        switch outcome {
        case .changed(let decoded, let animator, _):
            guard let board else { return .refused("this node has no such board") }
            board.animator = animator
            board.durable = .animator(animator)
            board.etag = boards.etag(revision: update.revision)
            broadcaster?.changeAccepted(board, at: decoded.startTick)
        case .created(let decoded, let spec, let animator, _):
            let board = boards.adopt(animator: animator, revision: update.revision)
            board.configured = configured[spec.name] ?? spec
            broadcaster?.boardAdded(board)
            broadcaster?.changeAccepted(board, at: decoded.startTick)
        case .deleted:
            deleted(name, revision: update.revision)
        case .unchanged:
            break
        }
        return outcome.applied
    }

    /// The board was deleted at `revision`: no longer served, its viewers closed with 4404.
    private func deleted(_ name: String, revision: Int64) {
        let board = boards[name]
        boards.markDeleted(name, revision: revision)
        if let board { broadcaster?.boardRemoved(board, reason: "board deleted") }
        metrics.setViewers(0, board: name)
    }

    /// Serves `name` at the state Redis holds from now on — its snapshot with the changes after it replayed — its
    /// viewers getting a keyframe (and the layout, if it changed).
    private func restore(_ name: String, snapshot: RingCastCluster.BoardSnapshot, updates: [BoardUpdate]) {
        let source = "\(endpoint): board \(name)"
        let restored: ClusterUpdate.Restored
        do {
            restored = try ClusterUpdate.restoring(
                snapshot, updates: updates, configured: configured[name], fps: clock.fps, tick: clock.currentTick(),
                source: source)
        } catch {
            return logger.error("cannot restore board \(name) from Redis: \(error)")
        }
        if restored.mismatch != nil { metrics.clusterDigestMismatch() }
        for problem in restored.problems { logger.error("board \(name): \(problem)") }
        let animator: Animator
        switch restored.board {
        case .deleted: return deleted(name, revision: restored.revision)
        case .unconfigured: return logger.warning("\(source) has state but is not configured here; not serving it")
        case .served(let served): animator = served
        }
        let spec = animator.spec
        logger.info(
            "board \(name): reloaded revision \(restored.revision) from Redis (its snapshot of revision \(snapshot.covers) and \(Counted(updates.count, "change")) after it)"
        )
        if let board = boards[name] {
            let reshaped = board.spec != spec
            board.animator = animator
            board.durable = .animator(animator)
            board.etag = boards.etag(revision: restored.revision)
            if reshaped {
                broadcaster?.boardsChanged(BoardChanges(changed: [board]))
            } else {
                broadcaster?.stateReplaced(board)
            }
        } else {
            let board = boards.adopt(animator: animator, revision: restored.revision)
            board.configured = configured[name] ?? spec
            broadcaster?.boardAdded(board)
            broadcaster?.stateReplaced(board)
        }
    }

    // MARK: - Snapshots

    /// Writes `name`'s whole state to Redis as its snapshot, off the loop (encoded on the worker's thread): the
    /// stream after it is then what a node joining replays. Only the node that accepted the revision writes it
    /// (`written`, `snapshotRestingBoards`), so each is written once; Redis takes it only if it is newer than the one
    /// it holds and of the history it holds, and only while it is the newest revision once this node composed frames
    /// past the revision's start (`SnapshotScript`; `startTick` nil: not known, as good as past).
    private func writeSnapshot(_ name: String, startTick: Int64? = nil) {
        guard let queue else { return }
        let revision = self.revision(of: name)
        guard revision > 0, let digest = sync.boards[name]?.digests[revision] else { return }
        let animator = boards[name]?.animator
        let state = animator?.state ?? BoardState.tombstone(of: name, revision: revision, fps: clock.fps)
        let newest = ClusterUpdate.snapshotMustBeNewest(animator, startTick: startTick)
        let node = ServiceThreadBound(value: self)
        worker.submit { session in
            let written: SnapshotWritten
            do throws(EncodingFailure) {
                let bytes = try StateCodec.encode(state)
                do throws(RedisError) {
                    written = .outcome(
                        try session.connection.writeSnapshot(
                            board: name, revision: revision, digest: digest, state: bytes, newest: newest,
                            streamLength: session.script.streamLength))
                } catch {
                    written = .failed(error)
                }
            } catch {
                written = .unencodable(error)
            }
            queue.async { node.value.snapshotWritten(name, revision: revision, written) }
        }
    }

    /// What writing a snapshot came to.
    private enum SnapshotWritten: Sendable {
        case outcome(SnapshotScript.Outcome)
        case unencodable(EncodingFailure)
        case failed(RedisError)
    }

    private func snapshotWritten(_ name: String, revision: Int64, _ written: SnapshotWritten) {
        switch written {
        case .outcome(.written): logger.debug("board \(name): snapshot of revision \(revision) written to Redis")
        case .outcome(.stale(let covers)):
            logger.debug("board \(name): Redis holds a snapshot of revision \(covers), not taking revision \(revision)")
        case .outcome(.otherHistory):
            logger.notice("board \(name): Redis's revision \(revision) is not the one this node holds; snapshot not written")
        case .unencodable(let error):
            logger.error("board \(name): snapshot of revision \(revision) not written: \(error)")
        case .failed(let error):
            logger.warning("board \(name): the snapshot of revision \(revision) could not be written to Redis (\(error))")
            perform(sync.commandFailed(error))
        }
    }

    /// A write of this node was applied at `revision`: every `ChangeLog.snapshotInterval`-th revision (1,000th, more
    /// on a board holding many animations) is written as a snapshot at once; a later one once the board rests,
    /// unless another node wrote to it since. The divisibility by 1,000 is tested first: counting the animations
    /// walks the board's rings.
    private func accepted(_ name: String, update: BoardUpdate) {
        let revision = update.revision
        guard self.revision(of: name) == revision else { return }
        if revision % Int64(ChangeLog.snapshotEvery) == 0,
            let board = boards[name],
            revision % Int64(ChangeLog.snapshotInterval(holding: board.animator.heldAnimations)) == 0
        {
            unsnapshotted[name] = nil
            writeSnapshot(name, startTick: update.tick)
        } else {
            unsnapshotted[name] = revision
        }
    }

    /// Once a second: the boards whose newest revision this node accepted and that came to rest are written as
    /// snapshots, so a node joining replays nothing of a board at rest.
    private func snapshotRestingBoards() {
        let now = clock.currentTick()
        for (name, revision) in unsnapshotted {
            guard self.revision(of: name) == revision else {
                unsnapshotted[name] = nil
                continue
            }
            if let board = boards[name], !board.animator.isAtRest(at: board.now(now)) { continue }
            unsnapshotted[name] = nil
            writeSnapshot(name)
        }
    }

    /// Redis has no state of a board this node holds a revision of: Redis lost its data (restarted without its
    /// AOF, or flushed). Redis is the truth: a configured board starts again empty, any other goes.
    private func forgotten(_ name: String) {
        logger.warning("Redis at \(endpoint.address) has no state of board \(name), which this node holds; following Redis")
        boards.forget(name)
        if let board = boards[name] {
            if let spec = configured[name] {
                board.animator = Animator(spec: spec, fps: clock.fps, tick: clock.currentTick())
                board.durable = .animator(board.animator)
                board.etag = boards.etag(revision: 0)
                broadcaster?.boardsChanged(BoardChanges(changed: [board]))
            } else {
                boards.discard(board)
                broadcaster?.boardRemoved(board, reason: "board deleted")
            }
        } else if let spec = configured[name] {
            let board = boards.adopt(animator: Animator(spec: spec, fps: clock.fps, tick: clock.currentTick()), revision: 0)
            broadcaster?.boardAdded(board)
        }
    }
}

@available(*, unavailable)
extension ClusterNode: Sendable {}
