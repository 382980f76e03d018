import RingCastCore
import RingCastTransport

/// The endpoints for whoever runs the server: liveness, readiness, metrics and the OpenAPI
/// document.
/// Touched only on the service thread.
final class OperatorHandler {
    private let boards: Boards
    private let playlists: Playlists
    private let backend: any BoardBackend
    private let metrics: ServerMetrics
    private let openAPIDocument: [UInt8]?
    private let viewers: (String) -> Int
    private let transportStatistics: () -> TransportStatistics
    /// Viewers on each transport loop.
    private let loopViewers: () -> [Int]

    init(
        boards: Boards, playlists: Playlists, backend: any BoardBackend, metrics: ServerMetrics, openAPIDocument: [UInt8]?,
        viewers: @escaping (String) -> Int, transportStatistics: @escaping () -> TransportStatistics,
        loopViewers: @escaping () -> [Int] = { [] }
    ) {
        self.loopViewers = loopViewers
        self.boards = boards
        self.playlists = playlists
        self.backend = backend
        self.metrics = metrics
        self.openAPIDocument = openAPIDocument
        self.viewers = viewers
        self.transportStatistics = transportStatistics
    }

    /// `GET /healthz`: the process serves.
    func health(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        .json(["status": "ok"])
    }

    /// `GET /readyz`: 503 while the store cannot commit writes (in cluster mode: while Redis cannot be
    /// reached, the subscription is down, or the node is catching up).
    func ready(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        if let problem = backend.problem {
            return .json(ReadinessProblem(status: "unavailable", reason: problem), status: 503)
        }
        return .json(["status": "ready"])
    }

    /// `GET /metrics`, Prometheus text.
    func metrics(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        for board in boards.all {
            metrics.setViewers(viewers(board.name), board: board.name)
        }
        metrics.setPlaylists(playlists.count)
        metrics.setLoopViewers(loopViewers())
        let body = metrics.render(
            transport: transportStatistics(), store: backend.storeStatistics, storeHealthy: backend.problem == nil)
        return HTTPResponse(
            status: 200, headers: [(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")], body: body)
    }

    /// `GET /api/v1/openapi.yaml`.
    func openAPI(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        guard let openAPIDocument else {
            throw APIError.notFound("this server was started without its OpenAPI document (docs/openapi.yaml)")
        }
        return HTTPResponse(
            status: 200,
            headers: [(name: "Content-Type", value: "application/yaml; charset=utf-8")],
            body: openAPIDocument
        )
    }
}

@available(*, unavailable)
extension OperatorHandler: Sendable {}

/// Body of `GET /readyz` while the server cannot take writes.
private struct ReadinessProblem: Encodable {
    var status: String
    var reason: String
}
