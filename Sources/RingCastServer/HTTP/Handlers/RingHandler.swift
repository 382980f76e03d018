import RingCastCore
import RingCastTransport

/// `/api/v1/boards/{board}/rings/{ring}`: one ring's snapshot, and a PUT of its progress.
struct RingHandler {
    let boards: Boards
    let clock: TickClock

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

    /// `PUT …/rings/{ring}`: the same as a PATCH of that one ring.
    func update(_ board: LiveBoard, _ request: RouteRequest, _ update: RingUpdate) throws(APIError) -> Animator.Change {
        .ring(request.parameter("ring"), update)
    }
}
