/// The REST API's routes, matched from a request path.
enum Route: Equatable {
    case health
    case ready
    case metrics
    case openAPI
    case boards
    case board(String)
    case ring(board: String, ring: String)
    case background(String)
    case countdown(String)

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
        default:
            // /api/v1/boards/{board}[/background | /countdown | /rings/{ring}]
            guard parts.count >= 4, parts[0...2] == ["api", "v1", "boards"], !parts[3].isEmpty else { return nil }
            let board = parts[3]
            switch Array(parts.dropFirst(4)) {
            case []: self = .board(board)
            case ["background"]: self = .background(board)
            case ["countdown"]: self = .countdown(board)
            case let rest where rest.count == 2 && rest[0] == "rings" && !rest[1].isEmpty:
                self = .ring(board: board, ring: rest[1])
            default: return nil
            }
        }
    }

    /// The methods the route answers, for 405's `Allow` header.
    var methods: [String] {
        switch self {
        case .health, .ready, .metrics, .openAPI, .boards: ["GET"]
        case .board: ["GET", "PATCH"]
        case .ring: ["GET", "PUT"]
        case .background: ["PUT"]
        case .countdown: ["POST", "DELETE"]
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
        case .background: "background"
        case .countdown: "countdown"
        }
    }
}
