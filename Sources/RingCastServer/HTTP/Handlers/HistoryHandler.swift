import Foundation
import RingCastCore
import RingCastStorage
import RingCastTransport

/// `GET /api/v1/boards/{board}/rings/{ring}/history` (issue 33): the ring's kept points of a span, thinned by M4 to
/// at most `points`, as JSON, or as CSV for `Accept: text/csv` (or `?format=csv`), with an ETag (a digest of the
/// bytes), and `Server-Timing: history;dur=MS, read;dur=MS, encode;dur=MS`, the server's time from the request to the
/// answer and its two parts. Read with the board's read token, as its GET is. Touched only on the service thread.
struct HistoryHandler {
    let boards: Boards
    let backend: any BoardBackend
    let clock: TickClock
    /// What each ring's history keeps unless its board keeps its own.
    let retention: HistoryRetention

    func ring(_ request: RouteRequest, _ respond: @escaping (HTTPResponse) -> Void) throws(APIError) {
        let board = try boards.board(named: request.parameter("board"))
        let id = request.parameter("ring")
        guard let ring = board.animator.projected.spec.ring(withID: id) else {
            throw .notFound("board \(board.name) has no ring \"\(id)\"", field: "ring")
        }
        guard ring.kind.keepsHistory else {
            throw .notFound(
                "ring \(id) of board \(board.name) is a \(ring.kind.tag.rawValue) ring, which keeps no history; plain and "
                    + "derived rings, counters and indicators do",
                field: "ring")
        }
        let wanted = try HistoryRequest(request.http.query, now: Int64((clock.now() * 1_000).rounded(.down)))
        let csv = try Self.wantsCSV(request.http)
        let ifNoneMatch = request.http.headers["if-none-match"]
        let query = HistoryQuery(
            board: board.name, ring: id, since: wanted.since, until: wanted.until,
            bound: HistoryBound(retention.of(board.animator.projected.spec)))
        let (name, kind) = (board.name, ring.kind)
        let began = ContinuousClock.now
        backend.history(query) { result in
            switch result {
            case .failure(let error):
                respond(.error(error))
            case .success(let points):
                let read = ContinuousClock.now
                let answer = HistoryAnswer(board: name, ring: id, kind: kind, request: wanted, points: points)
                var response = Self.respond(csv ? answer.csv : answer.json, csv: csv, ifNoneMatch: ifNoneMatch)
                // The server's time for the answer: reading the points, then making the bytes (issue 33's target:
                // 10,000 points in 5 ms in all).
                let made = ContinuousClock.now
                response.headers.append(
                    (
                        name: "Server-Timing",
                        value: "history;dur=\(Self.milliseconds(made - began)), read;dur=\(Self.milliseconds(read - began)), "
                            + "encode;dur=\(Self.milliseconds(made - read))"
                    ))
                respond(response)
            }
        }
    }

    /// `duration` in milliseconds, to a microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1e3 + Double(attoseconds) / 1e15) * 1_000).rounded() / 1_000
    }

    /// CSV for `?format=csv` or an `Accept` that names `text/csv` before (or without) JSON; JSON otherwise.
    static func wantsCSV(_ http: HTTPRequest) throws(APIError) -> Bool {
        switch http.query["format"] {
        case "csv": return true
        case "json": return false
        case nil: break
        case let other?: throw .malformed("format must be \"json\" or \"csv\", got \"\(other)\"", field: "format")
        }
        let accept = (http.headers["accept"] ?? "").lowercased()
        guard let csv = accept.range(of: "text/csv") else { return false }
        guard let json = accept.range(of: "application/json") else { return true }
        return csv.lowerBound < json.lowerBound
    }

    /// 200 with `body`, or 304 when `If-None-Match` names its ETag.
    static func respond(_ body: [UInt8], csv: Bool, ifNoneMatch: String?) -> HTTPResponse {
        let etag = EntityTag.digest(of: body, prefix: "history")
        let headers: [(name: String, value: String)] = [
            (name: "ETag", value: etag), (name: "Cache-Control", value: "no-cache"), (name: "Vary", value: "Accept"),
        ]
        if EntityTag.matches(ifNoneMatch, etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        let type = csv ? "text/csv; charset=utf-8" : "application/json"
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: type)] + headers, body: body)
    }
}
