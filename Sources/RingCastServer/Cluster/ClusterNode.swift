import Foundation
import Logging
import RingCastCluster
import RingCastCore

/// This server as one node of a cluster on Redis (DESIGN §10, docs/CLUSTER.md): it runs every write's
/// script in Redis, applies every board's updates, its own and other nodes', at their start ticks, and
/// catches up from Redis whenever it may have missed one.
///
/// Threads: Redis commands run on the `RedisWorker`'s thread, the subscription on the
/// `RedisSubscriber`'s; every result comes back through the event loop's inbox, and everything here is
/// touched only on the service thread.
final class ClusterNode {
    /// What a write's script decided, as the pipeline answers it.
    enum WriteResult: Sendable {
        case outcome(WriteOutcome)
        /// Applied, but fewer replicas than `cluster.replicas` acknowledged it in time.
        case replicasMissing(acknowledged: Int)
        case failed(RedisError)
    }

    /// The node's name (`--node`, else HOST:PORT once the port is bound).
    var name: String
    let endpoint: RedisEndpoint
    /// Ticks between now and the start of a write accepted here.
    let leadTicks: Int64
    private let replicas: Int
    private let boards: Boards
    private let clock: TickClock
    private let metrics: ServerMetrics
    private let logger: Logger
    private let worker: RedisWorker
    private var subscriber: RedisSubscriber?
    /// The way back to the service thread, set once the loop exists.
    private var queue: (any ServiceQueue)?
    /// The broadcaster, told of every change, replaced state and board added or removed.
    weak var broadcaster: Broadcaster?
    /// The configured boards' specs, by name: what a board whose state has no spec of its own is.
    var configured: [String: BoardSpec]

    // Health: ready when subscribed, the command connection works, and caught up since subscribing.
    private var subscription: RedisSubscriber.State = .disconnected(reason: "not subscribed yet")
    private var commandProblem: String?
    private var caughtUp = false
    private var catchingUpAll = false
    /// The subscription was made again while every board was being caught up: once more after it.
    private var catchUpAgain = false
    /// The next catch-up of every board reloads them all.
    private var reloadAll = false
    private var pinging = false

    /// Boards being caught up, with what to run once each is.
    private var catchingUp: [String: [() -> Void]] = [:]
    /// Boards being reloaded from Redis (a late update, a digest mismatch): updates that arrive meanwhile wait
    /// in `arrivedDuringReload` and are applied (or found held) once it is done, so that one late update is
    /// reloaded and counted once, not again when its second copy comes. Other catch-ups let updates through.
    private var reloading: Set<String> = []
    private var arrivedDuringReload: [String: [BoardUpdate]] = [:]
    /// Boards to reload once more when their catch-up is done.
    private var readAgain: Set<String> = []
    /// Boards with a write of this node in Redis's hands, and the writes waiting for it: one write
    /// per board at a time, so that this node's own writes never conflict with each other.
    private var writing: [String: [(@escaping () -> Void) -> Void]] = [:]

    init(
        name: String, endpoint: RedisEndpoint, worker: RedisWorker, configuration: RingCastConfiguration, boards: Boards,
        clock: TickClock, metrics: ServerMetrics, logger: Logger
    ) {
        self.name = name
        self.endpoint = endpoint
        self.worker = worker
        self.leadTicks = Int64((Double(configuration.leadMilliseconds) * Double(configuration.fps) / 1000).rounded(.up))
        self.replicas = configuration.replicas
        self.configured = Dictionary(configuration.boards.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        self.boards = boards
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
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
                endpoint: endpoint, channels: [], patterns: [BoardKeys.allUpdates],
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

    /// Why this node cannot take writes now, or nil when it can: what `/readyz` says.
    var problem: String? {
        if let commandProblem { return "Redis at \(endpoint.address) is unreachable: \(commandProblem)" }
        if case .disconnected(let reason) = subscription {
            return "not subscribed to Redis at \(endpoint.address): \(reason)"
        }
        if !caughtUp { return "catching up with Redis at \(endpoint.address)" }
        return nil
    }

    private func subscriptionChanged(_ state: RedisSubscriber.State) {
        subscription = state
        metrics.clusterSubscribed(state == .connected)
        switch state {
        case .connected:
            logger.notice("subscribed to Redis at \(endpoint.address); catching up")
            caughtUp = false
            catchUpAll()
        case .disconnected(let reason):
            logger.error("the subscription to Redis at \(endpoint.address) is down: \(reason)")
            caughtUp = false
        }
    }

    /// Once a second: PING for the round trip (and to notice Redis coming back).
    private func scheduleHealthCheck() {
        guard let queue else { return }
        let node = ServiceThreadBound(value: self)
        queue.async(after: 1) { node.value.checkHealth() }
    }

    private func checkHealth() {
        defer { scheduleHealthCheck() }
        guard !pinging, let queue else { return }
        pinging = true
        let node = ServiceThreadBound(value: self)
        worker.submit { session in
            let result = Result { () throws(RedisError) in try session.connection.ping() }
            queue.async { node.value.pinged(result) }
        }
    }

    private func pinged(_ result: Result<Duration, RedisError>) {
        pinging = false
        switch result {
        case .success(let roundTrip):
            metrics.clusterRoundTrip(roundTrip)
            commandSucceeded()
        case .failure(let error):
            commandFailed(error)
        }
    }

    /// A command worked: after a failure (Redis away, or still loading its AOF) every board is caught up
    /// again, whichever command noticed first (a PING, a write, a board's catch-up).
    private func commandSucceeded() {
        guard commandProblem != nil else { return }
        logger.notice("Redis at \(endpoint.address) answers again; catching up")
        commandProblem = nil
        caughtUp = false
        catchUpAll()
    }

    private func commandFailed(_ error: RedisError) {
        if commandProblem == nil { logger.error("Redis at \(endpoint.address): \(error)") }
        commandProblem = "\(error)"
    }

    // MARK: - Writes

    /// Runs `body` once no other write of this node to `board` is in Redis's hands; `body` calls its
    /// argument when its write is answered.
    func serialize(board: String, _ body: @escaping (@escaping () -> Void) -> Void) {
        if writing[board] != nil {
            writing[board]!.append(body)
            return
        }
        writing[board] = []
        run(body, board: board)
    }

    private func run(_ body: @escaping (@escaping () -> Void) -> Void, board: String) {
        body { [weak self] in
            guard let self else { return }
            if var waiting = self.writing[board], !waiting.isEmpty {
                let next = waiting.removeFirst()
                self.writing[board] = waiting
                self.run(next, board: board)
            } else {
                self.writing[board] = nil
            }
        }
    }

    /// Runs `write`'s script; on `.applied` the update is applied here before `completion` runs.
    func submit(_ write: RingCastCluster.BoardWrite, update: BoardUpdate, completion: @escaping (WriteResult) -> Void) {
        guard let queue else { return completion(.failed(.io(endpoint: endpoint.address, reason: "the node is starting"))) }
        let replicas = replicas
        let node = ServiceThreadBound(value: self)
        let done = ServiceThreadBound(value: completion)
        worker.submit { session in
            var result: WriteResult
            do throws(RedisError) {
                let outcome = try session.script.run(write, on: session.connection)
                result = .outcome(outcome)
                if case .applied = outcome, replicas > 0 {
                    let acknowledged = try session.connection.wait(replicas: replicas, timeoutMilliseconds: 1000)
                    if acknowledged < replicas { result = .replicasMissing(acknowledged: acknowledged) }
                }
            } catch {
                result = .failed(error)
            }
            let answered = result
            queue.async { node.value.written(answered, update: update, board: write.board, completion: done.value) }
        }
    }

    private func written(_ result: WriteResult, update: BoardUpdate, board: String, completion: (WriteResult) -> Void) {
        switch result {
        case .outcome(.applied), .replicasMissing:
            commandSucceeded()
            apply(update, toBoard: board)
            metrics.pushed(board: board)
        case .failed(let error):
            commandFailed(error)
        case .outcome:
            commandSucceeded()
        }
        completion(result)
    }

    // MARK: - Updates

    private func received(_ message: RedisSubscriber.Message) {
        guard let board = BoardKeys.board(ofUpdatesChannel: message.channel) else { return }
        do {
            apply(try BoardUpdate(payload: message.payload), toBoard: board)
        } catch {
            logger.error("an update of board \(board) from Redis cannot be read (\(error)); catching the board up")
            catchUp(board)
        }
    }

    /// The revision this node holds of `board`: its own, its tombstone's, or 0 for one it never had.
    func revision(of board: String) -> Int64 {
        if let live = boards[board] { return Int64(live.animator.revision) }
        return boards.deleted[board] ?? 0
    }

    /// Applies one update of `board` if it is the next one; one already held is ignored; after a gap, for a tick
    /// already composed, or when the result is not the state the accepting node computed, the board is caught up.
    private func apply(_ update: BoardUpdate, toBoard name: String, duringCatchUp: Bool = false) {
        if reloading.contains(name), !duringCatchUp {
            arrivedDuringReload[name, default: []].append(update)
            return
        }
        let held = revision(of: name)
        guard update.revision > held else {
            if !duringCatchUp, contradicts(update, held: held, board: name) {
                logger.warning(
                    "board \(name): Redis sent revision \(update.revision) (after \(update.base)), unlike the revision \(held) this node holds; Redis lost data? Reloading every board"
                )
                catchUpAll(reload: true)
            }
            return
        }
        guard update.base == held else {
            logger.notice("board \(name): update \(update.revision) follows \(update.base), this node holds \(held); catching up")
            return catchUp(name)
        }
        metrics.clusterUpdateReceived()
        let decoded: ClusterUpdate
        do {
            decoded = try JSONDecoder().decode(ClusterUpdate.self, from: Data(update.update))
        } catch {
            logger.error("board \(name): update \(update.revision) cannot be read (\(error)); catching up")
            return catchUp(name, force: true)
        }
        if case .delete = decoded.change {
            return deleted(name, revision: update.revision)
        }
        let change: Animator.Change
        do {
            change = try decoded.change.decoded()
        } catch {
            logger.error("board \(name): update \(update.revision) is refused by this node (\(error)); catching up")
            return catchUp(name, force: true)
        }
        guard let board = boards[name] else {
            guard case .restructure(let spec) = change else { return catchUp(name) }
            return adopt(spec, base: update.base, update: decoded)
        }
        var animator = board.animator
        let acceptance: Animator.ExactAcceptance
        do {
            acceptance = try animator.accept(change, exactlyAt: decoded.startTick, now: board.now(clock.currentTick()))
        } catch {
            logger.error("board \(name): update \(update.revision) does not fit this node's board (\(error)); catching up")
            return catchUp(name, force: true)
        }
        guard acceptance == .accepted else {
            metrics.clusterLateUpdate()
            logger.warning(
                "board \(name): update \(update.revision) starts at tick \(decoded.startTick), already sent here; reloading the board"
            )
            return catchUp(name, force: true)
        }
        board.animator = animator
        board.durable = animator.state
        board.etag = boards.etag(revision: update.revision)
        broadcaster?.changeAccepted(board, at: decoded.startTick)
        check(board, against: decoded)
    }

    /// Whether an update of a revision this node already holds is not the one it holds: a board's history that
    /// starts again (Redis lost its data and a node wrote the board since), or the same revision with another
    /// state. Copies of updates already applied (this node's own, from the subscription) are not.
    private func contradicts(_ update: BoardUpdate, held: Int64, board name: String) -> Bool {
        if update.base == 0, held > 1 { return true }
        guard update.revision == held, let board = boards[name] else { return false }
        return ClusterAnswer.digestBytes(ClusterUpdate.digest(of: board.animator.settledState)) != update.digest
    }

    /// A board another node created (or this node, applying its own write): built exactly as the accepting node
    /// built it.
    private func adopt(_ spec: BoardSpec, base: Int64, update: ClusterUpdate) {
        let animator: Animator
        do {
            animator = try Self.createdAnimator(spec: spec, fps: clock.fps, base: base, startTick: update.startTick)
        } catch {
            logger.error("board \(spec.name): its creation is refused by this node (\(error)); catching up")
            return catchUp(spec.name, force: true)
        }
        let board = boards.adopt(animator: animator, revision: update.revision)
        board.configured = configured[spec.name] ?? spec
        broadcaster?.boardAdded(board)
        broadcaster?.changeAccepted(board, at: update.startTick)
        check(board, against: update)
    }

    /// The animator of a board created with `spec` at `startTick`, its revisions following `base`: the same on
    /// every node.
    static func createdAnimator(spec: BoardSpec, fps: Int, base: Int64, startTick: Int64) throws(APIError) -> Animator {
        var animator = Animator(spec: spec, fps: fps, tick: startTick - 1)
        animator.raiseRevision(to: Int(base))
        _ = try animator.accept(.restructure(spec), exactlyAt: startTick, now: startTick - 1)
        return animator
    }

    /// The board was deleted at `revision`: no longer served, its viewers closed with 4404.
    private func deleted(_ name: String, revision: Int64) {
        let board = boards[name]
        boards.markDeleted(name, revision: revision)
        if let board { broadcaster?.boardRemoved(board, reason: "board deleted") }
        metrics.setViewers(0, board: name)
    }

    /// Compares the board's state with the digest the accepting node computed; a difference means this node
    /// went another way somewhere: it reloads the board.
    private func check(_ board: LiveBoard, against update: ClusterUpdate) {
        let digest = ClusterUpdate.digest(of: board.animator.settledState)
        guard digest != update.digest else { return }
        metrics.clusterDigestMismatch()
        logger.error(
            "board \(board.name): state digest \(digest) after revision \(update.revision), the accepting node had \(update.digest); reloading the board"
        )
        catchUp(board.name, force: true)
    }

    // MARK: - Catching up

    /// Reads `board`'s snapshot and the stream after this node's revision, and applies what this node lacks;
    /// `force` reloads the snapshot even when the revisions agree (a late update, a digest mismatch). `then`
    /// runs once done, whatever the outcome.
    func catchUp(_ board: String, force: Bool = false, then: (() -> Void)? = nil) {
        if force { reloading.insert(board) }
        if catchingUp[board] != nil {
            if let then { catchingUp[board]!.append(then) }
            // What is being read may predate what asks now (an update read in the catch-up that does not fit).
            if force { readAgain.insert(board) }
            return
        }
        catchingUp[board] = then.map { [$0] } ?? []
        guard let queue else { return finishCatchUp(board) }
        metrics.clusterCatchUp()
        let after = revision(of: board)
        let node = ServiceThreadBound(value: self)
        worker.submit { session in
            let result = Result { () throws(RedisError) in try Self.read(board, after: after, on: session.connection) }
            queue.async { node.value.caughtUp(board, result, force: force) }
        }
    }

    private func caughtUp(_ board: String, _ result: Result<BoardReading, RedisError>, force: Bool) {
        defer { finishCatchUp(board) }
        switch result {
        case .success(let reading):
            commandSucceeded()
            catchUp(board, with: reading, force: force)
        case .failure(let error):
            commandFailed(error)
        }
    }

    private func finishCatchUp(_ board: String) {
        let waiting = catchingUp.removeValue(forKey: board) ?? []
        if readAgain.remove(board) != nil {
            // The updates that arrived wait for the next reading; so do the writes waiting for this one.
            catchUp(board, force: true)
            catchingUp[board]?.append(contentsOf: waiting)
            return
        }
        reloading.remove(board)
        for update in arrivedDuringReload.removeValue(forKey: board) ?? [] {
            apply(update, toBoard: board)
        }
        for then in waiting { then() }
    }

    /// Catches every board up: the ones Redis has, the configured ones and the ones this node serves. Done at
    /// every (re)subscription, so nothing published while this node was not subscribed is missed.
    func catchUpAll(reload: Bool = false) {
        guard let queue else { return }
        if reload { reloadAll = true }
        guard !catchingUpAll else {
            catchUpAgain = true
            return
        }
        catchingUpAll = true
        let force = reloadAll
        reloadAll = false
        metrics.clusterCatchUp()
        let known = Dictionary(
            (boards.all.map(\.name) + configured.keys + boards.deleted.keys).map { ($0, revision(of: $0)) },
            uniquingKeysWith: { first, _ in first })
        let node = ServiceThreadBound(value: self)
        // A fresh candidate: should Redis have lost its data (and the id with it), no tag of the lost data may
        // name a state of the new.
        let candidate = String(UInt64.random(in: .min ... .max), radix: 36)
        worker.submit { session in
            let result = Result { () throws(RedisError) -> (id: String, readings: [String: BoardReading]) in
                let id = try session.connection.clusterID(candidate: candidate)
                var readings: [String: BoardReading] = [:]
                for board in Set(try session.connection.boardNames()).union(known.keys) {
                    readings[board] = try Self.read(board, after: known[board] ?? 0, on: session.connection)
                }
                return (id, readings)
            }
            queue.async { node.value.caughtUpAll(result, force: force) }
        }
    }

    /// `force` reloads every board from its snapshot (what this node holds contradicted Redis); so does a new
    /// cluster id, which means Redis lost its data.
    private func caughtUpAll(_ result: Result<(id: String, readings: [String: BoardReading]), RedisError>, force: Bool) {
        catchingUpAll = false
        switch result {
        case .success(let (id, readings)):
            // What `commandSucceeded` would start is done here.
            commandProblem = nil
            var force = force
            if id != boards.etagNonce {
                logger.warning(
                    "the cluster's id in Redis at \(endpoint.address) changed (its data was lost?); ETags now carry \(id)")
                boards.changeETagNonce(to: id)
                force = true
            }
            for (board, reading) in readings.sorted(by: { $0.key < $1.key }) {
                catchUp(board, with: reading, force: force)
            }
            if catchUpAgain {
                catchUpAgain = false
                catchUpAll()
            } else if subscription == .connected {
                caughtUp = true
                logger.notice("caught up with Redis at \(endpoint.address): \(readings.count) boards")
            }
        case .failure(let error):
            commandFailed(error)
            // Tried again once Redis answers (`pinged`), the subscription is made again, or each second.
            if force { reloadAll = true }
        }
    }

    /// What Redis holds of one board: its snapshot, and the stream after the revision this node held.
    struct BoardReading: Sendable {
        var snapshot: RingCastCluster.BoardSnapshot?
        var updates: [BoardUpdate]
    }

    private static func read(_ board: String, after revision: Int64, on connection: RedisConnection) throws(RedisError)
        -> BoardReading
    {
        let snapshot = try connection.readSnapshot(board: board)
        let updates = try connection.readStream(board: board, after: revision)
        return BoardReading(snapshot: snapshot, updates: updates)
    }

    private func catchUp(_ name: String, with reading: BoardReading, force: Bool) {
        let held = revision(of: name)
        guard let snapshot = reading.snapshot else {
            if held > 0 { forgotten(name) }
            return
        }
        // The stream continues this node's revision without a gap: apply the updates as they came.
        let updates = reading.updates.filter { $0.revision > held }
        if !force, let first = updates.first, first.base == held,
            zip(updates, updates.dropFirst()).allSatisfy({ $1.base == $0.revision })
        {
            for update in updates { apply(update, toBoard: name, duringCatchUp: true) }
            return
        }
        guard force || snapshot.revision > held else { return }
        restore(name, snapshot: snapshot)
        for update in reading.updates where update.revision > snapshot.revision {
            apply(update, toBoard: name, duringCatchUp: true)
        }
    }

    /// Serves `name` at the state Redis holds from now on, its viewers getting a keyframe (and the layout, if it
    /// changed).
    private func restore(_ name: String, snapshot: RingCastCluster.BoardSnapshot) {
        let source = "\(endpoint): board \(name)"
        let state: BoardState
        let animator: Animator
        do {
            switch try StateCodec.decode(snapshot.snapshot, configured: configured[name], fps: clock.fps, source: source) {
            case .deleted: return deleted(name, revision: snapshot.revision)
            case .unconfigured: return logger.warning("\(source) has state but is not configured here; not serving it")
            case .served(let served, let restored): (state, animator) = (served, restored)
            }
        } catch {
            return logger.error("cannot restore board \(name) from Redis: \(error)")
        }
        let spec = animator.spec
        logger.info("board \(name): reloaded revision \(snapshot.revision) from Redis")
        if let board = boards[name] {
            let reshaped = board.spec != spec
            board.animator = animator
            board.durable = state
            board.etag = boards.etag(revision: snapshot.revision)
            if reshaped {
                broadcaster?.boardsChanged(BoardChanges(changed: [board]))
            } else {
                broadcaster?.stateReplaced(board)
            }
        } else {
            let board = boards.adopt(animator: animator, revision: snapshot.revision)
            board.configured = configured[name] ?? spec
            broadcaster?.boardAdded(board)
            broadcaster?.stateReplaced(board)
        }
    }

    /// Redis has no state of a board this node holds a revision of: Redis lost its data (restarted without its
    /// AOF, or flushed). Redis is the truth: a configured board starts again empty, any other goes.
    private func forgotten(_ name: String) {
        logger.warning("Redis at \(endpoint.address) has no state of board \(name), which this node holds; following Redis")
        // The cluster's id went with the data: read (or make) the new one, and check every other board.
        catchUpAll()
        boards.forget(name)
        if let board = boards[name] {
            if let spec = configured[name] {
                board.animator = Animator(spec: spec, fps: clock.fps, tick: clock.currentTick())
                board.durable = board.animator.state
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
