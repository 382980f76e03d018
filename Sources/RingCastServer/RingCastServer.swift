import Dispatch
import Foundation
import Logging
import RingCastCluster
import RingCastCore
import RingCastStorage
import RingCastTransport
import Synchronization

/// A running RingCast: one port serving the dashboard, the REST API and the WebSocket endpoint.
///
/// `run()` turns the calling thread into the service thread; `start()` does the same on a new
/// thread (tests). `stop()` is safe from any thread and drains: requests already received are
/// answered, viewers closed with 1001, the store flushed, within `shutdownTimeout`.
public final class RingCastServer: Sendable {
    private let web: WebServer
    /// Retained here because the transport holds its delegate weakly; used only on the service
    /// thread, which `WebServer` serialises.
    private nonisolated(unsafe) let application: Application
    private let logger: Logger
    /// The embedded store; nil in cluster mode.
    private let store: (any BoardStore)?
    private let finished = DispatchSemaphore(value: 0)
    /// Seconds the drain may take (`RingCastConfiguration.shutdownTimeout`), for the log.
    private let shutdownTimeout: Int

    public let host: String
    public var port: Int { web.port }

    /// The URL people open, e.g. `http://127.0.0.1:8080`, or `https://…` when serving TLS.
    public var url: String {
        let shown = host == "0.0.0.0" || host == "::" ? "localhost" : host
        let scheme = web.isSecure ? "https" : "http"
        return "\(scheme)://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
    }

    fileprivate init(
        web: WebServer, application: Application, store: (any BoardStore)?, host: String, shutdownTimeout: Int, logger: Logger
    ) {
        self.web = web
        self.shutdownTimeout = shutdownTimeout
        self.application = application
        self.store = store
        self.host = host
        self.logger = logger
    }

    /// Serves until `stop()`, then drains; blocks the calling thread.
    public func run() {
        let drain = web.run()
        let flushing = ContinuousClock.now
        // Writes still queued are committed (every answered one already is), then the boards' snapshots; then the
        // data directory's lock is released.
        application.writeSnapshots()
        store?.close()
        application.stopCluster()
        application.stopWebhooks()
        if let drain {
            let seconds = drain.seconds + (ContinuousClock.now - flushing) / .seconds(1)
            if drain.timedOut {
                logger.warning("\(drain.logLine(seconds: seconds))")
            } else {
                logger.notice("\(drain.logLine(seconds: seconds))")
            }
        }
        let sent = web.loops.statistics
        logger.info(
            "stopped: \(application.framesPublished) frames published; \(sent.messagesSent) messages, \(sent.bytesSent) bytes sent; \(sent.messagesSkipped) frames skipped by slow viewers; \(sent.viewersClosedWhileStalled) stalled viewers closed"
        )
        finished.signal()
    }

    /// Serves on a new thread and returns at once.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "ringcast-service"
        thread.start()
    }

    /// Stops serving after a drain: no new connections; the requests already received are carried
    /// out and answered, those arriving meanwhile get 503 `shutting_down`; viewers are closed with
    /// 1001; the store is flushed; then `run()` returns — within `shutdownTimeout`, past which what is
    /// still open is cut (and logged). Safe from any thread; later calls change nothing.
    public func stop() {
        guard web.stop() else { return }
        logger.notice(
            "drain started: refusing new connections, answering the requests received, closing viewers with 1001; at most \(shutdownTimeout) s"
        )
    }

    /// Runs `configuration` from now on without a restart (what SIGHUP does): new tokens, allowed
    /// origins, write rate, viewer limit, Idempotency-Key cache size and boards take effect for
    /// the requests and viewers that follow; viewers stay connected, except those of a board it
    /// removes (closed with 4404) or whose layout it changes (1012, so the page reconnects).
    /// Settings only a restart can change (host, port, fps, webRoot, openAPIDocument, dataDir,
    /// maxBodyBytes, pingIntervalSeconds, stallTimeoutSeconds, shutdownTimeout) are logged and
    /// ignored. An invalid configuration changes nothing and is logged; `/metrics` counts both
    /// outcomes.
    ///
    /// Safe from any thread (it reads the store on the caller's thread, then hands over to the
    /// service thread). `completion`, if given, runs on the service thread with whether it took.
    public func reload(_ configuration: RingCastConfiguration, completion: (@Sendable (Bool) -> Void)? = nil) {
        let stored: [StoredRecord]
        do {
            try configuration.validate()
            // In cluster mode boards a reload adds are read from Redis once it took.
            stored = try store?.loadAll() ?? []
        } catch {
            return reloadFailed(error, completion: completion)
        }
        web.perform { [self] _ in
            let applied = application.reload(configuration, stored: stored)
            completion?(applied)
        }
    }

    /// Records a reload that could not even be loaded (the file's syntax or values): logged with
    /// the error's text, counted in `/metrics`; the running configuration stays. Any thread.
    public func reloadFailed(_ error: any Error, completion: (@Sendable (Bool) -> Void)? = nil) {
        let text = "\(error)"
        web.perform { [self] _ in
            application.reloadFailed(StartupError(text))
            completion?(false)
        }
    }

    /// Waits until `run()` has returned, at most `timeout` seconds; true when it did.
    @discardableResult
    public func waitUntilStopped(timeout: Double = 5) -> Bool {
        guard finished.wait(timeout: .now() + timeout) == .success else { return false }
        finished.signal()
        return true
    }
}

/// Builds the server the executable and the tests both run: restores the stored state, binds
/// the port and wires the routes. The port is listening when this returns.
public func buildServer(configuration: RingCastConfiguration, logger: Logger = Logger(label: "ringcast")) throws -> RingCastServer
{
    try configuration.validate()
    var webRoot: String?
    if let root = configuration.webRoot {
        let absolute = URL(fileURLWithPath: root).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute + "/index.html", isDirectory: &isDirectory), !isDirectory.boolValue
        else {
            throw configuration.error(key: "webRoot", "\(absolute) has no index.html")
        }
        webRoot = absolute
    }
    // Everything that can be refused before the store is opened (and its directory locked).
    var document: [UInt8]?
    if let path = configuration.openAPIDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw configuration.error(
                key: "openAPIDocument", "cannot read \(URL(fileURLWithPath: path).standardizedFileURL.path)")
        }
        document = Array(data)
    }
    let tls = try configuration.tlsFiles()
    let store: SQLiteStore?
    let storage: Storage
    let stored: [String: BoardState]
    let playlists: [Playlist]
    if let redis = configuration.redis {
        let join = try joinCluster(redis, configuration: configuration, logger: logger)
        store = nil
        storage = .cluster(join.join)
        stored = join.stored
        playlists = join.playlists
    } else {
        let directory = URL(fileURLWithPath: configuration.dataDirectory).standardizedFileURL.path
        let opened: SQLiteStore
        do {
            // Damage found at start is logged before the store opens; a LOCK file taken again, as it happens.
            let retention = ChangeRetention(
                seconds: Int64(configuration.historySeconds), changes: Int64(configuration.historyChanges))
            opened = try SQLiteStore(
                directory: directory, retention: retention, history: HistoryBound(configuration.historyRetention)
            ) {
                notice in
                switch notice.level {
                case .warning: logger.warning("\(notice)")
                case .error: logger.error("\(notice)")
                }
            }
        } catch {
            throw StartupError(error.description)
        }
        do {
            stored = try loadStates(from: opened, directory: directory, configuration: configuration, logger: logger)
            playlists = Playlists.loading(
                try opened.loadPlaylists().map { ($0.name, $0.definition) }, source: directory + "/" + SQLiteStore.fileName,
                logger: logger)
        } catch let error as StorageError {
            opened.close()
            throw StartupError(error.description)
        } catch {
            opened.close()
            throw error
        }
        store = opened
        storage = .embedded(opened)
    }
    let application = Application(
        configuration: configuration, storage: storage, stored: stored, openAPIDocument: document, logger: logger,
        playlists: playlists)
    logger.info("answering to \(HostPolicy(configuration: configuration)) (allowedHosts)")
    var transport = TransportConfiguration(
        host: configuration.host,
        port: configuration.port,
        webRoot: webRoot,
        websocketPath: "/ws",
        dynamicPrefixes: application.dynamicPrefixes,
        maxBodyBytes: configuration.maxBodyBytes,
        pingInterval: configuration.pingIntervalSeconds,
        stallTimeout: configuration.stallTimeoutSeconds,
        customHeaderNames: Pipeline.customHeaderNames,
        tls: tls,
        // Several nodes of a cluster may share the port on one machine (SO_REUSEPORT).
        sharePort: configuration.redis != nil,
        drainTimeout: Double(configuration.shutdownTimeout)
    )
    transport.loops = configuration.loops
    let web: WebServer
    do {
        web = try WebServer(configuration: transport, delegate: application)
    } catch {
        store?.close()
        application.stopCluster()
        throw error
    }
    application.nameNode(configuration.node ?? "\(configuration.host):\(web.port)")
    application.attach(to: web.loops)
    logger.info("serving on \(Counted(configuration.loops, "loop")) (loops)")
    return RingCastServer(
        web: web, application: application, store: store, host: configuration.host,
        shutdownTimeout: configuration.shutdownTimeout, logger: logger)
}

/// Joins the cluster on Redis at `url`: the cluster's id, and every board's state as Redis holds it (the
/// configured boards and the ones created through the API), checked as the embedded store's are. The node
/// catches up again once it is subscribed, for what was written in between.
private func joinCluster(_ url: String, configuration: RingCastConfiguration, logger: Logger) throws -> (
    join: ClusterJoin, stored: [String: BoardState], playlists: [Playlist]
) {
    let endpoint: RedisEndpoint
    let connection: RedisConnection
    var stored: [String: BoardState] = [:]
    var playlists: [Playlist] = []
    let id: String
    var script = WriteScript(streamLength: configuration.streamLength, history: RingHistory.Bound(configuration.historyRetention))
    do {
        endpoint = try RedisEndpoint(url: url)
        connection = try RedisConnection(endpoint: endpoint)
        id = try connection.clusterID(candidate: String(UInt64.random(in: .min ... .max), radix: 36))
        // Loaded now, so a Redis that refuses scripts stops the start rather than every write.
        try script.load(on: connection)
        let names = Set(try connection.boardNames()).union(configuration.boards.map(\.name))
        let clock = TickClock(fps: configuration.fps)
        for name in names.sorted() {
            // The newest snapshot and the changes after it, replayed (issue 32).
            let (found, updates) = try connection.readBoard(name, from: Int64.max)
            guard let snapshot = found else { continue }
            let source = "\(endpoint): board \(name)"
            let restored = try ClusterUpdate.restoring(
                snapshot, updates: updates, configured: configuration.board(named: name), fps: configuration.fps,
                tick: clock.currentTick(), source: source)
            for problem in restored.problems { logger.error("\(source): \(problem)") }
            switch restored.board {
            case .deleted: stored[name] = BoardState.tombstone(of: name, revision: restored.revision, fps: configuration.fps)
            case .served(let animator):
                stored[name] = animator.state
                warnIfMisnamed(name, source: source, logger: logger)
            case .unconfigured: logger.warning("\(source) has state but is not configured here; not serving it")
            }
        }
        // Declared playlists go into Redis unless one of the name is there, so that every node serves them (what
        // Redis holds replaces what a node serves): the same bytes from every node, anchored at the epoch.
        for playlist in configuration.playlists {
            let definition: [UInt8]
            do {
                definition = try playlist.stored()
            } catch {
                logger.error(
                    "\(endpoint): playlist \(playlist.name) is declared but cannot be encoded (\(error)); not writing it")
                continue
            }
            let outcome = try connection.writePlaylist(
                playlist.name, definition: definition, expected: .absent, maximum: Limits.maximumPlaylists)
            if outcome == .limitExceeded {
                logger.warning("\(endpoint): playlist \(playlist.name) is declared but Redis holds the most playlists already")
            }
        }
        playlists = Playlists.loading(
            try connection.readPlaylists().sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, source: "\(endpoint)",
            logger: logger)
    } catch let error as RedisError {
        throw StartupError("\(configuration.origins["cluster.redis"] ?? "cluster.redis"): \(error)")
    }
    let worker: RedisWorker
    do {
        worker = try RedisWorker(endpoint: endpoint, script: script)
    } catch {
        throw StartupError("\(configuration.origins["cluster.redis"] ?? "cluster.redis"): \(error)")
    }
    logger.notice("joined the cluster on Redis at \(endpoint.address) with \(Counted(stored.count, "stored board"))")
    return (ClusterJoin(endpoint: endpoint, worker: worker, node: configuration.node, id: id), stored, playlists)
}

/// A board stored under a name outside the rule (`Name`; one a configuration file took before the rule was one) is
/// served as it is stored, never dropped, and said to be outside the rule: the API reads, writes and deletes it,
/// but a PUT, a playlist or a token's pattern cannot name it.
private func warnIfMisnamed(_ name: String, source: String, logger: Logger) {
    guard let problem = Name.problem(of: name, as: .board) else { return }
    logger.warning(
        "\(source): \(problem); it is served as stored, but a PUT, a playlist or a token cannot name it: create a board of a name that follows the rule and DELETE this one"
    )
}

/// Every board's stored state, checked: its newest snapshot with the changes logged after it replayed (`ChangeLog`),
/// then written as its snapshot before anything is served, so that the log after it is on this start's grid. On the
/// first start after an upgrade, the old `state.json` migrated into the store (and kept as `state.json.migrated`).
func loadStates(
    from store: SQLiteStore,
    directory: String,
    configuration: RingCastConfiguration,
    logger: Logger
) throws -> [String: BoardState] {
    let database = directory + "/" + SQLiteStore.fileName
    let records: [StoredRecord]
    let logged: [String: [StoredChange]]
    do {
        records = try store.loadAll()
        logged = Dictionary(grouping: try store.loadChanges(), by: \.board)
    } catch {
        throw StartupError(error.description)
    }
    var states: [String: BoardState] = [:]
    var animators: [String: Animator] = [:]
    for record in records {
        let source = "\(database): board \(record.board)"
        // Boards created through the API carry their own spec; deleted ones are tombstones.
        switch try StateCodec.decode(
            record.state, configured: configuration.board(named: record.board), fps: configuration.fps, source: source)
        {
        case .deleted(let state): states[record.board] = state
        case .served(let state, let animator):
            states[record.board] = state
            // Replayed on the grid it was stored on, as its changes were logged.
            animators[record.board] = try StateCodec.check(state, for: animator.spec, fps: state.fps, source: source)
            warnIfMisnamed(record.board, source: source, logger: logger)
        case .unconfigured:
            logger.warning("\(database): board \(record.board) is stored but not configured; keeping it untouched")
        }
    }
    var snapshots: [StoredRecord] = []
    for (name, changes) in logged.sorted(by: { $0.key < $1.key }) {
        // A configured board written to but never snapshotted starts from its configured spec, at rest.
        guard let first = changes.first, states[name]?.deleted != true,
            let animator = animators[name]
                ?? configuration.board(named: name).map({ Animator(spec: $0, fps: first.fps, tick: first.tick - 1) })
        else {
            logger.warning(
                "\(database): board \(name) has \(Counted(changes.count, "logged change")) but no state to replay them onto; ignoring them"
            )
            continue
        }
        let began = ContinuousClock.now
        let replayed = ChangeLog.replay(changes, onto: animator)
        let took = (ContinuousClock.now - began) / .seconds(1)
        if !replayed.skipped.isEmpty {
            logger.warning(
                "\(database): board \(name): \(Counted(replayed.skipped.count, "logged change")) no longer apply and are left out: \(replayed.skipped.prefix(5).joined(separator: "; "))"
            )
        }
        let state = replayed.animator.state
        states[name] = state
        snapshots.append(
            StoredRecord(board: name, revision: Int64(replayed.animator.revision), state: try StateCodec.encode(state)))
        logger.notice(
            "\(database): board \(name): \(Counted(replayed.applied, "logged change")) replayed in \(took.formatted(.number.precision(.fractionLength(3)))) s"
        )
    }
    if !snapshots.isEmpty {
        try write(snapshots, to: store, what: "the replayed boards' snapshots", database: database)
    }
    let legacy = LegacyState.fileName(in: directory)
    let clock = TickClock(fps: configuration.fps)
    guard records.isEmpty,
        let migrated = try LegacyState.states(at: legacy, boards: configuration.boards, clock: clock, tick: clock.currentTick())
    else { return states }
    if !migrated.skipped.isEmpty {
        logger.warning("\(legacy): not migrating values the boards no longer take: \(migrated.skipped)")
    }
    let converted = try migrated.states.map { name, state in
        StoredRecord(board: name, revision: state.revision, state: try StateCodec.encode(state))
    }
    try write(converted, to: store, what: "\(legacy) migrated", database: database)
    guard rename(legacy, legacy + ".migrated") == 0 else {
        throw StartupError("\(legacy) was migrated into \(database) but cannot be renamed: \(String(cString: strerror(errno)))")
    }
    logger.notice("migrated \(legacy) into \(database); the old file is kept as state.json.migrated")
    return migrated.states
}

/// Writes `records` before the server starts, waiting for the commit.
private func write(_ records: [StoredRecord], to store: SQLiteStore, what: String, database: String) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = Mutex<StorageError?>(nil)
    store.write(records) { error in
        failure.withLock { $0 = error }
        done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) {
        throw StartupError("cannot write \(what) into \(database): \(error)")
    }
}
