import Foundation
import Logging
import RingCastCore
import RingCastTransport

/// The RingCast application on the service thread: boards, REST routes, viewers and storage.
/// The transport calls it for every dynamic request and WebSocket upgrade.
///
/// Touched only on the service thread (after `init`, which runs before the loop starts).
final class Application: TransportDelegate {
    private let configuration: RingCastConfiguration
    private let logger: Logger
    private let store: StateStore
    private let channels: [BoardChannel]
    private let channelsByName: [String: BoardChannel]
    /// Transport channel name → the board and encoding it carries.
    private let channelsByTransportName: [String: (BoardChannel, WireFormat)]
    private var broadcaster: Broadcaster?
    private var loop: EventLoop?
    private let access: AccessPolicy
    private let rateLimiter: RateLimiter
    private let idempotency = IdempotencyCache()
    private let metrics = ServerMetrics()
    private let openAPIDocument: [UInt8]?

    init(
        configuration: RingCastConfiguration,
        store: StateStore,
        openAPIDocument: [UInt8]?,
        logger: Logger
    ) throws(StateStoreError) {
        self.openAPIDocument = openAPIDocument
        self.configuration = configuration
        self.store = store
        self.logger = logger
        self.access = AccessPolicy(
            writeToken: configuration.writeToken,
            readToken: configuration.readToken,
            allowedOrigins: configuration.allowedOrigins
        )
        self.rateLimiter = RateLimiter(perMinute: configuration.writesPerMinute)
        let stored = try store.load()
        let channels = configuration.boards.map { spec in
            BoardChannel(board: Board(spec: spec), stored: stored.boards[spec.name] ?? StoredBoard())
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

    /// Connects the application to the loop it runs on; called once before the loop starts.
    func attach(to loop: EventLoop) {
        self.loop = loop
        // Restored here, where the loop's monotonic clock is at hand for the countdown's start.
        for channel in channels { restore(channel, at: loop.now()) }
        self.broadcaster = Broadcaster(loop: loop, channels: channels, fps: configuration.fps, metrics: metrics)
    }

    var framesPublished: Int { broadcaster?.framesPublished ?? 0 }

    /// Shows the stored targets at once, without replaying animations.
    private func restore(_ channel: BoardChannel, at now: Double) {
        let saved = channel.stored
        let countdown = saved.countdown.map { stored in
            Countdown(seconds: stored.seconds, start: now - (Broadcaster.wallClockMilliseconds() - stored.startedAt) / 1000)
        }
        let skipped = channel.board.restore(
            targets: saved.progress,
            colors: saved.colors,
            labelColors: saved.labelColors ?? [:],
            background: saved.background,
            countdown: countdown,
            revision: saved.revision
        )
        if !skipped.isEmpty {
            logger.warning("ignoring stored values board \(channel.name) no longer takes: \(skipped)")
        }
    }

    // MARK: - TransportDelegate

    func handleHTTP(_ request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void) {
        let started = ContinuousClock.now
        let response = route(request)
        let elapsed = ContinuousClock.now - started
        metrics.request(route: Route(path: request.path)?.label ?? "unknown", method: request.method, status: response.status)
        let line: Logger.Message = "\(request.method) \(request.path) \(response.status) \(elapsed) from \(request.peer)"
        switch response.status {
        case 500...: logger.error(line)
        case 400...: logger.notice(line)
        default: logger.info(line)
        }
        respond(response)
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
        return .accept(
            channel: channel.channel(format, resting: resting),
            greeting: broadcaster.greeting(for: channel, format: format)
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

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        guard let route = Route(path: request.path) else {
            return .error(.notFound("no such endpoint: \(request.path)"))
        }
        guard route.methods.contains(request.method) else {
            return .error(
                APIError(
                    status: 405,
                    code: "method_not_allowed",
                    message: "\(request.method) is not allowed on \(request.path); use \(route.methods.joined(separator: " or "))"
                ),
                headers: [(name: "Allow", value: route.methods.joined(separator: ", "))]
            )
        }
        let isWrite = request.method != "GET"
        do throws(APIError) {
            if route != .health && route != .ready {
                try access.check(isWrite ? .write : .read, request)
            }
            guard isWrite else { return try dispatch(route, request) }
            if let wait = rateLimiter.take(for: request.peer, at: now()) {
                let error = APIError(
                    status: 429,
                    code: "rate_limited",
                    message: "more than \(configuration.writesPerMinute) writes a minute from \(request.peer); retry in \(wait) s"
                )
                return .error(error, headers: [(name: "Retry-After", value: String(wait))])
            }
            guard let key = request.headers["idempotency-key"] else { return try dispatch(route, request) }
            return try idempotently(key: key, request) { () throws(APIError) in try dispatch(route, request) }
        } catch {
            return .error(error)
        }
    }

    /// Replays the first answer to a retried write instead of applying it twice.
    private func idempotently(
        key: String,
        _ request: HTTPRequest,
        _ body: () throws(APIError) -> HTTPResponse
    ) throws(APIError) -> HTTPResponse {
        guard !key.isEmpty, key.utf8.count <= 255 else {
            throw APIError.malformed("Idempotency-Key must be 1 to 255 characters", field: "Idempotency-Key")
        }
        let fingerprint = Array("\(request.method) \(request.path)\n".utf8) + request.body
        switch idempotency.lookup(key: key, fingerprint: fingerprint, at: now()) {
        case .replay(var response):
            response.headers.append((name: "Idempotent-Replayed", value: "true"))
            return response
        case .conflict:
            throw APIError(
                status: 422,
                code: "idempotency_key_reused",
                message: "this Idempotency-Key was used for a different request in the last 5 minutes",
                field: "Idempotency-Key"
            )
        case .miss:
            let response = try body()
            if (200..<300).contains(response.status) {
                idempotency.store(key: key, fingerprint: fingerprint, response: response, at: now())
            }
            return response
        }
    }

    private func dispatch(_ route: Route, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        switch (route, request.method) {
        case (.health, _):
            return .json(["status": "ok"])
        case (.ready, _):
            return .json(["status": "ready"])
        case (.openAPI, _):
            guard let openAPIDocument else {
                throw APIError.notFound("this server was started without its OpenAPI document (docs/openapi.yaml)")
            }
            return HTTPResponse(
                status: 200,
                headers: [(name: "Content-Type", value: "application/yaml; charset=utf-8")],
                body: openAPIDocument
            )
        case (.metrics, _):
            return HTTPResponse(
                status: 200,
                headers: [(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")],
                body: metrics.render(transport: loop?.statistics ?? TransportStatistics())
            )
        case (.boards, _):
            return .json(BoardList(boards: channels.map(BoardList.Entry.init)))
        case (.board(let name), "GET"):
            return boardResponse(try channel(named: name))
        case (.board(let name), _):
            let channel = try channel(named: name)
            let patch = try decodeBody(BoardPatch.self, of: request)
            return try write(to: channel, request: request) { board, now throws(APIError) in
                try board.apply(patch, at: now)
            }
        case (.background(let name), _):
            let channel = try channel(named: name)
            let update = try decodeBody(BackgroundUpdate.self, of: request)
            return try write(to: channel, request: request) { board, now throws(APIError) in
                try board.apply(update, at: now)
            }
        case (.countdown(let name), "POST"):
            let channel = try channel(named: name)
            let start = try decodeBody(CountdownStart.self, of: request)
            return try write(to: channel, request: request) { board, now throws(APIError) in
                try board.startCountdown(seconds: start.seconds, at: now)
            }
        case (.countdown(let name), _):
            let channel = try channel(named: name)
            guard channel.board.hasCountdownRing else {
                throw APIError.notFound("board \"\(name)\" has no countdown ring")
            }
            return try write(to: channel, request: request) { board, _ in board.cancelCountdown() }
        case (.ring(let name, let ringID), "GET"):
            let channel = try channel(named: name)
            guard let ring = channel.board.snapshot(at: now()).rings.first(where: { $0.id == ringID }) else {
                throw APIError.notFound("board \(name) has no ring \"\(ringID)\"", field: "ring")
            }
            return .json(ring)
        case (.ring(let name, let ringID), _):
            let channel = try channel(named: name)
            let update = try decodeBody(RingUpdate.self, of: request)
            return try write(to: channel, request: request) { board, now throws(APIError) in
                try board.apply(update, toRing: ringID, at: now)
            }
        }
    }

    private func channel(named name: String) throws(APIError) -> BoardChannel {
        guard let channel = channelsByName[name] else {
            throw APIError.notFound("no board named \"\(name)\"", field: "board")
        }
        return channel
    }

    private func now() -> Double { loop?.now() ?? 0 }

    private func boardResponse(_ channel: BoardChannel) -> HTTPResponse {
        .json(channel.board.snapshot(at: now()), headers: [(name: "ETag", value: etag(of: channel))])
    }

    /// Applies a change to a copy of the board, stores it durably, and only then makes it live:
    /// a rejected or unstorable request changes nothing, and a 2xx means it is on disk.
    private func write(
        to channel: BoardChannel,
        request: HTTPRequest,
        change: (inout Board, Double) throws(APIError) -> Void
    ) throws(APIError) -> HTTPResponse {
        let now = now()
        var board = channel.board
        board.settle(at: now)
        // A request that is wrong in itself is answered as such (400/422) before its precondition.
        try change(&board, now)
        if let expected = request.headers["if-match"], expected != "*", expected != etag(of: channel) {
            throw APIError(
                status: 412,
                code: "precondition_failed",
                message: "the board changed since \(expected); GET it again for the current ETag",
                field: "If-Match"
            )
        }
        let stored = StoredBoard(board, at: now)
        var state = StoredState(boards: Dictionary(uniqueKeysWithValues: channels.map { ($0.name, $0.stored) }))
        state.boards[channel.name] = stored
        do {
            try store.save(state)
        } catch {
            logger.error("cannot store the state: \(error)")
            throw APIError(
                status: 503, code: "storage_unavailable", message: "the change could not be stored durably and was not applied")
        }
        channel.board = board
        channel.stored = stored
        metrics.pushed(board: channel.name)
        broadcaster?.boardChanged(channel)
        return boardResponse(channel)
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

    /// A strong ETag over the stored targets: equal targets give equal tags, across restarts.
    private func etag(of channel: BoardChannel) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = (try? encoder.encode(channel.stored)) ?? Data()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a 64-bit offset basis
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3  // FNV-1a 64-bit prime
        }
        return "\"" + String(hash, radix: 16) + "\""
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

extension StoredBoard {
    /// What is stored of `board`; `now` is the board's monotonic time, to date a countdown.
    init(_ board: Board, at now: Double) {
        self.init(
            progress: board.targets,
            colors: board.targetColors,
            labelColors: board.targetLabelColors.isEmpty ? nil : board.targetLabelColors,
            background: board.background == board.spec.background ? nil : board.background,
            countdown: board.countdown.map { countdown in
                StoredCountdown(
                    seconds: countdown.seconds,
                    startedAt: Broadcaster.wallClockMilliseconds() - (now - countdown.start) * 1000
                )
            },
            revision: board.revision
        )
    }
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
            width = channel.board.spec.width
            height = channel.board.spec.height
            rings = channel.board.spec.rings.map(\.id)
            viewers = channel.totalViewers
        }
    }

    var boards: [Entry]
}
