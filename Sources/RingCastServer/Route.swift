/// The REST API's routes, matched from a request path.
enum Route: Equatable {
    case health
    case ready
    case metrics
    case openAPI
    case boards
    case board(String)
    case ring(board: String, ring: String)

    init?(path: String) {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "/a/b" splits into ["", "a", "b"]; a trailing slash is tolerated.
        guard parts.first == "" else { return nil }
        parts.removeFirst()
        if parts.last == "", parts.count > 1 { parts.removeLast() }
        switch parts {
        case ["healthz"]: self = .health
        case ["readyz"]: self = .ready
        case ["metrics"]: self = .metrics
        case ["api", "v1", "openapi.yaml"]: self = .openAPI
        case ["api", "v1", "boards"]: self = .boards
        case let p where p.count == 4 && p[0...2] == ["api", "v1", "boards"] && !p[3].isEmpty:
            self = .board(p[3])
        case let p
        where p.count == 6 && p[0...2] == ["api", "v1", "boards"] && p[4] == "rings" && !p[3].isEmpty && !p[5].isEmpty:
            self = .ring(board: p[3], ring: p[5])
        default: return nil
        }
    }

    /// The methods the route answers, for 405's `Allow` header.
    var methods: [String] {
        switch self {
        case .health, .ready, .metrics, .openAPI, .boards: ["GET"]
        case .board: ["GET", "PATCH"]
        case .ring: ["GET", "PUT"]
        }
    }

    /// A low-cardinality name for logs and metrics.
    var label: String {
        switch self {
        case .health: "healthz"
        case .ready: "readyz"
        case .metrics: "metrics"
        case .openAPI: "openapi"
        case .boards: "boards"
        case .board: "board"
        case .ring: "ring"
        }
    }
}
