import RingCastTransport
import Testing

@testable import RingCastServer

/// The route table: what it matches, and everything derived from it.
@Suite("Router")
struct RouterTests {
    private func match(_ method: String, _ path: String) throws -> Router.Match {
        try TestApplication().pipeline.router.match(HTTPRequest(method: method, path: path))
    }

    @Test(
        arguments: [
            ("GET", "/healthz", "healthz", [:]),
            ("GET", "/readyz/", "readyz", [:]),
            ("GET", "/metrics", "metrics", [:]),
            ("GET", "/api/v1/openapi.yaml", "openapi", [:]),
            ("GET", "/api/v1/boards", "boards", [:]),
            ("HEAD", "/api/v1/boards/main", "board", ["board": "main"]),
            ("PATCH", "/api/v1/boards/main", "board", ["board": "main"]),
            ("GET", "/api/v1/boards/main/rings/move", "ring", ["board": "main", "ring": "move"]),
            ("PUT", "/api/v1/boards/main/rings/move/", "ring", ["board": "main", "ring": "move"]),
            ("PUT", "/api/v1/boards/main/background", "background", ["board": "main"]),
            ("POST", "/api/v1/boards/main/countdown", "countdown", ["board": "main"]),
            ("DELETE", "/api/v1/boards/main/countdown", "countdown", ["board": "main"]),
            ("GET", "/api/v1/boards/main.svg", "board_svg", ["board": "main"]),
            ("GET", "/api/v1/boards/main/rings/move.svg", "ring_svg", ["board": "main", "ring": "move"]),
        ] as [(String, String, String, [String: String])])
    func everyRoute_matchesWithItsLabelAndParameters(method: String, path: String, label: String, parameters: [String: String])
        throws
    {
        guard case .found(let route, let request) = try match(method, path) else {
            Issue.record("\(method) \(path) did not match")
            return
        }
        #expect(route.label == label)
        #expect(request.parameters == parameters)
    }

    @Test(arguments: ["/api/v2/boards", "/api/v1/boards/main/ringz", "/api/v1/boards//countdown", "/api/v1/boards/main/x/y", "/"])
    func unknownPath_isNotFound(path: String) throws {
        guard case .notFound = try match("GET", path) else {
            Issue.record("\(path) matched")
            return
        }
    }

    @Test(
        arguments: [
            ("POST", "/api/v1/boards/main", ["GET", "HEAD", "PATCH", "PUT", "DELETE", "OPTIONS"]),
            ("POST", "/api/v1/boards", ["GET", "HEAD", "OPTIONS"]),
            ("GET", "/api/v1/boards/main/countdown", ["POST", "DELETE", "OPTIONS"]),
            ("TRACE", "/healthz", ["GET", "HEAD", "OPTIONS"]),
            // An SVG is a resource of its own, not a board or ring named "main.svg" (a fuzz run's PUT got 400).
            ("PUT", "/api/v1/boards/main.svg", ["GET", "HEAD", "OPTIONS"]),
            ("DELETE", "/api/v1/boards/main/rings/move.svg", ["GET", "HEAD", "OPTIONS"]),
        ] as [(String, String, [String])])
    func otherMethod_isNotAllowed_withTheAllowListFromTheTable(method: String, path: String, allowed: [String]) throws {
        guard case .methodNotAllowed(let list, _) = try match(method, path) else {
            Issue.record("\(method) \(path) was not refused")
            return
        }
        #expect(list == allowed)
    }

    /// Every path of the table answers OPTIONS (the pipeline's CORS step), with the methods from the table.
    @Test(
        arguments: [
            ("/api/v1/boards/main/background", ["PUT", "OPTIONS"], "background"),
            ("/api/v1/boards/main/rings/move", ["DELETE", "GET", "HEAD", "PUT", "OPTIONS"], "ring"),
            ("/healthz", ["GET", "HEAD", "OPTIONS"], "healthz"),
        ] as [(String, [String], String)])
    func options_listsThePathsMethods(path: String, allowed: [String], label: String) throws {
        guard case .options(let list, let found) = try match("OPTIONS", path) else {
            Issue.record("OPTIONS \(path) was not answered")
            return
        }
        #expect(list == allowed)
        #expect(found == label)
        guard case .notFound = try match("OPTIONS", "/api/v1/nothing") else {
            Issue.record("OPTIONS on an unknown path was not 404")
            return
        }
    }

    @Test func transportPrefixes_comeFromTheTable() throws {
        #expect(try TestApplication().pipeline.router.prefixes == ["/healthz", "/readyz", "/metrics", "/api"])
    }

    @Test func writes_areExactlyTheNonGetRoutes_andEachNamesItsBoardOrPlaylist() throws {
        for route in try TestApplication().pipeline.router.routes {
            #expect(route.writes == (route.method != "GET"), "\(route.method) \(route.pattern)")
            if route.writes {
                let segments = route.pattern.segments
                #expect(segments.contains(.parameter("board")) || segments.contains(.parameter("playlist")))
            }
        }
    }
}
