import Logging
import RingCastCore
import RingCastTransport

/// Every REST request passes here, through the same steps in this order:
///
/// 1. **route**: the router's table: 404 for an unknown path, 405 with `Allow` for a method the
///    path does not answer.
/// 2. **origin** (writes): a page from another site may not write (403 `origin_not_allowed`).
/// 3. **auth**: the read or write token (401, 403); liveness and readiness need none.
/// 4. **rate limit** (writes): per client address (429 with `Retry-After`).
/// 5. **idempotency** (writes with `Idempotency-Key`): a retry gets the first answer (422 for a
///    reused key, 409 while the first is still being stored).
/// 6. **decode**: the board named in the path (404), then the body (415, 400, 422).
/// 7. **If-Match** (writes): against the board's ETag (412).
/// 8. **handler**: a read's answer, or the change a write makes (404 for a countdown on a board
///    without one).
/// 9. **store** (writes): the board checks the change (404 for an unknown ring, 422 for a ring
///    whose value the server computes), queues it from the next tick and hands it to the store
///    (503 while the store cannot commit).
/// 10. **respond**: reads at once; writes once durable, with the board as a GET shows it.
///
/// Every refusal changes nothing. Touched only on the service thread.
final class Pipeline {
    let router: Router
    private var origins: OriginPolicy
    private var tokens: TokenPolicy
    private var rateLimiter: RateLimiter
    private(set) var writesPerMinute: Int
    private let idempotency: IdempotencyCache
    let boards: Boards
    private let backend: WriteBackend
    let answers: BoardHandler
    let clock: TickClock

    /// The pipeline and its handlers for `configuration`'s boards; the server and the in-process
    /// tests both build it here. `viewers` counts a board's viewers and `transportStatistics`
    /// gives the transport's figures (both for reads only).
    init(
        configuration: RingCastConfiguration,
        boards: Boards,
        backend: WriteBackend,
        metrics: ServerMetrics,
        openAPIDocument: [UInt8]?,
        clock: TickClock,
        viewers: @escaping (String) -> Int = { _ in 0 },
        transportStatistics: @escaping () -> TransportStatistics = { TransportStatistics() }
    ) {
        let boardHandler = BoardHandler(boards: boards, clock: clock, viewers: viewers)
        router = .api(
            boards: boardHandler,
            rings: RingHandler(boards: boards, clock: clock),
            background: BackgroundHandler(),
            countdown: CountdownHandler(),
            operator: OperatorHandler(
                boards: boards, backend: backend, metrics: metrics, openAPIDocument: openAPIDocument, viewers: viewers,
                transportStatistics: transportStatistics)
        )
        origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        tokens = TokenPolicy(writeToken: configuration.writeToken, readToken: configuration.readToken)
        rateLimiter = RateLimiter(perMinute: configuration.writesPerMinute)
        writesPerMinute = configuration.writesPerMinute
        idempotency = IdempotencyCache(capacityBytes: configuration.idempotencyCacheBytes)
        self.boards = boards
        self.backend = backend
        self.answers = boardHandler
        self.clock = clock
    }

    /// Takes `configuration`'s tokens, origins and limits for the requests that follow (a reload);
    /// requests already answered or being stored are not affected. A new write rate starts every
    /// client with a full bucket.
    func apply(_ configuration: RingCastConfiguration) {
        origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        tokens = TokenPolicy(writeToken: configuration.writeToken, readToken: configuration.readToken)
        if configuration.writesPerMinute != writesPerMinute {
            rateLimiter = RateLimiter(perMinute: configuration.writesPerMinute)
            writesPerMinute = configuration.writesPerMinute
        }
        idempotency.resize(to: configuration.idempotencyCacheBytes)
    }

    /// Answers `request` through `respond`, exactly once: at once for reads and refusals, once
    /// durable for writes.
    func handle(_ request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void) {
        let route: Route
        let routed: RouteRequest
        switch router.match(request) {
        case .found(let found, let request):
            (route, routed) = (found, request)
        case .notFound:
            return respond(.error(.notFound("no such endpoint: \(request.path)")))
        case .methodNotAllowed(let allowed):
            let error = APIError(
                status: 405, code: "method_not_allowed",
                message: "\(request.method) is not allowed on \(request.path); use \(allowed.joined(separator: " or "))")
            return respond(.error(error, headers: [(name: "Allow", value: allowed.joined(separator: ", "))]))
        }
        do throws(APIError) {
            switch route.action {
            case .read(let handler):
                if route.access == .read { try tokens.check(.read, request) }
                respond(try handler(routed))
            case .write(let decode):
                try write(routed, needsBoard: route.access == .write, decode: decode, respond)
            }
        } catch {
            respond(.error(error))
        }
    }

    /// Steps 2–10 for a write.
    private func write(
        _ request: RouteRequest,
        needsBoard: Bool,
        decode: @escaping (RouteRequest) throws(APIError) -> BoardEdit,
        _ respond: @escaping (HTTPResponse) -> Void
    ) throws(APIError) {
        let http = request.http
        try origins.checkWrite(http)
        try tokens.check(.write, http)
        let writer: BoardWriter
        switch backend {
        case .store(let store): writer = store
        case .cluster(let node): return try clusterWrite(request, needsBoard: needsBoard, decode: decode, node: node, respond)
        }
        if let wait = rateLimiter.take(for: http.peer, at: clock.now()) {
            return respond(
                .rateLimited(
                    "more than \(writesPerMinute) writes a minute from \(http.peer); retry in \(wait) s", retryAfter: wait))
        }
        try idempotently(http, respond) { (respond) throws(APIError) in
            let name = request.parameter("board")
            let board = needsBoard ? try boards.board(named: name) : boards[name]
            let edit = try decode(request)
            if let expected = http.headers["if-match"] {
                guard let board else { throw .noBoardToMatch(name, expected) }
                if expected != "*", expected != board.etag { throw .changedSince(expected) }
            }
            switch try edit.write(board) {
            case .change(let change, let answer):
                guard let board else { throw APIError.notFound("no board named \"\(name)\"", field: "board") }
                try writer.apply(change, to: board) { [answers] error in
                    respond(error.map { .error($0) } ?? answers.answer(answer, of: board))
                }
            case .create(let spec):
                try writer.create(spec) { [answers] board, error in
                    respond(error.map { .error($0) } ?? answers.created(board))
                }
            case .delete:
                guard let board else { throw APIError.notFound("no board named \"\(name)\"", field: "board") }
                try writer.delete(board) { error in
                    respond(error.map { .error($0) } ?? HTTPResponse(status: 204))
                }
            }
        }
    }

    /// The `Idempotency-Key` of `request`, checked (at most 255 bytes), or nil without one; an empty
    /// value counts as no key (docs/openapi.yaml).
    static func idempotencyKey(of request: HTTPRequest) throws(APIError) -> String? {
        guard let key = request.headers["idempotency-key"], !key.isEmpty else { return nil }
        guard key.utf8.count <= 255 else {
            throw APIError.malformed(
                "Idempotency-Key must be at most 255 bytes, got \(key.utf8.count)", field: "Idempotency-Key")
        }
        return key
    }

    /// Runs `body` once per `Idempotency-Key`: a retry within 5 minutes gets the first answer
    /// again instead of being applied twice. Without the header, `body` just runs.
    private func idempotently(
        _ request: HTTPRequest,
        _ respond: @escaping (HTTPResponse) -> Void,
        _ body: (@escaping (HTTPResponse) -> Void) throws(APIError) -> Void
    ) throws(APIError) {
        guard let key = try Self.idempotencyKey(of: request) else { return try body(respond) }
        let digest = IdempotencyCache.digest(method: request.method, path: request.path, body: request.body)
        switch idempotency.begin(key: key, digest: digest, at: clock.now()) {
        case .replay(var response):
            response.headers.append((name: "Idempotent-Replayed", value: "true"))
            respond(response)
        case .conflict:
            throw .idempotencyKeyReused
        case .inFlight:
            throw APIError(
                status: 409, code: "idempotency_key_in_flight",
                message: "a request with this Idempotency-Key is still being applied; retry in a moment",
                field: "Idempotency-Key")
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
}

@available(*, unavailable)
extension Pipeline: Sendable {}
