import Foundation
import RingCastCore
import RingCastTLS
import RingCastTransport

/// `GET /api/v1/boards/{board}.svg` and `GET …/rings/{ring}.svg`: the board, one ring, or a ring's badge
/// (`?badge=1`) as SVG of the frame the page draws at the current tick, or with every animation at its end
/// (`?at=end`), in the arrangement `?arrangement=` names (docs/SVG.md). Touched only on the service thread.
///
/// The frame is composed on a copy of the board's animator: the served one composes the viewers' ticks, only
/// forward, and a GET must not move them. The ETag is a digest of the document's bytes, which do not hold the
/// frame's `seq` (that goes in `X-RingCast-Seq`), so a board at rest keeps its ETag and a client that has the
/// picture gets 304.
struct SVGHandler {
    let boards: Boards
    let clock: TickClock

    /// `GET /api/v1/boards/{board}.svg`.
    func board(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        let options = try Options(request.http.query, badgeAllowed: false)
        let board = try boards.board(named: request.parameter("board"))
        let (layout, frame) = compose(board, atEnd: options.atEnd)
        let arrangement = try options.arrangement(in: layout)
        return answer(SVGRenderer.board(layout, frame: frame, arrangement: arrangement), seq: frame.seq, request: request)
    }

    /// `GET /api/v1/boards/{board}/rings/{ring}.svg`.
    func ring(_ request: RouteRequest) throws(APIError) -> HTTPResponse {
        let options = try Options(request.http.query, badgeAllowed: true)
        let board = try boards.board(named: request.parameter("board"))
        let id = request.parameter("ring")
        let (layout, frame) = compose(board, atEnd: options.atEnd)
        let arrangement = try options.arrangement(in: layout)
        let document =
            options.badge
            ? SVGRenderer.badge(id, layout, frame: frame)
            : SVGRenderer.ring(id, layout, frame: frame, arrangement: arrangement)
        guard let document else { throw APIError.notFound("board \(board.name) has no ring \"\(id)\"", field: "ring") }
        return answer(document, seq: frame.seq, request: request)
    }

    /// The board's layout and its frame at the current tick (or at rest), composed on a copy of its animator.
    private func compose(_ board: LiveBoard, atEnd: Bool) -> (Layout, Frame) {
        let tick = board.now(clock.currentTick())
        var animator = board.animator
        let frame = atEnd ? animator.restingFrameOnceStarted(from: tick) : animator.frame(at: tick)
        return (FrameComposer.layout(of: atEnd ? animator.projected.spec : animator.spec), frame)
    }

    /// 200 with the document, or 304 when the request's `If-None-Match` names its ETag.
    private func answer(_ document: String, seq: UInt64, request: RouteRequest) -> HTTPResponse {
        let body = Array(document.utf8)
        let digest = SHA256Digest(of: body).bytes.prefix(12).map { byte in
            String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        let etag = "\"svg-\(digest.joined())\""
        // no-cache, not no-store: a client may keep the picture but asks again each time (a 304 when unchanged).
        let headers: [(name: String, value: String)] = [
            (name: "ETag", value: etag), (name: "Cache-Control", value: "no-cache"), (name: "X-RingCast-Seq", value: "\(seq)"),
        ]
        if let wanted = request.http.headers["if-none-match"],
            wanted.split(separator: ",").contains(where: { tag in
                let tag = tag.trimmingCharacters(in: .whitespaces)
                return tag == etag || tag == "W/" + etag || tag == "*"
            })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(
            status: 200, headers: [(name: "Content-Type", value: "image/svg+xml; charset=utf-8")] + headers, body: body)
    }

    /// The query of an SVG request; other names (a cache-busting `?v=2`, the read `token`) are ignored.
    struct Options {
        var atEnd = false
        var badge = false
        var arrangementName: String?

        init(_ query: [String: String], badgeAllowed: Bool) throws(APIError) {
            switch query["at"] {
            case nil, "now": atEnd = false
            case "end": atEnd = true
            case let other?:
                throw .malformed("at must be \"now\" (the current frame) or \"end\" (at rest), got \"\(other)\"", field: "at")
            }
            switch query["badge"] {
            case nil, "0", "false": badge = false
            case "1", "true":
                guard badgeAllowed else {
                    throw .malformed("badge is for a ring: GET …/rings/{ring}.svg?badge=1", field: "badge")
                }
                badge = true
            case let other?: throw .malformed("badge must be 1 or 0, got \"\(other)\"", field: "badge")
            }
            arrangementName = query["arrangement"]
        }

        /// The index of the named arrangement; 400 naming the ones the board has.
        func arrangement(in layout: Layout) throws(APIError) -> Int {
            guard let index = SVGRenderer.arrangementIndex(named: arrangementName, in: layout) else {
                let names = layout.arrangements.map(\.name).joined(separator: ", ")
                throw .malformed(
                    "board \(layout.board) has no arrangement \"\(arrangementName ?? "")\"; it has \(names)", field: "arrangement"
                )
            }
            return index
        }
    }
}
