/// A route's path, such as `/api/v1/boards/:board/rings/:ring`: literal segments, `:name`
/// segments that match any one non-empty segment and are handed to the handler by name, and
/// `:name.suffix` segments (`:board.svg`) that match a segment ending in `.suffix` and hand the
/// handler what comes before it (names never hold a `.`, so `main.svg` is board `main`'s SVG).
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// A parameter followed by a fixed suffix such as `.svg`.
        case suffixed(String, suffix: String)
    }

    let segments: [Segment]
    let description: String

    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "a route pattern starts with /: \(pattern)")
        description = pattern
        segments = pattern.split(separator: "/").map { part in
            guard part.hasPrefix(":") else { return .literal(String(part)) }
            guard let dot = part.firstIndex(of: ".") else { return .parameter(String(part.dropFirst())) }
            return .suffixed(String(part[part.index(after: part.startIndex)..<dot]), suffix: String(part[dot...]))
        }
    }

    /// The first path segment, as the transport's prefix for requests it hands to the application
    /// (`/api`, `/healthz`).
    var prefix: String {
        guard case .literal(let first)? = segments.first else { preconditionFailure("a route starts with a literal segment") }
        return "/" + first
    }

    /// How many `:name.suffix` segments the pattern has: of the patterns a path matches, the ones with the most
    /// name its resource.
    var suffixedSegments: Int {
        segments.count { if case .suffixed = $0 { true } else { false } }
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
            case .suffixed(let name, let suffix):
                guard part.count > suffix.count, part.hasSuffix(suffix) else { return nil }
                parameters[name] = String(part.dropLast(suffix.count))
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
