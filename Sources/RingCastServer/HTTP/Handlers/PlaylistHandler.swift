import RingCastCluster
import RingCastCore
import RingCastTransport

/// `/api/v1/playlists` and `/api/v1/playlists/{playlist}` (DESIGN §13): the list, one playlist with where it stands
/// now, and creating, replacing and deleting one. A write takes the board writes' steps (`Pipeline`), with the same
/// answers: the pipeline has checked the origin and the write token; the rest is here, in this order: the
/// `Idempotency-Key` and `If-None-Match` (400), the client's rate (429, counted with its board writes in
/// `limits.writesPerMinute`) and a repeated key (the first answer again, 422, 409), where the backend keeps them
/// (here, or Redis's script with the write); the name (422), the body (415, 400, 422), the boards it names (422, each
/// must be served); then, one write at a time, `If-Match` and `If-None-Match: *` (412) and the limit (422) against
/// the playlists as they are, and the commit (503 when it cannot be stored). A write is answered once durable, and
/// applied here at once (on other cluster nodes once Redis's notification is read). A replacement takes effect at
/// its anchor: the next whole second at least the backend's lead after the write, so that every node switches on
/// the same tick. Touched only on the service thread.
final class PlaylistHandler {
    private let playlists: Playlists
    private let boards: Boards
    private let backend: any PlaylistBackend
    private let metrics: ServerMetrics
    private let clock: TickClock
    /// Viewers of a playlist, by name, as the transport counts them.
    private let viewers: (String) -> Int
    /// Writes waiting for the one being committed: one at a time, so each is checked against the last one's
    /// outcome.
    private var waiting: [(@escaping () -> Void) -> Void] = []
    private var writing = false

    init(
        playlists: Playlists, boards: Boards, backend: any PlaylistBackend, metrics: ServerMetrics, clock: TickClock,
        viewers: @escaping (String) -> Int
    ) {
        self.playlists = playlists
        self.boards = boards
        self.backend = backend
        self.metrics = metrics
        self.clock = clock
        self.viewers = viewers
    }

    // MARK: - Reads

    /// `GET /api/v1/playlists`.
    func list(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        let tick = clock.currentTick()
        return .json(PlaylistList(playlists: playlists.all.map { reading(of: $0, at: tick) }))
    }

    /// `GET /api/v1/playlists/{playlist}`.
    func show(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        answer(try playlists.playlist(named: request.parameter("playlist")))
    }

    // MARK: - Writes

    /// `PUT /api/v1/playlists/{playlist}`: 201 for a new playlist, 200 for a replaced one (or the same definition
    /// again, which changes nothing), with the playlist as a GET shows it.
    func put(_ request: RouteRequest, respond: @escaping (HTTPResponse) -> Void) throws(APIError) {
        let createOnly = try Pipeline.createOnly(request.http)
        try admitted(request, respond) { [self] idempotency, respond throws(APIError) in
            let name = try Self.checkedName(request.parameter("playlist"))
            let definition = try BodyDecoder.decode(PlaylistDefinition.self, from: request.http)
            for (index, board) in definition.boards.enumerated() where boards[board] == nil {
                throw .invalidValue(
                    "no board named \(board.debugDescription) is served here; create it first, or leave it out",
                    field: "boards.\(index)")
            }
            let ifMatch = request.http.headers["if-match"]
            let returning = ReturnPreference(prefer: request.http.headers["prefer"])
            serialize { [self] done in
                let finish = { (response: HTTPResponse, committed: Bool) in
                    respond(response, committed)
                    done()
                }
                let existing = playlists[name]
                let expected: PlaylistExpectation
                do throws(APIError) {
                    expected = try Self.expectation(ifMatch, createOnly: createOnly, of: existing, named: name)
                    if existing == nil, playlists.count >= Limits.maximumPlaylists { throw Self.limitExceeded }
                } catch {
                    return finish(.error(error), false)
                }
                let unchanged = existing?.playlist.definition == definition
                if let existing, unchanged, idempotency == nil {
                    return finish(written(existing, created: false, returning: returning), false)
                }
                // With an Idempotency-Key even the same definition again is committed (the same bytes, its anchor
                // kept), so that a retry gets this answer again wherever the backend keeps it (Redis's script).
                let playlist =
                    (unchanged ? existing?.playlist : nil) ?? Playlist(name: name, definition: definition, anchor: anchor())
                // The answer as it will be, for a cluster to keep for a retry with the same Idempotency-Key; a
                // playlist that cannot be encoded is answered 500 here, before anything is written.
                let preview: LivePlaylist
                do throws(EncodingFailure) {
                    preview = try LivePlaylist(existing?.playlist ?? playlist, fps: clock.fps)
                    if existing != nil, !unchanged { try preview.replace(with: playlist) }
                } catch {
                    return finish(.error(.unencodable(error)), false)
                }
                let write = PlaylistWriteRequest(
                    client: request.http.peer, idempotency: idempotency,
                    preview: written(preview, created: existing == nil, returning: returning))
                backend.commit(playlist: name, playlist, expected: expected, request: write) { [self] result in
                    switch result {
                    case .success(.written):
                        // The preview encoded this playlist already, so serving it cannot fail to encode it now.
                        do throws(EncodingFailure) {
                            try playlists.set(playlist)
                        } catch {
                            return finish(.error(.unencodable(error)), true)
                        }
                        metrics.playlistWritten(name)
                        guard let live = playlists[name] else { return finish(.error(Self.unavailable), true) }
                        finish(written(live, created: existing == nil, returning: returning), true)
                    case .success(let outcome):
                        finish(Self.answer(outcome, name: name, ifMatch: ifMatch, createOnly: createOnly), true)
                    case .failure(let error): finish(.error(error), true)
                    }
                }
            }
        }
    }

    /// `DELETE /api/v1/playlists/{playlist}` (204): its viewers are closed with 4404.
    func delete(_ request: RouteRequest, respond: @escaping (HTTPResponse) -> Void) throws(APIError) {
        let createOnly = try Pipeline.createOnly(request.http)
        try admitted(request, respond) { [self] idempotency, respond throws(APIError) in
            let name = request.parameter("playlist")
            _ = try BodyDecoder.decode(NoBody.self, from: request.http)
            let ifMatch = request.http.headers["if-match"]
            serialize { [self] done in
                let finish = { (response: HTTPResponse, committed: Bool) in
                    respond(response, committed)
                    done()
                }
                let expected: PlaylistExpectation
                do throws(APIError) {
                    let existing = try playlists.playlist(named: name)
                    expected = try Self.expectation(ifMatch, createOnly: createOnly, of: existing, named: name)
                } catch {
                    return finish(.error(error), false)
                }
                let write = PlaylistWriteRequest(
                    client: request.http.peer, idempotency: idempotency, preview: HTTPResponse(status: 204))
                backend.commit(playlist: name, nil, expected: expected, request: write) { [self] result in
                    switch result {
                    case .success(.written), .success(.notFound):
                        // Gone either way: another node deleted it first, and this one had not heard yet.
                        playlists.remove(name)
                        metrics.playlistWritten(name)
                        finish(HTTPResponse(status: 204), true)
                    case .success(let outcome):
                        finish(Self.answer(outcome, name: name, ifMatch: ifMatch, createOnly: createOnly), true)
                    case .failure(let error): finish(.error(error), true)
                    }
                }
            }
        }
    }

    /// Steps 4 and 5 of a write, as the pipeline takes them for a board's, with the same answers: the
    /// `Idempotency-Key` (400 over 255 bytes), then the client's rate (429) and a repeated key (its first answer
    /// again, 422 for another request under it, 409 while it is being applied) where the backend keeps them; then
    /// `write`, which answers through its second argument exactly once, saying whether the write reached its commit
    /// (only such an answer is kept for the key; any other frees it). What `write` throws is answered at once.
    private func admitted(
        _ request: RouteRequest, _ respond: @escaping (HTTPResponse) -> Void,
        _ write: (WriteIntent.Idempotency?, @escaping (HTTPResponse, Bool) -> Void) throws(APIError) -> Void
    ) throws(APIError) {
        let http = request.http
        let idempotency = try Pipeline.idempotencyKey(of: http).map { key in
            WriteIntent.Idempotency(
                key: key, digest: IdempotencyCache.digest(method: http.method, path: http.path, body: http.body))
        }
        if case .answered(let response) = try backend.admitPlaylistWrite(from: http.peer, idempotency: idempotency) {
            return respond(response)
        }
        let finish = { [backend] (response: HTTPResponse, committed: Bool) in
            backend.finishedPlaylistWrite(idempotency, with: committed ? response : nil)
            respond(response)
        }
        do throws(APIError) {
            try write(idempotency, finish)
        } catch {
            finish(.error(error), false)
        }
    }

    /// Runs `body` once the writes before it are answered; `body` calls its argument when it is.
    private func serialize(_ body: @escaping (@escaping () -> Void) -> Void) {
        guard !writing else { return waiting.append(body) }
        writing = true
        body { [weak self] in
            guard let self else { return }
            writing = false
            if !waiting.isEmpty { serialize(waiting.removeFirst()) }
        }
    }

    /// The anchor of a playlist written now: the first whole second at or after the earliest tick the backend lets
    /// a write take effect at (the next tick alone, the lead in a cluster).
    private func anchor() -> Int64 {
        let fps = Int64(clock.fps)
        let earliest = backend.earliestStart(now: clock.currentTick())
        return (earliest + fps - 1) / fps
    }

    // MARK: - Answers

    /// The answer to a durable `PUT`: the playlist as a GET shows it, 201 with its Location when new; with
    /// `Prefer: return=minimal` (RFC 7240) the status, ETag and Location alone (204 for a replaced one).
    private func written(_ playlist: LivePlaylist, created: Bool, returning: ReturnPreference) -> HTTPResponse {
        if returning == .minimal {
            var headers = [(name: "ETag", value: playlist.etag), ReturnPreference.applied]
            if created { headers.insert((name: "Location", value: "/api/v1/playlists/\(playlist.name)"), at: 1) }
            return HTTPResponse(status: created ? 201 : 204, headers: headers)
        }
        var response = answer(playlist)
        if created {
            response.status = 201
            response.headers.append((name: "Location", value: "/api/v1/playlists/\(playlist.name)"))
        }
        return response
    }

    /// The playlist as a GET shows it, with its ETag.
    private func answer(_ playlist: LivePlaylist) -> HTTPResponse {
        .json(reading(of: playlist, at: clock.currentTick()), headers: [(name: "ETag", value: playlist.etag)])
    }

    private func reading(of playlist: LivePlaylist, at tick: Int64) -> PlaylistReading {
        let position = playlist.timeline.position(at: tick) { [boards] in boards[$0] != nil }
        return PlaylistReading(playlist.playlist, position: position, fps: clock.fps, viewers: viewers(playlist.name))
    }

    private static func checkedName(_ name: String) throws(APIError) -> String {
        try Name.check(name, as: .playlist, field: "playlist")
        return name
    }

    /// What `If-Match` and `If-None-Match: *` (`createOnly`) ask of the playlist as this process holds it: 412 at
    /// once when they already fail here; otherwise checked again where the write is committed (Redis, in a cluster).
    private static func expectation(
        _ ifMatch: String?, createOnly: Bool, of playlist: LivePlaylist?, named name: String
    ) throws(APIError) -> PlaylistExpectation {
        if createOnly {
            if ifMatch != nil, playlist == nil { return try expectation(ifMatch, createOnly: false, of: nil, named: name) }
            if playlist != nil { throw .alreadyExists("playlist \"\(name)\"") }
            return .absent
        }
        guard let ifMatch else { return .none }
        guard let playlist else {
            throw APIError(
                status: 412, code: "precondition_failed", message: "there is no playlist \"\(name)\" to match \(ifMatch)",
                field: "If-Match")
        }
        if ifMatch == "*" { return .exists }
        guard ifMatch == playlist.etag else { throw changed(name, since: ifMatch) }
        return .definition(playlist.stored)
    }

    private static func changed(_ name: String, since ifMatch: String?) -> APIError {
        APIError(
            status: 412, code: "precondition_failed",
            message: "playlist \"\(name)\" changed since \(ifMatch ?? "then"); GET it again for the current ETag",
            field: "If-Match")
    }

    private static let limitExceeded = APIError.limitExceeded(
        "this server holds at most \(Limits.maximumPlaylists) playlists; delete one first", field: "playlist")

    private static let unavailable = APIError.storageUnavailable("the playlist was stored but could not be served")

    /// The answer a backend's outcome other than `.written` stands for: a refusal, or the first answer to the
    /// write's Idempotency-Key again (Redis's script, in a cluster).
    private static func answer(
        _ outcome: PlaylistWriteOutcome, name: String, ifMatch: String?, createOnly: Bool
    ) -> HTTPResponse {
        let error: APIError
        switch outcome {
        case .written: error = unavailable
        case .preconditionFailed: error = createOnly ? .alreadyExists("playlist \"\(name)\"") : changed(name, since: ifMatch)
        case .notFound: error = .notFound("no playlist named \"\(name)\"", field: "playlist")
        case .limitExceeded: error = limitExceeded
        case .keyReused: error = .idempotencyKeyReused
        case .rateLimited(let wait):
            return .rateLimited(
                "more writes a minute than limits.writesPerMinute allows from this client; retry in \(wait) s",
                retryAfter: wait)
        case .replay(let bytes):
            guard var replayed = ClusterAnswer.decode(bytes) else {
                error = APIError(status: 500, code: "internal", message: "the stored first answer cannot be read")
                break
            }
            replayed.headers.append((name: "Idempotent-Replayed", value: "true"))
            return replayed
        }
        return .error(error)
    }
}

@available(*, unavailable)
extension PlaylistHandler: Sendable {}

/// A playlist as `GET /api/v1/playlists/{playlist}` shows it: its definition, its anchor, where it stands now and
/// its viewers.
struct PlaylistReading: Encodable {
    /// The board shown now.
    struct Current: Encodable {
        var board: String
        var index: Int
    }

    /// The next switch.
    struct Next: Encodable {
        var board: String
        /// Its tick on the grid: the `seq` of the first frame of `board`.
        var tick: Int64
        /// Milliseconds since the Unix epoch, as a frame's `t`.
        var t: Double
    }

    var name: String
    var boards: [String]
    var seconds: Int
    var transition: PlaylistTransitionName
    var anchor: Int64
    /// nil when none of the boards is served.
    var current: Current?
    /// nil when none comes (one board served).
    var next: Next?
    var viewers: Int

    init(_ playlist: Playlist, position: PlaylistPosition?, fps: Int, viewers: Int) {
        name = playlist.name
        boards = playlist.boards
        seconds = playlist.seconds
        transition = PlaylistTransitionName(playlist.transition)
        anchor = playlist.anchor
        current = position.map { Current(board: $0.board, index: $0.index) }
        if let position, let tick = position.next, let board = position.nextBoard {
            next = Next(board: board, tick: tick, t: (Double(tick) * 10_000 / Double(fps)).rounded() / 10)
        }
        self.viewers = viewers
    }

    private enum CodingKeys: String, CodingKey {
        case name, boards, seconds, transition, anchor, current, next, viewers
    }

    /// `current` and `next` are null rather than absent, so a client sees they exist.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(boards, forKey: .boards)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(transition, forKey: .transition)
        try container.encode(anchor, forKey: .anchor)
        try container.encode(current, forKey: .current)
        try container.encode(next, forKey: .next)
        try container.encode(viewers, forKey: .viewers)
    }
}

/// Body of `GET /api/v1/playlists`.
struct PlaylistList: Encodable {
    var playlists: [PlaylistReading]
}
