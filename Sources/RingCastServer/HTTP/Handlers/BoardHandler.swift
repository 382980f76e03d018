import RingCastCore
import RingCastTransport

/// `/api/v1/boards` and `/api/v1/boards/{board}`: the list of boards, one board's snapshot, a
/// PATCH of several of its rings at once, and creating, replacing and deleting boards (DESIGN §11).
/// Touched only on the service thread.
final class BoardHandler {
    private let boards: Boards
    private let clock: TickClock
    /// Where the layouts of new and replaced boards get their plans.
    private let planner: LayoutPlanner
    /// Viewers of a board, by name, as the transport counts them.
    private let viewers: (String) -> Int
    /// The newest snapshot response of each board, with the tick and ETag it shows.
    private var cached: [String: (tick: Int64, etag: String, response: HTTPResponse)] = [:]

    init(boards: Boards, clock: TickClock, planner: LayoutPlanner, viewers: @escaping (String) -> Int) {
        self.boards = boards
        self.clock = clock
        self.planner = planner
        self.viewers = viewers
    }

    /// `GET /api/v1/boards`.
    func list(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        let mayRead = request.readableBoards()
        return .json(
            BoardList(
                boards: boards.all.filter { mayRead($0.name) }.map {
                    BoardList.Entry($0, viewers: viewers($0.name), configured: boards.configuredNames.contains($0.name))
                }, defaultBoard: boards.defaultBoard))
    }

    /// `GET /api/v1/boards/{board}`.
    func show(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        snapshot(of: try boards.board(named: request.parameter("board")))
    }

    /// `PATCH /api/v1/boards/{board}`: rings' values, and the board's title, background and staleAfter; with
    /// `autoCreate`, rings or a board that do not exist yet are created with it.
    func patch(_ board: LiveBoard?, _ request: RouteRequest, _ patch: BoardPatch) throws(APIError) -> BoardWrite {
        try AutoCreate(template: boards.autoCreate, maximumRings: boards.maximumRings, planner: planner).write(
            .patch(patch), toRings: patch.rings.keys.sorted(), of: board, named: request.parameter("board"))
    }

    /// `PUT /api/v1/boards/{board}`: a new board (201), or the board's rings replaced (200); values of
    /// rings that stay (same id, still plain) are kept. Replacing a board the configuration defines needs
    /// `?force=true`.
    func put(_ board: LiveBoard?, _ request: RouteRequest, _ definition: BoardDefinition) throws(APIError) -> BoardWrite {
        if case .explicit(let rings, _) = definition.rings {
            for (index, ring) in rings.enumerated() {
                guard let webhook = ring.countdown?.webhook else { continue }
                try CountdownOptions.checkWebhook(webhook, allowedBy: boards.webhookHosts, field: "rings.\(index).webhook")
            }
        }
        let spec = try definition.spec(
            named: request.parameter("board"), maximumRings: boards.maximumRings, planner: planner)
        guard let board else { return .create(spec) }
        try boards.checkReshape(of: board, request, doing: "replacing it")
        return .change(.restructure(spec))
    }

    /// `DELETE /api/v1/boards/{board}/shape`: a board the configuration defines gets its configured rings, places,
    /// title, background and staleAfter again, keeping the values of the rings that stay, and follows the
    /// configuration again (reloads included); 409 for a board the configuration does not define.
    func resetShape(_ board: LiveBoard, _ request: RouteRequest, _ body: NoBody) throws(APIError) -> BoardWrite {
        guard let spec = boards.configuredSpecs[board.name] else {
            throw .conflict(
                "board \(board.name) is not defined by the server's configuration, so it has no configured shape to go "
                    + "back to; PUT /api/v1/boards/\(board.name) gives it another",
                field: "board")
        }
        return .change(.restructure(spec))
    }

    /// `DELETE /api/v1/boards/{board}` (204).
    func delete(_ board: LiveBoard, _ request: RouteRequest, _ body: NoBody) throws(APIError) -> BoardWrite {
        .delete
    }

    /// The answer to a durable write of `board`; with `return=minimal` its status, ETag and Location alone.
    func answer(_ answer: WriteAnswer, of board: LiveBoard, returning: ReturnPreference = .representation) -> HTTPResponse {
        if returning == .minimal { return minimal(answer, of: board) }
        switch answer {
        case .board:
            return snapshot(of: board)
        case .noContent:
            return HTTPResponse(status: 204)
        case .createdRing(let id):
            let snapshot = board.animator.snapshot(at: board.now(clock.currentTick()))
            guard let ring = snapshot.rings.first(where: { $0.id == id }) else { return self.snapshot(of: board) }
            var response = HTTPResponse.json(
                ring,
                headers: [
                    (name: "ETag", value: board.etag), (name: "Location", value: "/api/v1/boards/\(board.name)/rings/\(id)"),
                ])
            response.status = 201
            return response
        }
    }

    /// `Prefer: return=minimal` (RFC 7240): what `answer` says without a body, so nothing is encoded — 204 with the
    /// ETag for a change, 201 with the ETag and Location for a new ring.
    private func minimal(_ answer: WriteAnswer, of board: LiveBoard) -> HTTPResponse {
        switch answer {
        case .board:
            return HTTPResponse(status: 204, headers: [(name: "ETag", value: board.etag), ReturnPreference.applied])
        case .noContent:
            return HTTPResponse(status: 204, headers: [ReturnPreference.applied])
        case .createdRing(let id):
            return HTTPResponse(
                status: 201,
                headers: [
                    (name: "ETag", value: board.etag), (name: "Location", value: "/api/v1/boards/\(board.name)/rings/\(id)"),
                    ReturnPreference.applied,
                ])
        }
    }

    /// The answer to a board's creation: 201, its snapshot and Location (with `return=minimal`, no snapshot).
    func created(_ board: LiveBoard, returning: ReturnPreference = .representation) -> HTTPResponse {
        if returning == .minimal {
            return HTTPResponse(
                status: 201,
                headers: [
                    (name: "ETag", value: board.etag), (name: "Location", value: "/api/v1/boards/\(board.name)"),
                    ReturnPreference.applied,
                ])
        }
        var response = snapshot(of: board)
        response.status = 201
        response.headers.append((name: "Location", value: "/api/v1/boards/\(board.name)"))
        return response
    }

    /// The board as a GET shows it now, with its ETag; also the answer to every write. Encoded once
    /// per board, tick and ETag, so the writes answered together after one commit share the bytes.
    func snapshot(of board: LiveBoard) -> HTTPResponse {
        let tick = board.now(clock.currentTick())
        // Only the served board is cached: a cluster write's preview (a copy with the change, answered
        // before Redis decides) carries the next revision's ETag and must never be served as it.
        let served = boards[board.name] === board
        if served, let cached = cached[board.name], cached.tick == tick, cached.etag == board.etag {
            return cached.response
        }
        let response = HTTPResponse.json(board.animator.snapshot(at: tick), headers: [(name: "ETag", value: board.etag)])
        if served { cached[board.name] = (tick, board.etag, response) }
        return response
    }
}

@available(*, unavailable)
extension BoardHandler: Sendable {}

/// Body of `GET /api/v1/boards`.
struct BoardList: Encodable {
    struct Entry: Encodable {
        struct Ring: Encodable {
            var id: String
            var title: String
            var kind: String
        }

        var name: String
        var title: String
        var width: Double
        var height: Double
        var rings: [Ring]
        var viewers: Int
        /// The configuration defines the board: deleting it removes it for good (until the data directory is
        /// wiped), whatever the configuration says.
        var configured: Bool

        init(_ board: LiveBoard, viewers: Int, configured: Bool = false) {
            let spec = board.animator.projected.spec
            name = board.name
            title = spec.title
            width = spec.width
            height = spec.height
            rings = spec.rings.map { Ring(id: $0.id, title: $0.title, kind: $0.kind.name) }
            self.viewers = viewers
            self.configured = configured
        }
    }

    var boards: [Entry]
    /// The board the page at `/` shows (`defaultBoard`), whether or not it exists.
    var defaultBoard: String
}
