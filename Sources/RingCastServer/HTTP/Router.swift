import RingCastCore
import RingCastTransport

/// The table of every route, and the matching of requests against it. 404, 405 and `Allow` come
/// from the table, and so do the transport's prefixes for dynamic requests: there is no second
/// list. The routes themselves are declared in one place, `Router.api` (RouteTable.swift).
struct Router {
    private(set) var routes: [Route] = []

    /// What the table says of a request.
    enum Match {
        case found(Route, RouteRequest)
        /// No route has this path.
        case notFound
        /// Routes have this path, with other methods: the `Allow` list, and their label (a 405 is counted
        /// under the route whose path it reached).
        case methodNotAllowed(allowed: [String], label: String)
        /// `OPTIONS` on a path routes have: the methods they answer (`OPTIONS` too) and their label. The
        /// pipeline answers it (a CORS preflight, or `Allow`).
        case options(allowed: [String], label: String)
    }

    // MARK: - Declaring routes

    /// A read. `GET` routes answer `HEAD` too (the transport sends the headers only).
    mutating func get(
        _ pattern: String, label: String, access: Route.Access = .read,
        use handler: @escaping (RouteRequest) throws(APIError) -> HTTPResponse
    ) {
        add(Route(method: "GET", pattern: RoutePattern(pattern), label: label, access: access, action: .read(handler)))
    }

    /// A read answered later (`Route.Action.readLater`); `HEAD` too, as for `get`.
    mutating func get(
        _ pattern: String, label: String, access: Route.Access = .read,
        later handler: @escaping (RouteRequest, @escaping (HTTPResponse) -> Void) throws(APIError) -> Void
    ) {
        add(Route(method: "GET", pattern: RoutePattern(pattern), label: label, access: access, action: .readLater(handler)))
    }

    /// A write to the route's existing `:board` (404 before the body is read if there is none)
    /// whose body decodes as `Body`.
    mutating func write<Body: Decodable>(
        _ method: String, _ pattern: String, label: String, body: Body.Type, permission: AccessToken.Access? = nil,
        use handler: @escaping (LiveBoard, RouteRequest, Body) throws(APIError) -> BoardWrite
    ) {
        write(method, pattern, label: label, body: body, needsBoard: true, permission: permission) {
            board, request, body throws(APIError) in
            // The pipeline has answered 404 already when the board does not exist.
            guard let board else { throw APIError.notFound("no board named \"\(request.parameter("board"))\"", field: "board") }
            return try handler(board, request, body)
        }
    }

    /// A write to the route's `:board`, which may not exist yet (nil): creating and deleting boards.
    mutating func write<Body: Decodable>(
        _ method: String, _ pattern: String, label: String, body: Body.Type, needsBoard: Bool,
        permission: AccessToken.Access? = nil, autoCreates: Bool = false,
        use handler: @escaping (LiveBoard?, RouteRequest, Body) throws(APIError) -> BoardWrite
    ) {
        let pattern = RoutePattern(pattern)
        precondition(pattern.segments.contains(.parameter("board")), "a write names its board: \(pattern)")
        let decode: (RouteRequest) throws(APIError) -> BoardEdit = { request throws(APIError) in
            let body = try BodyDecoder.decode(Body.self, from: request.http)
            return BoardEdit { board throws(APIError) in try handler(board, request, body) }
        }
        let access: Route.Access = needsBoard ? .write : .writeAnyBoard
        add(
            Route(
                method: method, pattern: pattern, label: label, access: access, action: .write(decode), permission: permission,
                autoCreates: autoCreates))
    }

    /// A write of something other than a board (a playlist), committed by its handler (`Route.Action.commit`).
    mutating func commit(
        _ method: String, _ pattern: String, label: String,
        use handler: @escaping (RouteRequest, @escaping (HTTPResponse) -> Void) throws(APIError) -> Void
    ) {
        add(Route(method: method, pattern: RoutePattern(pattern), label: label, access: .writeOther, action: .commit(handler)))
    }

    private mutating func add(_ route: Route) {
        precondition(
            !routes.contains { $0.method == route.method && $0.pattern.segments == route.pattern.segments },
            "\(route.method) \(route.pattern) is declared twice")
        routes.append(route)
    }

    // MARK: - Matching

    /// The route that answers `request`, with the request handed to it; a trailing slash is
    /// tolerated. Every path the table has answers `OPTIONS` too.
    func match(_ request: HTTPRequest) -> Match {
        let method = request.method
        guard let segments = RoutePattern.segments(of: request.path) else { return .notFound }
        var allowed: [String] = []
        var label: String?
        let matching = routes.compactMap { route in route.pattern.match(segments).map { (route, $0) } }
        // A path a suffixed pattern matches (`…/main.svg`) belongs to that resource alone: with another method it is
        // a 405, never board "main.svg" (a name cannot hold a dot).
        let specificity = matching.map(\.0.pattern.suffixedSegments).max() ?? 0
        for (route, parameters) in matching where route.pattern.suffixedSegments == specificity {
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .found(route, RouteRequest(http: request, parameters: parameters))
            }
            allowed.append(route.method)
            if route.method == "GET" { allowed.append("HEAD") }
            label = label ?? route.label
        }
        guard let label else { return .notFound }
        allowed.append("OPTIONS")
        return method == "OPTIONS" ? .options(allowed: allowed, label: label) : .methodNotAllowed(allowed: allowed, label: label)
    }

    /// The label of the route `request` reaches, for logs and metrics: with another method (405), the label
    /// of the routes of its path; "unknown" for a path no route has.
    func label(for request: HTTPRequest) -> String {
        switch match(request) {
        case .found(let route, _): route.label
        case .options(_, let label), .methodNotAllowed(_, let label): label
        case .notFound: "unknown"
        }
    }

    /// The first segment of every route: what the transport hands to the application.
    var prefixes: [String] {
        routes.reduce(into: []) { prefixes, route in
            if !prefixes.contains(route.pattern.prefix) { prefixes.append(route.pattern.prefix) }
        }
    }
}
