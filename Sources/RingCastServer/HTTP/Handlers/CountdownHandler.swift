import RingCastCore

/// `/api/v1/boards/{board}/countdown`: start (POST) and cancel (DELETE) the board's countdown.
struct CountdownHandler {
    /// `POST …/countdown` with `{"seconds":N,"animated":BOOL}`.
    func start(_ board: LiveBoard, _ request: RouteRequest, _ start: CountdownStart) throws(APIError) -> BoardWrite {
        .change(.startCountdown(seconds: start.seconds, animated: start.animated))
    }

    /// `DELETE …/countdown`: 404 on a board without a countdown ring.
    func cancel(_ board: LiveBoard, _ request: RouteRequest, _ body: NoBody) throws(APIError) -> BoardWrite {
        guard board.animator.projected.hasCountdownRing else {
            throw APIError.notFound("board \"\(board.name)\" has no countdown ring")
        }
        return .change(.cancelCountdown)
    }
}
