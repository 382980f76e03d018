import RingCastCore
import RingCastTransport

/// A request as a handler sees it: the transport's request and the values of the route's `:name`
/// path segments.
struct RouteRequest {
    var http: HTTPRequest
    var parameters: [String: String]
    /// Which boards the request's credential may read (`TokenPolicy.readable`), for reads that list boards: set by
    /// the pipeline once the request is authorized, and looked up only when called.
    var readableBoards: () -> (String) -> Bool = { { _ in true } }

    /// The value of the route's `:name` segment (every handler's route declares the ones it reads).
    func parameter(_ name: String) -> String {
        guard let value = parameters[name] else { preconditionFailure("route has no :\(name) segment") }
        return value
    }
}
