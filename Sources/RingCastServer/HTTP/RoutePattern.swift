/// A route's path, such as `/api/v1/boards/:board/rings/:ring`: literal segments, and `:name`
/// segments that match any one non-empty segment and are handed to the handler by name.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    let description: String

    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "a route pattern starts with /: \(pattern)")
        description = pattern
        segments = pattern.split(separator: "/").map { part in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
    }

    /// The first path segment, as the transport's prefix for requests it hands to the application
    /// (`/api`, `/healthz`).
    var prefix: String {
        guard case .literal(let first)? = segments.first else { preconditionFailure("a route starts with a literal segment") }
        return "/" + first
    }

    /// The parameters when `path` (already split into segments) matches; nil otherwise.
    func match(_ path: [Substring]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(part)
            }
        }
        return parameters
    }

    /// A request path as segments: "/a/b" and "/a/b/" are both ["a", "b"]; "//" keeps an empty one.
    static func segments(of path: String) -> [Substring]? {
        guard path.hasPrefix("/") else { return nil }
        var parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if parts.last == "", !parts.isEmpty { parts.removeLast() }
        return parts
    }
}
