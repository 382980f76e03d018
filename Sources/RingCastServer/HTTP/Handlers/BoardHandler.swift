import RingCastCore
import RingCastTransport

/// `/api/v1/boards` and `/api/v1/boards/{board}`: the list of boards, one board's snapshot, and a
/// PATCH of several of its rings at once.
/// Touched only on the service thread.
final class BoardHandler {
    private let boards: Boards
    private let clock: TickClock
    /// Viewers of a board, by name, as the transport counts them.
    private let viewers: (String) -> Int
    /// The newest snapshot response of each board, with the tick and ETag it shows.
    private var cached: [String: (tick: Int64, etag: String, response: HTTPResponse)] = [:]

    init(boards: Boards, clock: TickClock, viewers: @escaping (String) -> Int) {
        self.boards = boards
        self.clock = clock
        self.viewers = viewers
    }

    /// `GET /api/v1/boards`.
    func list(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        .json(BoardList(boards: boards.all.map { BoardList.Entry($0, viewers: viewers($0.name)) }))
    }

    /// `GET /api/v1/boards/{board}`.
    func show(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        snapshot(of: try boards.board(named: request.parameter("board")))
    }

    /// `PATCH /api/v1/boards/{board}`.
    func patch(_ board: LiveBoard, _ request: RouteRequest, _ patch: BoardPatch) throws(APIError) -> Animator.Change {
        .patch(patch)
    }

    /// The board as a GET shows it now, with its ETag; also the answer to every write. Encoded once
    /// per board, tick and ETag, so the writes answered together after one commit share the bytes.
    func snapshot(of board: LiveBoard) -> HTTPResponse {
        let tick = board.now(clock.currentTick())
        if let cached = cached[board.name], cached.tick == tick, cached.etag == board.etag {
            return cached.response
        }
        let response = HTTPResponse.json(board.animator.snapshot(at: tick), headers: [(name: "ETag", value: board.etag)])
        cached[board.name] = (tick, board.etag, response)
        return response
    }
}

@available(*, unavailable)
extension BoardHandler: Sendable {}

/// Body of `GET /api/v1/boards`.
struct BoardList: Encodable {
    struct Entry: Encodable {
        var name: String
        var width: Double
        var height: Double
        var rings: [String]
        var viewers: Int

        init(_ board: LiveBoard, viewers: Int) {
            name = board.name
            width = board.spec.width
            height = board.spec.height
            rings = board.spec.rings.map(\.id)
            self.viewers = viewers
        }
    }

    var boards: [Entry]
}
