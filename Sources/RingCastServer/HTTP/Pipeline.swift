import Dispatch
import Logging
import RingCastCore
import RingCastTransport

/// Every REST request passes here, through the same steps in this order, whatever the backend
/// (`BoardBackend`: the embedded store, or Redis in cluster mode):
///
/// 0. **host**: a `Host` the server does not answer to (`HostPolicy`, DNS rebinding) is 421.
/// 1. **route**: the router's table: 404 for an unknown path, 405 with `Allow` for a method the
///    path does not answer; `OPTIONS` is answered here (a CORS preflight, or `Allow`). From here on
///    every answer to a page on an allowed origin carries CORS headers (`OriginPolicy+CORS.swift`).
/// 2. **origin** (writes): a page from another site may not write (403 `origin_not_allowed`).
/// 3. **auth**: a token that may do what the route needs (`Route.needs`: read, write or admin) to the route's
///    board, or every board of its playlist (401, 403; counted in `/metrics` by token name); liveness and
///    readiness need none.
/// 4. **headers** (writes): the `Idempotency-Key` (400 over 255 bytes), `If-Match` and `If-None-Match` (400 for
///    anything but `*`).
/// 5. **admit** (writes): the client's rate (429 with `Retry-After`) and a repeated
///    `Idempotency-Key` (the first answer again, 422 for another request under it, 409 while it
///    is being applied), where the backend keeps them: here, or in Redis's script with the write.
/// 6. **decode**: the board named in the path (404), then the body (415, 400, 422).
/// 7. **If-Match** (writes): a tag of another run or history, or of a revision older than the
///    board's, is 412 here; the revision itself is compared when the write is committed.
///    `If-None-Match: *` is 412 here when the board exists (and in Redis's script, in a cluster).
/// 8. **handler and prepare**: a read's answer (a list of boards holds only those the token may read); for a
///    write, the change it makes, computed on a copy of the board (404 for an unknown ring, 422 for a value out
///    of range or a state that could not load again). A write that changes nothing is answered here.
/// 9. **commit** (writes): the backend makes it durable and applies it from its start tick (503
///    while it cannot commit: a write that is wrong in itself still hears why first); a cluster
///    that finds the board changed through another node computes the write again from step 6.
/// 10. **respond**: reads at once (an SVG once composed off the service thread, `SVGDocuments`); writes once
///     durable, with the board as a GET shows it.
///
/// A write of something other than a board (a playlist, `Route.Action.commit`) takes steps 0–3 here and its
/// handler the rest (`PlaylistHandler`), steps 4 and 5 through the same backend calls and with the same answers.
/// Every refusal changes nothing. Touched only on the service thread.
final class Pipeline {
    let router: Router
    private var hosts: HostPolicy
    private var origins: OriginPolicy
    private var tokens: TokenPolicy
    private let metrics: ServerMetrics
    let boards: Boards
    private let backend: any BoardBackend
    let answers: BoardHandler
    /// The playlists the routes read and write.
    let playlists: Playlists
    let clock: TickClock
    /// The plans of the layouts writes make; a big new shape is planned on `planning`, off the service thread.
    let layouts = LayoutPlanner()
    private let planning = DispatchQueue(label: "ringcast-layout")
    /// The SVG documents of `GET …svg`, composed off the service thread and kept while they are the picture.
    let svgDocuments: SVGDocuments
    /// Where planned shapes come back to; nil until `attach`, and then every shape is planned where it is asked for.
    private var queue: (any ServiceQueue)?

    /// The pipeline and its handlers for `configuration`'s boards; the server and the in-process
    /// tests both build it here. `viewers` counts a board's viewers and `transportStatistics`
    /// gives the transport's figures (both for reads only).
    init(
        configuration: RingCastConfiguration,
        boards: Boards,
        backend: any BoardBackend,
        metrics: ServerMetrics,
        openAPIDocument: [UInt8]?,
        clock: TickClock,
        viewers: @escaping (String) -> Int = { _ in 0 },
        transportStatistics: @escaping () -> TransportStatistics = { TransportStatistics() },
        loopViewers: @escaping () -> [Int] = { [] },
        playlists: Playlists? = nil,
        playlistViewers: @escaping (String) -> Int = { _ in 0 }
    ) {
        let boardHandler = BoardHandler(boards: boards, clock: clock, planner: layouts, viewers: viewers)
        let playlists = playlists ?? Playlists(fps: clock.fps)
        let svgDocuments = SVGDocuments(boards: boards, clock: clock)
        router = .api(
            boards: boardHandler,
            rings: RingHandler(boards: boards, clock: clock, planner: layouts),
            background: BackgroundHandler(),
            countdown: CountdownHandler(),
            operator: OperatorHandler(
                boards: boards, playlists: playlists, backend: backend, metrics: metrics, openAPIDocument: openAPIDocument,
                viewers: viewers, transportStatistics: transportStatistics, loopViewers: loopViewers),
            playlists: PlaylistHandler(
                playlists: playlists, boards: boards, backend: backend, metrics: metrics, clock: clock,
                viewers: playlistViewers),
            svg: SVGHandler(documents: svgDocuments),
            history: HistoryHandler(
                boards: boards, backend: backend, clock: clock, retention: configuration.historyRetention)
        )
        hosts = HostPolicy(configuration: configuration)
        origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        tokens = TokenPolicy(configuration: configuration)
        self.metrics = metrics
        self.boards = boards
        self.backend = backend
        self.answers = boardHandler
        self.playlists = playlists
        self.clock = clock
        self.svgDocuments = svgDocuments
    }

    /// Plans big layouts and composes SVG documents off the service thread from now on, handing them back through
    /// `queue`.
    func attach(queue: any ServiceQueue) {
        self.queue = queue
        svgDocuments.attach(queue: queue)
    }

    /// Takes `configuration`'s tokens, hosts, origins and limits for the requests that follow (a reload);
    /// requests already answered or being stored are not affected.
    func apply(_ configuration: RingCastConfiguration) {
        hosts = HostPolicy(configuration: configuration)
        origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        tokens = TokenPolicy(configuration: configuration)
    }

    /// Answers `request` through `respond`, exactly once: at once for reads and refusals, once
    /// durable for writes.
    func handle(_ request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void) {
        do throws(APIError) {
            try hosts.check(request)
        } catch {
            return respond(.error(error))
        }
        let cors = origins.corsHeaders(for: request)
        let answer: (HTTPResponse) -> Void =
            cors.isEmpty
            ? respond
            : { response in
                var response = response
                response.headers += cors
                respond(response)
            }
        let route: Route
        let routed: RouteRequest
        switch router.match(request) {
        case .found(let found, let request):
            (route, routed) = (found, request)
        case .options(let allowed, _):
            return respond(origins.options(request, allowed: allowed))
        case .notFound:
            return answer(.error(.notFound("no such endpoint: \(request.path)")))
        case .methodNotAllowed(let allowed, _):
            let error = APIError(
                status: 405, code: "method_not_allowed",
                message: "\(request.method) is not allowed on \(request.path); use \(allowed.joined(separator: " or "))")
            return answer(.error(error, headers: [(name: "Allow", value: allowed.joined(separator: ", "))]))
        }
        do throws(APIError) {
            switch route.action {
            case .read(let handler):
                try authorize(route, routed)
                var routed = routed
                routed.readableBoards = { [tokens] in tokens.readable(by: request) }
                answer(try handler(routed))
            case .readLater(let handler):
                try authorize(route, routed)
                try handler(routed, answer)
            case .write(let decode):
                try write(routed, route: route, decode: decode, answer)
            case .commit(let handler):
                // Steps 2 and 3; the handler does the rest for what is not a board.
                try origins.checkWrite(request)
                try authorize(route, routed)
                try handler(routed, answer)
            }
        } catch {
            answer(.error(error))
        }
    }

    /// Step 3: the token may do what `route` needs, where `request` asks; a refusal is counted by token name.
    private func authorize(_ route: Route, _ request: RouteRequest) throws(APIError) {
        guard var access = route.needs else { return }
        if route.autoCreates, boards.autoCreate != nil, let board = request.parameters["board"], boards[board] == nil {
            // Push-to-create makes a board here: creating boards is admin.
            access = .admin
        }
        let resource: TokenPolicy.Resource
        if let board = request.parameters["board"] {
            resource = .board(board)
        } else if let name = request.parameters["playlist"], access == .read {
            resource = .boards(playlists[name]?.playlist.boards ?? [], playlist: name)
        } else {
            resource = .server
        }
        do throws(TokenPolicy.Refusal) {
            try tokens.check(TokenPolicy.Need(access: access, resource: resource), request.http)
        } catch {
            metrics.refused(token: error.token, permission: error.permission)
            throw error.error
        }
    }

    /// Steps 2–10 for a write.
    private func write(
        _ request: RouteRequest,
        route: Route,
        decode: @escaping (RouteRequest) throws(APIError) -> BoardEdit,
        _ respond: @escaping (HTTPResponse) -> Void
    ) throws(APIError) {
        let http = request.http
        try origins.checkWrite(http)
        try authorize(route, request)
        // `force` (a reshape of a configured board, `Boards.checkReshape`) is read only where a write would reshape
        // one, but checked on every write first, so a bad value is 400 before any precondition is looked at.
        _ = try QueryFlag.value(of: "force", in: http.query)
        let write = WriteIntent(
            request: request, needsBoard: route.access == .write, decode: decode,
            idempotency: try Self.idempotencyKey(of: http).map { key in
                WriteIntent.Idempotency(
                    key: key, digest: IdempotencyCache.digest(method: http.method, path: http.path, body: http.body))
            },
            precondition: IfMatch(http.headers["if-match"], nonce: boards.etagNonce),
            createOnly: try Self.createOnly(http), returning: ReturnPreference(prefer: http.headers["prefer"]))
        if case .answered(let response) = try backend.admit(write) {
            return respond(response)
        }
        let chainable = if case .none = write.precondition { !write.createOnly } else { false }
        backend.serialize(board: write.board, chainable: chainable) { [self] done in
            attempt(write, tries: 0) { [backend] response, committed in
                backend.finished(write, with: committed ? response : nil)
                respond(response)
                done()
            }
        }
    }

    /// Steps 6–9: the write computed against the board as it is now and committed; computed again when the
    /// commit says the board changed elsewhere first, or once the big layouts it asked for are planned off the
    /// service thread (`LayoutPlanner`).
    /// `finish` gets the answer and whether it was committed.
    private func attempt(_ write: WriteIntent, tries: Int, _ finish: @escaping (HTTPResponse, Bool) -> Void) {
        let (step, wanted) = queue == nil ? (prepare(write), []) : layouts.deferringNewBigShapes { prepare(write) }
        if !wanted.isEmpty, let queue {
            // Nothing was changed yet: the write is prepared again, with the real plans, when they are found.
            let layouts = ServiceThreadBound(value: layouts)
            let retry = ServiceThreadBound(value: { [self] in attempt(write, tries: tries, finish) })
            planning.async {
                let plans = wanted.map { ($0, Arranger.plans(for: $0)) }
                queue.async {
                    for (shape, found) in plans { layouts.value.remember(found, for: shape) }
                    retry.value()
                }
            }
            return
        }
        let prepared: PreparedWrite
        switch step {
        case .answered(let response): return finish(response, false)
        case .prepared(let write): prepared = write
        }
        backend.commit(prepared, of: write, attempt: tries) { [self] outcome in
            switch outcome {
            case .answered(let response): finish(response, true)
            case .again: attempt(write, tries: tries + 1, finish)
            }
        }
    }

    /// What step 8 made of a write: an answer already (a refusal, or a write that changes nothing), or a write to
    /// commit.
    private enum Step {
        case answered(HTTPResponse)
        case prepared(PreparedWrite)
    }

    /// Steps 6–8 for `write`, against the board as this process holds it; nothing changes here.
    private func prepare(_ write: WriteIntent) -> Step {
        do throws(APIError) {
            let name = write.board
            let board: LiveBoard?
            if let projection = backend.projection(of: name) {
                board = projection
            } else {
                board = write.needsBoard ? try boards.board(named: name) : boards[name]
            }
            let edit = try write.decode(write.request)
            try Self.check(write.precondition, of: board, named: name)
            let change = try edit.write(board)
            // `If-None-Match: *` after the body is checked in full: a body that could not create the board (a bad
            // group, too many rings) is refused as such, not as a board that exists.
            if write.createOnly, board != nil { throw .alreadyExists("board \"\(name)\"") }
            switch try prepare(change, of: board, named: name, body: write.http.body, returning: write.returning) {
            case .unchanged(let answer, let revision):
                // Nothing is committed, so the revision is compared here.
                if let expected = write.precondition.revision, expected != revision {
                    throw .changedSince("\(write.precondition)")
                }
                return .answered(answer)
            case .write(let write): return .prepared(write)
            }
        } catch {
            return .answered(.error(error))
        }
    }

    /// Step 7: `If-Match` against the board as this process holds it. A tag of another run or history matches
    /// nothing, and one of a revision older than the board's is out of date; the revision itself is compared
    /// when the write is committed (a cluster node may hold an older revision than the tag's for a moment).
    private static func check(_ precondition: IfMatch, of board: LiveBoard?, named name: String) throws(APIError) {
        if case .none = precondition { return }
        guard let board else { throw .noBoardToMatch(name, "\(precondition)") }
        switch precondition {
        case .none, .any: return
        case .stale(let tag): throw .changedSince(tag)
        case .revision(let revision, let tag):
            if revision < Int64(board.animator.revision) { throw .changedSince(tag) }
        }
    }

    /// Step 8 for a write: what it does, its resulting state and its answer, computed on a copy of the board,
    /// starting at the earliest tick the backend allows. Nothing changes here.
    private func prepare(
        _ plan: BoardWrite, of board: LiveBoard?, named name: String, body: [UInt8], returning: ReturnPreference
    ) throws(APIError) -> Prepared {
        let now = clock.currentTick()
        let earliest = backend.earliestStart(now: now)
        let fps = clock.fps
        switch plan {
        case .change(let change, let answer):
            guard let board else { throw APIError.notFound("no board named \"\(name)\"", field: "board") }
            var trial = board.animator
            let base = Int64(trial.revision)
            let start = try trial.accept(change, at: max(earliest, board.startTick(now: now)), now: board.now(now))
            guard trial.revision == Int(base) + 1 else {
                return .unchanged(answers.answer(answer, of: board, returning: returning), revision: base)
            }
            // The answer reads every ring at the change's start: blended once a tick, not once a write.
            if returning == .representation { trial.primeForReading() }
            let etag = boards.etag(revision: base + 1)
            return .write(
                PreparedWrite(
                    kind: .change(board, change, after: trial), name: name, base: base, start: start, state: { trial.state },
                    settled: { trial.settledState },
                    answer: { [answers] board in answers.answer(answer, of: board, returning: returning) },
                    preview: { [answers] in
                        answers.answer(answer, of: LiveBoard(animator: trial, etag: etag), returning: returning)
                    }, body: body))
        case .create(let spec, let then):
            try boards.checkRoom()
            let base = boards.previousRevision(of: name)
            let animator = try Animator.created(spec: spec, fps: fps, base: base, startTick: earliest, then: then)
            let etag = boards.etag(revision: base + 1)
            return .write(
                PreparedWrite(
                    kind: .create(spec, animator, then: then), name: name, base: base, start: earliest,
                    state: { animator.state },
                    settled: { animator.settledState },
                    answer: { [answers] board in answers.created(board, returning: returning) },
                    preview: { [answers] in answers.created(LiveBoard(animator: animator, etag: etag), returning: returning) },
                    body: body))
        case .delete:
            guard let board else { throw APIError.notFound("no board named \"\(name)\"", field: "board") }
            let base = Int64(board.animator.revision)
            let tombstone = BoardState.tombstone(of: name, revision: base + 1, fps: fps)
            return .write(
                PreparedWrite(
                    kind: .delete(board), name: name, base: base, start: earliest, state: { tombstone },
                    settled: { tombstone }, answer: { _ in HTTPResponse(status: 204) }, preview: { HTTPResponse(status: 204) },
                    body: body))
        }
    }

    private enum Prepared {
        /// The write changes nothing (e.g. cancelling a countdown that is not running): answered at once, the
        /// board staying at `revision`.
        case unchanged(HTTPResponse, revision: Int64)
        case write(PreparedWrite)
    }

    /// The headers the pipeline reads that libwebsockets 4.1.6 does not know by name, so the transport
    /// must look them up (`TransportConfiguration.customHeaderNames`): its default two, the CORS
    /// preflight's `Access-Control-Request-Method`, and a write's `Prefer` (`ReturnPreference`).
    static let customHeaderNames = ["idempotency-key", "x-request-id", "access-control-request-method", "prefer"]

    /// Whether `request` asks to create only what does not exist (`If-None-Match: *`; empty counts as none, as for
    /// `Idempotency-Key`); any other value is 400:
    /// a write has no representation an entity tag could name but the one it would replace.
    static func createOnly(_ request: HTTPRequest) throws(APIError) -> Bool {
        guard let value = request.headers["if-none-match"], !value.isEmpty else { return false }
        guard value == "*" else {
            throw APIError.malformed(
                "If-None-Match on a write takes only * (create only if absent), got \(value.debugDescription)",
                field: "If-None-Match")
        }
        return true
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
}

@available(*, unavailable)
extension Pipeline: Sendable {}

extension Animator {
    /// The animator of a board created with `spec` at `startTick`, its revisions following `base`: the same in
    /// every process that creates it (a cluster's nodes build a board another node created this way). `then` is
    /// the write that created it (push-to-create), applied at the same tick as part of the one revision.
    static func created(
        spec: BoardSpec, fps: Int, base: Int64, startTick: Int64, then: Animator.Change? = nil
    ) throws(APIError) -> Animator {
        var animator = Animator(spec: spec, fps: fps, tick: startTick - 1)
        animator.raiseRevision(to: Int(base))
        let change: Animator.Change = then.map { .grow(spec, then: $0) } ?? .restructure(spec)
        _ = try animator.accept(change, exactlyAt: startTick, now: startTick - 1)
        return animator
    }
}
