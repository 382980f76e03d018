import Foundation
import RingCastClient

/// `ringcast-bench --scenario svg-flood`: a board of `rings` rings (the most a server allows, 255) is created and its
/// SVG fetched in a loop by `clients` threads (HTTP/1.1 keep-alive, each GET as soon as the last answer is read) while
/// the standing viewers watch another board, one ring of which animates: what a flood of GETs of the largest board
/// costs everyone else, as the viewers' frame gaps. The board is deleted afterwards. Every wait has a deadline.
///
/// Main thread only; the clients and the viewers' client run on threads of their own.
struct BenchSVGRun {
    /// The viewers, the animated ring and the window.
    var load: BenchLoadRun
    var clients: Int
    var rings: Int

    /// The board whose SVG is fetched.
    static let svgBoard = "bench-svg"
    /// A GET without an answer for this long counts as failed.
    private static let timeoutSeconds = 10

    func run() throws(BenchFailure) -> BenchSVGResult {
        let settings = load.settings
        guard settings.board != Self.svgBoard else { throw BenchFailure("--board must be another board than \(Self.svgBoard)") }
        let (board, animated) = try load.readBoard()
        let bytes = try createBoard()
        defer { _ = try? load.session.http.request("DELETE", "/api/v1/boards/\(Self.svgBoard)") }
        let path = "/api/v1/boards/\(Self.svgBoard).svg"
        var head = "GET \(path) HTTP/1.1\r\nHost: \(settings.address.authority)\r\n"
        if let token = settings.token { head += "Authorization: Bearer \(token)\r\n" }
        let request = Array((head + "\r\n").utf8)
        let address = settings.address
        let outcome = try load.run(
            board: board, animated: animated, restoring: [], loadSockets: clients,
            finishSeconds: Double(Self.timeoutSeconds + 5)
        ) { _, _, window in
            BenchLoadThreads(
                count: clients,
                lateFailure: "an SVG client did not finish within \(Self.timeoutSeconds + 5) s of the window's end"
            ) { _ in
                BenchPusher(address: address, timeoutSeconds: Self.timeoutSeconds).run(window: window) { _ in request }
            }
        }
        let tally = outcome.tallies.reduce(into: BenchPusher.Tally()) { $0.merge($1) }
        return BenchSVGResult(
            date: ISO8601DateFormatter().string(from: Date()),
            command: CommandLine.arguments,
            settings: .init(
                server: settings.address.description, board: settings.board, format: settings.format.rawValue,
                svgBoard: Self.svgBoard, rings: rings, clients: clients, viewers: load.viewers,
                durationSeconds: settings.duration, warmupSeconds: settings.warmup, animatedRing: animated.id),
            documentBytes: bytes,
            windowSeconds: BenchRun.round(outcome.seconds, 3),
            fetches: .init(
                answered: tally.acknowledged,
                answeredPerSecond: BenchRun.round(Double(tally.acknowledged) / outcome.seconds, 1),
                rejected: Dictionary(uniqueKeysWithValues: tally.rejected.map { (String($0.key), $0.value) }),
                failed: tally.failed,
                latencyMilliseconds: tally.latency.percentiles),
            viewers: outcome.viewers,
            usage: outcome.usage
        )
    }

    /// Creates the board of `rings` rings, each at its own progress, and returns the bytes of its SVG.
    private func createBoard() throws(BenchFailure) -> Int {
        let http = load.session.http
        let definition = (0..<rings).map { #"{"id":"r\#($0)","title":"Ring number \#($0)","label":"percent"}"# }
        let progress = (0..<rings).map { #""r\#($0)":\#(Double($0 + 1) / Double(rings + 1))"# }
        do {
            _ = try? http.request("DELETE", "/api/v1/boards/\(Self.svgBoard)")
            _ = try http.request(
                "PUT", "/api/v1/boards/\(Self.svgBoard)",
                json: Array(#"{"title":"SVG flood","rings":[\#(definition.joined(separator: ","))]}"#.utf8))
            _ = try http.request(
                "PATCH", "/api/v1/boards/\(Self.svgBoard)",
                json: Array(#"{"rings":{\#(progress.joined(separator: ","))},"animation":"none"}"#.utf8))
            return try http.request("GET", "/api/v1/boards/\(Self.svgBoard).svg").body.count
        } catch {
            throw BenchFailure(
                "cannot create board \(Self.svgBoard) of \(rings) rings (the server's limits.maxRingsPerBoard must allow it): \(error)"
            )
        }
    }
}

@available(*, unavailable)
extension BenchSVGRun: Sendable {}
