import RingCastCore

/// `PUT /api/v1/boards/{board}/background`: a new background colour, grown in as a splash.
struct BackgroundHandler {
    func update(_ board: LiveBoard, _ request: RouteRequest, _ update: BackgroundUpdate) throws(APIError) -> BoardWrite {
        .change(.background(update))
    }
}
