import RingCastCore
import RingCastTransport

/// `/api/v1/boards/{board}/rings/{ring}`: one ring's snapshot, and a PUT of its progress.
struct RingHandler {
    let boards: Boards
    let clock: TickClock
    /// Where the layouts of boards with a ring added or removed get their plans.
    let planner: LayoutPlanner

    /// `GET …/rings/{ring}`.
    func show(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        let board = try boards.board(named: request.parameter("board"))
        let id = request.parameter("ring")
        let snapshot = board.animator.snapshot(at: board.now(clock.currentTick()))
        guard let ring = snapshot.rings.first(where: { $0.id == id }) else {
            throw APIError.notFound("board \(board.name) has no ring \"\(id)\"", field: "ring")
        }
        return .json(ring)
    }

    /// `PUT …/rings/{ring}`: the same as a PATCH of that one ring; with `autoCreate`, a ring or board that does not
    /// exist yet is created with it.
    func update(_ board: LiveBoard?, _ request: RouteRequest, _ update: RingUpdate) throws(APIError) -> BoardWrite {
        let id = request.parameter("ring")
        return try AutoCreate(template: boards.autoCreate, maximumRings: boards.maximumRings, planner: planner).write(
            .ring(id, update), toRings: [id], of: board, named: request.parameter("board"))
    }

    /// `POST /api/v1/boards/{board}/rings`: a ring added, the board laid out again (201); on a board the configuration
    /// defines, only with `?force=true` (`Boards.checkReshape`).
    func add(_ board: LiveBoard, _ request: RouteRequest, _ new: NewRing) throws(APIError) -> BoardWrite {
        try boards.checkReshape(of: board, request, doing: "adding ring \(new.ring.id)")
        if let webhook = new.ring.countdown?.webhook {
            try CountdownOptions.checkWebhook(webhook, allowedBy: boards.webhookHosts, field: "webhook")
        }
        let spec = try board.animator.projected.specAtRest.adding(
            new.ring, group: new.group, maximumRings: boards.maximumRings, planner: planner)
        return .change(.restructure(spec), answer: .createdRing(new.ring.id))
    }

    /// `DELETE /api/v1/boards/{board}/rings/{ring}`: the ring removed, the board laid out again (204); on a board the
    /// configuration defines, only with `?force=true`.
    func delete(_ board: LiveBoard, _ request: RouteRequest, _ body: NoBody) throws(APIError) -> BoardWrite {
        let id = request.parameter("ring")
        if board.spec.ring(withID: id) != nil {
            try boards.checkReshape(of: board, request, doing: "deleting ring \(id)")
        }
        let spec = try board.animator.projected.specAtRest.removing(ring: request.parameter("ring"), planner: planner)
        return .change(.restructure(spec), answer: .noContent)
    }
}
