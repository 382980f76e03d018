import Logging
import RingCastCluster
import RingCastCore
import RingCastStorage
import RingCastTransport

/// What the transport talks to: REST requests go through the `Pipeline`, WebSocket upgrades
/// through the `ViewerGate`, and every request is logged and counted once answered.
///
/// Touched only on the service thread (after `init`, which runs before the loop starts).
final class Application: TransportDelegate {
    let boards: Boards
    let playlists: Playlists
    let pipeline: Pipeline
    let backend: any BoardBackend
    private var gate: ViewerGate
    /// The configuration running now: the one started with, then each reload's.
    private var configuration: RingCastConfiguration
    private let clock: TickClock
    private let metrics: ServerMetrics
    private let logger: Logger
    private var loop: (any ServiceLoop)?
    private var broadcaster: Broadcaster?
    /// In cluster mode, how a node claims a countdown end's webhook so that one node POSTs it.
    private let webhookClaim: WebhookSender.Claim?

    init(
        configuration: RingCastConfiguration,
        storage: Storage,
        stored: [String: BoardState],
        openAPIDocument: [UInt8]?,
        logger: Logger,
        playlists storedPlaylists: [Playlist] = [],
        time: ManualTime? = nil
    ) {
        // The real-time clock, but in in-process tests, whose time moves only when they move it.
        let clock = time.map { TickClock(fps: configuration.fps, time: $0) } ?? TickClock(fps: configuration.fps)
        let metrics = ServerMetrics()
        var clusterID: String?
        if case .cluster(let join) = storage { clusterID = join.id }
        let boards = Boards(
            specs: configuration.boards, stored: stored, fps: configuration.fps, tick: clock.currentTick(), logger: logger,
            maximumBoards: configuration.maxBoards, maximumRings: configuration.maxRingsPerBoard, etagNonce: clusterID)
        // The one place the backend is chosen; everything else talks to `BoardBackend`.
        let backend: any BoardBackend
        switch storage {
        case .embedded(let store):
            backend = BoardWriter(
                store: store, boards: boards, clock: clock, queue: nil, metrics: metrics, configuration: configuration,
                logger: logger)
        case .cluster(let join):
            // Without --node, named once the port is bound (`nameNode`).
            backend = ClusterNode(
                name: join.node ?? "", endpoint: join.endpoint, worker: join.worker,
                configuration: configuration, boards: boards, clock: clock, metrics: metrics, logger: logger)
        }
        if case .cluster(let join) = storage {
            webhookClaim = ClusterNode.webhookClaim(worker: join.worker, node: join.node ?? "", logger: logger)
        } else {
            webhookClaim = nil
        }
        boards.webhookHosts = configuration.webhookHosts
        boards.autoCreate = configuration.autoCreate
        boards.defaultBoard = configuration.defaultBoard
        // The declared playlists, but for those written through the API (stored, or in Redis) under their names.
        let declared = configuration.playlists.filter { playlist in !storedPlaylists.contains { $0.name == playlist.name } }
        let playlists = Playlists(stored: storedPlaylists + declared, fps: configuration.fps, logger: logger)
        (backend as? ClusterNode)?.hold(playlists)
        self.playlists = playlists
        self.configuration = configuration
        self.clock = clock
        self.metrics = metrics
        self.boards = boards
        self.backend = backend
        self.logger = logger
        self.gate = ViewerGate(configuration: configuration, logger: logger, metrics: metrics)
        // Filled in by `attach`: the counts and figures only the running transport has.
        let transport = TransportFigures()
        self.pipeline = Pipeline(
            configuration: configuration, boards: boards, backend: backend, metrics: metrics, openAPIDocument: openAPIDocument,
            clock: clock,
            viewers: { transport.broadcaster?.viewers(of: $0) ?? 0 },
            transportStatistics: { transport.loop?.statistics ?? TransportStatistics() },
            loopViewers: { transport.loop?.viewerCounts ?? [] },
            playlists: playlists,
            playlistViewers: { transport.broadcaster?.playlists?.viewers(of: $0) ?? 0 })
        self.transport = transport
    }

    private let transport: TransportFigures

    /// Connects the application to the loop it runs on (the transport's `EventLoop`, or a test's); called once
    /// before the loop starts.
    func attach(to loop: any ServiceLoop) {
        let broadcaster = Broadcaster(loop: loop, boards: boards, clock: clock, metrics: metrics, logger: logger)
        let webhookSender = WebhookSender(logger: logger, claim: webhookClaim)
        metrics.webhookStatistics = { webhookSender.statistics }
        broadcaster.webhooks = CountdownWebhooks(
            loop: loop, clock: clock, sender: webhookSender,
            board: { [weak broadcaster] name in broadcaster?.stream(of: name)?.board },
            allowedHosts: { [boards] in boards.webhookHosts })
        // Timers can be set once the loop runs; the inbox runs this then.
        let playlistStreams = PlaylistStreams(loop: loop, clock: clock, playlists: playlists, broadcaster: broadcaster)
        broadcaster.playlists = playlistStreams
        broadcaster.scopes = ViewerScopes(tokens: TokenPolicy(configuration: configuration)) { id, closing in
            loop.close(id, code: closing.code, reason: closing.reason)
        }
        playlists.observer = playlistStreams
        let starting = ServiceThreadBound(value: broadcaster)
        loop.queue.async { starting.value.startWebhooks() }
        self.loop = loop
        self.broadcaster = broadcaster
        transport.loop = loop
        transport.broadcaster = broadcaster
        backend.attach(queue: loop.queue, broadcaster: broadcaster)
        pipeline.attach(queue: loop.queue)
    }

    /// In cluster mode, names the node (`--node`, else the address it listens on); before `attach`.
    func nameNode(_ name: String) {
        backend.name(name)
    }

    /// The node's name in cluster mode; nil when serving alone.
    var nodeName: String? {
        backend.nodeName
    }

    /// Ends cluster mode's subscription and Redis worker; nothing when serving alone. Any thread,
    /// once the loop has stopped.
    func stopCluster() {
        backend.stop()
    }

    /// Hands the boards' snapshots to the store (`BoardBackend.writeSnapshots`), so that the next start replays
    /// nothing. Once the loop has stopped, before the store closes.
    func writeSnapshots() {
        backend.writeSnapshots()
    }

    /// Gives up the countdown webhooks not delivered yet (and logs how many). Any thread, once the loop has
    /// stopped.
    func stopWebhooks() {
        broadcaster?.webhooks?.stop()
    }

    /// The first path segment of every route, for the transport to hand to `handleHTTP`.
    var dynamicPrefixes: [String] { pipeline.router.prefixes }

    var framesPublished: Int { broadcaster?.framesPublished ?? 0 }

    // MARK: - Reload

    /// Runs `requested` from now on without closing anyone, except the viewers of a board it
    /// removes (4404) and those whose token may no longer read what they watch (4403, 4401: `ViewerScopes`); viewers of a board whose layout it changes get the new layout in-band;
    /// restart-only settings are logged and kept. `stored` holds the store's records, for boards
    /// it adds. Returns false, having changed nothing, when the boards cannot take it.
    func reload(_ requested: RingCastConfiguration, stored: [StoredRecord]) -> Bool {
        let reload = ConfigurationReload(running: configuration, requested: requested)
        for setting in reload.needsRestart {
            logger.warning("reload: \(setting) needs a restart; keeping the running value")
        }
        let changes: BoardChanges
        do {
            changes = try boards.reconfigure(
                reload.configuration.boards,
                stored: Dictionary(stored.map { ($0.board, $0) }, uniquingKeysWith: { $1 }),
                tick: clock.currentTick(),
                source: "reload")
        } catch {
            reloadFailed(error)
            return false
        }
        broadcaster?.boardsChanged(changes)
        broadcaster?.closeViewers(of: changes.removed, code: 4404, reason: "board removed")
        for board in changes.removed {
            metrics.setViewers(0, board: board.name)
        }
        pipeline.apply(reload.configuration)
        backend.apply(reload.configuration, added: changes.added)
        boards.maximumBoards = reload.configuration.maxBoards
        boards.maximumRings = reload.configuration.maxRingsPerBoard
        boards.webhookHosts = reload.configuration.webhookHosts
        boards.autoCreate = reload.configuration.autoCreate
        boards.defaultBoard = reload.configuration.defaultBoard
        gate = ViewerGate(configuration: reload.configuration, logger: logger, metrics: metrics)
        broadcaster?.scopes?.tokensChanged(to: TokenPolicy(configuration: reload.configuration)) { [playlists] name in
            playlists[name]?.playlist.boards
        }
        configuration = reload.configuration
        metrics.configurationReloaded(succeeded: true)
        let summary =
            [
                changes.added.isEmpty ? nil : "added boards \(changes.added.map(\.name))",
                changes.removed.isEmpty ? nil : "removed boards \(changes.removed.map(\.name))",
                changes.changed.isEmpty ? nil : "changed boards \(changes.changed.map(\.name))",
            ].compactMap { $0 }
        let settings = reload.changed.isEmpty ? "nothing" : reload.changed.joined(separator: ", ")
        let boardsLine = summary.isEmpty ? "" : "; " + summary.joined(separator: "; ")
        logger.notice("configuration reloaded: changed \(settings)\(boardsLine)")
        return true
    }

    /// A reload was refused (the file or its values are invalid): logged with the error's own
    /// words, counted; the running configuration stays.
    func reloadFailed(_ error: any Error) {
        metrics.configurationReloaded(succeeded: false)
        logger.error("reload refused, keeping the running configuration: \(error)")
    }

    // MARK: - TransportDelegate

    /// The page may be framed by `embedOrigins` (DESIGN §14), read anew after each reload; the control page,
    /// which holds a write token and writes with it, never.
    func frameAncestors(forFile path: String) -> [String] {
        path.hasSuffix("/control.html") ? [] : configuration.embedOrigins
    }

    func handleHTTP(_ request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void) {
        let started = ContinuousClock.now
        let node = nodeName
        pipeline.handle(request) { [weak self] response in
            self?.answered(request, response, started: started)
            guard let node else { return respond(response) }
            var response = response
            response.headers.append((name: "X-RingCast-Node", value: node))
            respond(response)
        }
    }

    private func answered(_ request: HTTPRequest, _ response: HTTPResponse, started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        metrics.request(route: pipeline.router.label(for: request), method: request.method, status: response.status)
        let took = elapsed.logDescription
        let line: Logger.Message = "\(request.method) \(request.path) \(response.status) \(took) from \(request.peer)"
        switch response.status {
        case 500...: logger.error(line)
        case 400...: logger.notice(line)
        default: logger.info(line)
        }
    }

    func admitViewer(_ request: HTTPRequest, id: ViewerID) -> ViewerAdmission {
        guard let loop, let broadcaster else {
            return namingNode(.reject(.error(APIError(status: 503, code: "unavailable", message: "the server is starting"))))
        }
        let admission = gate.admit(request, id: id, loop: loop, broadcaster: broadcaster)
        if case .accept(let channel, _, _) = admission {
            var watching: ViewerScopes.Watching?
            if let key = channel as? PlaylistKey { watching = .playlist(key.playlist) }
            if let key = channel as? StreamKey { watching = .board(key.board) }
            if let watching {
                broadcaster.scopes?.admitted(id, watching: watching, credential: TokenPolicy.readCredential(in: request))
            }
        }
        return namingNode(admission)
    }

    func viewerDidDisconnect(_ id: ViewerID, channel: any ChannelKey) {
        broadcaster?.scopes?.left(id)
        logger.debug("viewer \(id) left \(channel)")
    }

    func errorResponse(status: Int, message: String) -> HTTPResponse {
        .error(APIError(status: status, code: Self.code(forStatus: status), message: message), headers: nodeHeaders)
    }

    private static func code(forStatus status: Int) -> String {
        switch status {
        case 400: "malformed"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 408: "request_timeout"
        case 411: "length_required"
        case 413: "payload_too_large"
        case 414: "uri_too_long"
        case 415: "unsupported_media_type"
        case 426: "upgrade_required"
        case 431: "headers_too_large"
        case 501: "not_implemented"
        // The transport's only 503: a request that arrived while the server drains (EventLoop+Drain).
        case 503: "shutting_down"
        case 505: "http_version_not_supported"
        default: status >= 500 ? "internal" : "error"
        }
    }
}

@available(*, unavailable)
extension Application: Sendable {}

/// Where a server keeps its boards: the embedded store of one process, or Redis shared by a cluster.
enum Storage {
    case embedded(any BoardStore)
    case cluster(ClusterJoin)
}

@available(*, unavailable)
extension Storage: Sendable {}

/// What a node needs to join its cluster, made before the server starts.
struct ClusterJoin {
    let endpoint: RedisEndpoint
    let worker: RedisWorker
    /// `--node`, or nil for HOST:PORT.
    let node: String?
    /// The cluster's id (`rc:cluster`), part of every ETag.
    let id: String
}

/// The running transport's loop and broadcaster, for the closures the pipeline was built with
/// before they existed. Service thread only.
private final class TransportFigures {
    var loop: (any ServiceLoop)?
    var broadcaster: Broadcaster?
}
