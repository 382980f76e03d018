import Foundation
import Logging
import RingCastCore
import RingCastStorage
import RingCastTransport

/// The RingCast application on the service thread: boards, REST routes, viewers and storage.
/// The transport calls it for every dynamic request and WebSocket upgrade.
///
/// A write is checked and queued on its board's animator at once (it starts at the next tick),
/// handed to the store, and answered once the store's batch holding it is durable; ticks and other
/// requests never wait for the disk. A write the store could not commit is answered 503 and its
/// board reverts to the last committed state.
///
/// Touched only on the service thread (after `init`, which runs before the loop starts).
final class Application: TransportDelegate {
    private let configuration: RingCastConfiguration
    private let logger: Logger
    private let store: any BoardStore
    private let clock: TickClock
    private let channels: [BoardChannel]
    private let channelsByName: [String: BoardChannel]
    /// Transport channel name → the board and encoding it carries.
    private let channelsByTransportName: [String: (BoardChannel, WireFormat)]
    private var broadcaster: Broadcaster?
    private var loop: EventLoop?
    private let access: AccessPolicy
    private let rateLimiter: RateLimiter
    private let idempotency: IdempotencyCache
    private let metrics = ServerMetrics()
    private let openAPIDocument: [UInt8]?
    /// False from a failed commit until a probe commits again: writes get 503, /readyz 503.
    private var storageHealthy = true
    private var storageProblem: String?
    private var probing = false
    /// Random per server run; part of every ETag.
    private let etagNonce: String
    /// Writes handed to the store, by id, until their batch is durable (or failed).
    private var pendingWrites: [UInt64: PendingWrite] = [:]
    private var nextWriteID: UInt64 = 0

    init(
        configuration: RingCastConfiguration,
        store: any BoardStore,
        stored: [String: BoardState],
        openAPIDocument: [UInt8]?,
        logger: Logger
    ) {
        self.openAPIDocument = openAPIDocument
        self.configuration = configuration
        self.store = store
        self.logger = logger
        self.clock = TickClock(fps: configuration.fps)
        self.access = AccessPolicy(
            writeToken: configuration.writeToken,
            readToken: configuration.readToken,
            allowedOrigins: configuration.allowedOrigins
        )
        self.rateLimiter = RateLimiter(perMinute: configuration.writesPerMinute)
        self.idempotency = IdempotencyCache(capacityBytes: configuration.idempotencyCacheBytes)
        let now = clock.currentTick()
        let nonce = String(UInt32.random(in: .min ... .max), radix: 36)
        self.etagNonce = nonce
        let channels = configuration.boards.map { spec in
            let animator = Self.animator(for: spec, stored: stored[spec.name], fps: configuration.fps, tick: now, logger: logger)
            return BoardChannel(animator: animator, etag: Self.etag(revision: Int64(animator.revision), nonce: nonce))
        }
        self.channels = channels
        self.channelsByName = Dictionary(uniqueKeysWithValues: channels.map { ($0.name, $0) })
        self.channelsByTransportName = Dictionary(
            uniqueKeysWithValues: channels.flatMap { channel in
                WireFormat.allCases.flatMap { format in
                    [false, true].map { resting in (channel.channel(format, resting: resting), (channel, format)) }
                }
            }
        )
    }

    /// The board's stored state, continued on the grid; a fresh board if none was stored. States are
    /// checked when loaded (`StateLoader`), so one that fails here was stored for another spec.
    private static func animator(for spec: BoardSpec, stored: BoardState?, fps: Int, tick: Int64, logger: Logger) -> Animator {
        guard let stored else { return Animator(spec: spec, fps: fps, tick: tick) }
        do {
            let animator = try Animator(spec: spec, fps: fps, state: stored)
            if !animator.skipped.isEmpty {
                logger.warning("ignoring stored values board \(spec.name) no longer takes: \(animator.skipped)")
            }
            return animator
        } catch {
            logger.error("cannot restore board \(spec.name) (\(error)); starting it empty")
            return Animator(spec: spec, fps: fps, tick: tick)
        }
    }

    /// Connects the application to the loop it runs on; called once before the loop starts.
    func attach(to loop: EventLoop) {
        self.loop = loop
        self.broadcaster = Broadcaster(loop: loop, channels: channels, clock: clock, metrics: metrics)
    }

    var framesPublished: Int { broadcaster?.framesPublished ?? 0 }

    // MARK: - TransportDelegate

    func handleHTTP(_ request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void) {
        let started = ContinuousClock.now
        route(request) { [weak self] response in
            self?.answered(request, response, started: started)
            respond(response)
        }
    }

    private func answered(_ request: HTTPRequest, _ response: HTTPResponse, started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        metrics.request(route: Route(path: request.path)?.label ?? "unknown", method: request.method, status: response.status)
        let line: Logger.Message = "\(request.method) \(request.path) \(response.status) \(elapsed) from \(request.peer)"
        switch response.status {
        case 500...: logger.error(line)
        case 400...: logger.notice(line)
        default: logger.info(line)
        }
    }

    func admitViewer(_ request: HTTPRequest, id: ViewerID) -> ViewerAdmission {
        do throws(APIError) {
            try access.checkOrigin(request)
            try access.check(.read, request)
        } catch {
            return .reject(.error(error))
        }
        let watching = channels.reduce(0) { $0 + $1.totalViewers }
        guard watching < configuration.maxViewers else {
            logger.warning("refusing a viewer: \(watching) of \(configuration.maxViewers) already watching")
            return .reject(
                .error(
                    APIError(
                        status: 503, code: "too_many_viewers",
                        message: "the server already has \(watching) viewers; try again later"),
                    headers: [(name: "Retry-After", value: "5")]
                )
            )
        }
        let name = request.query["board"] ?? channels[0].name
        guard let channel = channelsByName[name], let broadcaster else {
            return .reject(.error(.notFound("no board named \"\(name)\"", field: "board")))
        }
        guard let format = WireFormat(rawValue: request.query["format"] ?? "json") else {
            let other = request.query["format"] ?? ""
            return .reject(.error(.malformed("unknown format \"\(other)\"; expected json or binary", field: "format")))
        }
        let resting: Bool
        switch request.query["motion"] ?? "full" {
        case "full": resting = false
        case "reduced": resting = true
        case let other:
            return .reject(.error(.malformed("unknown motion \"\(other)\"; expected full or reduced", field: "motion")))
        }
        channel.viewers[format, default: 0] += 1
        metrics.setViewers(channel.totalViewers, board: channel.name)
        logger.debug("viewer \(id) joined \(channel.name) as \(format.rawValue) (\(channel.totalViewers) watching)")
        let greeting = broadcaster.greeting(for: channel, format: format)
        return .accept(
            channel: channel.channel(format, resting: resting),
            greeting: greeting.messages,
            sequence: UInt64(clamping: greeting.tick)
        )
    }

    func viewerDidDisconnect(_ id: ViewerID, channel name: String) {
        guard let (channel, format) = channelsByTransportName[name] else { return }
        channel.viewers[format] = max(0, channel.viewers[format, default: 0] - 1)
        metrics.setViewers(channel.totalViewers, board: channel.name)
        logger.debug("viewer \(id) left \(channel.name) (\(channel.totalViewers) watching)")
    }

    func errorResponse(status: Int, message: String) -> HTTPResponse {
        .error(APIError(status: status, code: Self.code(forStatus: status), message: message))
    }

    // MARK: - Routes

    /// Answers `request` through `respond`: at once for reads and refusals, once durable for writes.
    private func route(_ request: HTTPRequest, _ respond: @escaping (HTTPResponse) -> Void) {
        guard let route = Route(path: request.path) else {
            return respond(.error(.notFound("no such endpoint: \(request.path)")))
        }
        guard route.methods.contains(request.method) else {
            return respond(
                .error(
                    APIError(
                        status: 405,
                        code: "method_not_allowed",
                        message:
                            "\(request.method) is not allowed on \(request.path); use \(route.methods.joined(separator: " or "))"
                    ),
                    headers: [(name: "Allow", value: route.methods.joined(separator: ", "))]
                ))
        }
        let isWrite = request.method != "GET"
        do throws(APIError) {
            if route != .health && route != .ready {
                try access.check(isWrite ? .write : .read, request)
            }
            guard isWrite else { return respond(try read(route, request)) }
            if let wait = rateLimiter.take(for: request.peer, at: clock.now()) {
                let error = APIError(
                    status: 429,
                    code: "rate_limited",
                    message: "more than \(configuration.writesPerMinute) writes a minute from \(request.peer); retry in \(wait) s"
                )
                return respond(.error(error, headers: [(name: "Retry-After", value: String(wait))]))
            }
            guard let key = request.headers["idempotency-key"] else {
                return try write(route, request, respond)
            }
            try idempotently(key: key, request, respond) { (respond) throws(APIError) in
                try write(route, request, respond)
            }
        } catch {
            respond(.error(error))
        }
    }

    /// Replays the first answer to a retried write instead of applying it twice.
    private func idempotently(
        key: String,
        _ request: HTTPRequest,
        _ respond: @escaping (HTTPResponse) -> Void,
        _ body: (@escaping (HTTPResponse) -> Void) throws(APIError) -> Void
    ) throws(APIError) {
        guard !key.isEmpty, key.utf8.count <= 255 else {
            throw APIError.malformed("Idempotency-Key must be 1 to 255 characters", field: "Idempotency-Key")
        }
        let digest = IdempotencyCache.digest(method: request.method, path: request.path, body: request.body)
        switch idempotency.begin(key: key, digest: digest, at: clock.now()) {
        case .replay(var response):
            response.headers.append((name: "Idempotent-Replayed", value: "true"))
            respond(response)
        case .conflict:
            throw APIError(
                status: 422,
                code: "idempotency_key_reused",
                message: "this Idempotency-Key was used for a different request in the last 5 minutes",
                field: "Idempotency-Key"
            )
        case .inFlight:
            throw APIError(
                status: 409,
                code: "idempotency_key_in_flight",
                message: "a request with this Idempotency-Key is still being applied; retry in a moment",
                field: "Idempotency-Key"
            )
        case .miss:
            do throws(APIError) {
                try body { [idempotency, clock] response in
                    idempotency.finish(key: key, response: response, at: clock.now())
                    respond(response)
                }
            } catch {
                idempotency.abandon(key: key)
                throw error
            }
        }
    }

    private func read(_ route: Route, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        switch route {
        case .health:
            return .json(["status": "ok"])
        case .ready:
            guard storageHealthy else {
                return .json(
                    ReadinessProblem(status: "unavailable", reason: storageProblem ?? "the store cannot commit writes"),
                    status: 503
                )
            }
            return .json(["status": "ready"])
        case .openAPI:
            guard let openAPIDocument else {
                throw APIError.notFound("this server was started without its OpenAPI document (docs/openapi.yaml)")
            }
            return HTTPResponse(
                status: 200,
                headers: [(name: "Content-Type", value: "application/yaml; charset=utf-8")],
                body: openAPIDocument
            )
        case .metrics:
            return HTTPResponse(
                status: 200,
                headers: [(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")],
                body: metrics.render(
                    transport: loop?.statistics ?? TransportStatistics(),
                    store: store.statistics,
                    storeHealthy: storageHealthy
                )
            )
        case .boards:
            return .json(BoardList(boards: channels.map(BoardList.Entry.init)))
        case .board(let name):
            return boardResponse(try channel(named: name))
        case .ring(let name, let ringID):
            let channel = try channel(named: name)
            let snapshot = channel.animator.snapshot(at: clock.currentTick())
            guard let ring = snapshot.rings.first(where: { $0.id == ringID }) else {
                throw APIError.notFound("board \(name) has no ring \"\(ringID)\"", field: "ring")
            }
            return .json(ring)
        case .background, .countdown:
            throw APIError.notFound("no such endpoint: \(request.path)")
        }
    }

    /// Decodes a write into a change to one board, then applies it (`apply`).
    private func write(_ route: Route, _ request: HTTPRequest, _ respond: @escaping (HTTPResponse) -> Void) throws(APIError) {
        switch (route, request.method) {
        case (.board(let name), _):
            let channel = try channel(named: name)
            let patch = try decodeBody(BoardPatch.self, of: request)
            try apply(.patch(patch), to: channel, request, respond)
        case (.background(let name), _):
            let channel = try channel(named: name)
            let update = try decodeBody(BackgroundUpdate.self, of: request)
            try apply(.background(update), to: channel, request, respond)
        case (.countdown(let name), "POST"):
            let channel = try channel(named: name)
            let start = try decodeBody(CountdownStart.self, of: request)
            try apply(.startCountdown(seconds: start.seconds), to: channel, request, respond)
        case (.countdown(let name), _):
            let channel = try channel(named: name)
            guard channel.animator.projected.hasCountdownRing else {
                throw APIError.notFound("board \"\(name)\" has no countdown ring")
            }
            try apply(.cancelCountdown, to: channel, request, respond)
        case (.ring(let name, let ringID), _):
            let channel = try channel(named: name)
            let update = try decodeBody(RingUpdate.self, of: request)
            try apply(.ring(ringID, update), to: channel, request, respond)
        default:
            throw APIError.notFound("no such endpoint: \(request.path)")
        }
    }

    private func channel(named name: String) throws(APIError) -> BoardChannel {
        guard let channel = channelsByName[name] else {
            throw APIError.notFound("no board named \"\(name)\"", field: "board")
        }
        return channel
    }

    /// `GET /api/v1/boards/{board}` (and the answer to a write): encoded once per board, tick and
    /// ETag, so the writes answered together after one commit share the bytes.
    private func boardResponse(_ channel: BoardChannel) -> HTTPResponse {
        let tick = clock.currentTick()
        if let cached = channel.cachedResponse, cached.tick == tick, cached.etag == channel.etag {
            return cached.response
        }
        let response = HTTPResponse.json(channel.animator.snapshot(at: tick), headers: [(name: "ETag", value: channel.etag)])
        channel.cachedResponse = (tick, channel.etag, response)
        return response
    }

    /// Checks `change` and queues it on the board's animator (it starts at the next tick), hands the
    /// board's new state to the store, and answers once that is durable. A request that is wrong in
    /// itself is answered as such (400/422) before its precondition (412); either way, and while the
    /// store cannot commit (503), nothing changes.
    private func apply(
        _ change: Animator.Change,
        to channel: BoardChannel,
        _ request: HTTPRequest,
        _ respond: @escaping (HTTPResponse) -> Void
    ) throws(APIError) {
        guard storageHealthy, let broadcaster, let loop else {
            throw APIError(
                status: 503, code: "storage_unavailable",
                message: "the store cannot commit writes right now (\(storageProblem ?? "starting")); nothing was changed")
        }
        var animator = channel.animator
        let start = try animator.accept(change, at: broadcaster.startTick(for: channel))
        if let expected = request.headers["if-match"], expected != "*", expected != channel.etag {
            throw APIError(
                status: 412,
                code: "precondition_failed",
                message: "the board changed since \(expected); GET it again for the current ETag",
                field: "If-Match"
            )
        }
        let state = animator.state
        channel.animator = animator
        channel.etag = etag(revision: state.revision)
        broadcaster.changeAccepted(channel, at: start)
        nextWriteID += 1
        let id = nextWriteID
        pendingWrites[id] = PendingWrite(channel: channel, state: state, respond: respond)
        let application = ServiceThreadBound(value: self)
        let thread = loop.handle
        // Encoded on the store's writer thread, and only if it is the board's newest in its batch.
        let record = StoredRecord(board: channel.name, revision: state.revision) { (try? StateCodec.encode(state)) ?? [] }
        store.write([record]) { error in
            thread.perform { _ in application.value.writeFinished(id, error: error) }
        }
    }

    /// A write's batch was committed (or failed): answer it, keep what is durable, or revert.
    private func writeFinished(_ id: UInt64, error: StorageError?) {
        guard let write = pendingWrites.removeValue(forKey: id) else { return }
        let channel = write.channel
        guard let error else {
            channel.durable = write.state
            metrics.pushed(board: channel.name)
            // The board as a GET would show it now; the writes of one batch share one encoding.
            write.respond(boardResponse(channel))
            return
        }
        logger.error("cannot store board \(channel.name): \(error)")
        storageFailed(error)
        // Everything accepted since the last commit goes: the board shows what is durable.
        let handedOut = channel.animator.revision
        channel.animator = Self.animator(
            for: channel.spec, stored: channel.durable, fps: configuration.fps, tick: clock.currentTick(), logger: logger)
        // The revisions of the lost writes are never used again for other states.
        channel.animator.raiseRevision(to: handedOut)
        channel.etag = etag(revision: channel.durable.revision)
        broadcaster?.stateReplaced(channel)
        write.respond(
            .error(
                APIError(
                    status: 503, code: "storage_unavailable",
                    message: "the change could not be stored durably and was not applied (\(error.message))")))
    }

    /// Writes are refused and /readyz answers 503 until a probe commits again, once a second.
    private func storageFailed(_ error: StorageError) {
        storageHealthy = false
        storageProblem = error.message
        scheduleProbe()
    }

    private func scheduleProbe() {
        guard !probing, let loop else { return }
        probing = true
        let handle = ServiceThreadBound(value: self)
        let thread = loop.handle
        loop.schedule(after: 1) { [store] in
            store.probe { error in
                thread.perform { _ in
                    let application = handle.value
                    application.probing = false
                    if let error {
                        application.storageProblem = error.message
                        application.scheduleProbe()
                    } else {
                        application.logger.notice("the store commits again; accepting writes")
                        application.storageHealthy = true
                        application.storageProblem = nil
                    }
                }
            }
        }
    }

    private func decodeBody<T: Decodable>(_ type: T.Type, of request: HTTPRequest) throws(APIError) -> T {
        if let contentType = request.headers["content-type"], !Self.isJSON(contentType) {
            throw APIError(
                status: 415,
                code: "unsupported_media_type",
                message: "expected a JSON body (Content-Type: application/json), got \(contentType)",
                field: "Content-Type"
            )
        }
        guard !request.body.isEmpty else {
            throw APIError.malformed("the request body is empty; expected a JSON object")
        }
        try JSONShapeCheck.validate(request.body)
        return try RequestDecoder.decode(type, from: request.body)
    }

    /// JSON media types, plus curl's default for `-d` (form-urlencoded), so the README's
    /// `curl -X PATCH … -d '{…}'` works as written; the body must still be JSON.
    static func isJSON(_ contentType: String) -> Bool {
        let media =
            contentType.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return media == "application/json" || media == "text/json" || media.hasSuffix("+json")
            || media == "application/x-www-form-urlencoded"
    }

    /// The ETag of a board at `revision`: the revision and this server run's nonce. Revisions
    /// are never reused within a run (a revert skips the lost ones); the nonce keeps a tag of a
    /// write that was lost in a crash from naming another state after the restart.
    private func etag(revision: Int64) -> String {
        Self.etag(revision: revision, nonce: etagNonce)
    }

    private static func etag(revision: Int64, nonce: String) -> String {
        "\"\(revision)-\(nonce)\""
    }

    private static func code(forStatus status: Int) -> String {
        switch status {
        case 400: "malformed"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 408: "request_timeout"
        case 411: "length_required"
        case 413: "payload_too_large"
        case 415: "unsupported_media_type"
        default: status >= 500 ? "internal" : "error"
        }
    }
}

@available(*, unavailable)
extension Application: Sendable {}

/// A write the store has not answered yet, and what to answer once it has.
private struct PendingWrite {
    var channel: BoardChannel
    /// The board's state with this write, durable once the store says so.
    var state: BoardState
    var respond: (HTTPResponse) -> Void
}

/// Body of `GET /readyz` while the server cannot take writes.
private struct ReadinessProblem: Encodable {
    var status: String
    var reason: String
}

/// A value handed to another thread and back, only ever touched on the service thread: the
/// store's completion carries it to `EventLoop.perform`, which runs on that thread.
private struct ServiceThreadBound<Value>: @unchecked Sendable {
    let value: Value
}

/// Body of `GET /api/v1/boards`.
struct BoardList: Encodable {
    struct Entry: Encodable {
        var name: String
        var width: Double
        var height: Double
        var rings: [String]
        var viewers: Int

        init(_ channel: BoardChannel) {
            name = channel.name
            width = channel.spec.width
            height = channel.spec.height
            rings = channel.spec.rings.map(\.id)
            viewers = channel.totalViewers
        }
    }

    var boards: [Entry]
}
