import Foundation
import RingCastCore
import RingCastTransport

/// `GET /api/v1/boards/{board}.svg` and `GET …/rings/{ring}.svg`: the board, one ring, or a ring's badge
/// (`?badge=1`) as SVG of the frame the page draws at the current tick, or with every animation at its end
/// (`?at=end`), in the arrangement `?arrangement=` names (docs/SVG.md). Touched only on the service thread.
///
/// The document is composed off the service thread on a copy of the board's animator, and kept while it is the
/// picture (`SVGDocuments`): the served animator composes the viewers' ticks, only forward, and a GET must neither
/// move them nor hold them up. The ETag is a digest of the document's bytes, which do not hold the frame's `seq`
/// (that goes in `X-RingCast-Seq`), so a board at rest keeps its ETag and a client that has the picture gets 304.
struct SVGHandler {
    let documents: SVGDocuments

    /// `GET /api/v1/boards/{board}.svg`.
    func board(_ request: RouteRequest, _ respond: @escaping (HTTPResponse) -> Void) throws(APIError) {
        let options = try Options(request.http.query, badgeAllowed: false)
        fetch(options.request(board: request.parameter("board"), ring: nil), for: request, respond)
    }

    /// `GET /api/v1/boards/{board}/rings/{ring}.svg`.
    func ring(_ request: RouteRequest, _ respond: @escaping (HTTPResponse) -> Void) throws(APIError) {
        let options = try Options(request.http.query, badgeAllowed: true)
        fetch(options.request(board: request.parameter("board"), ring: request.parameter("ring")), for: request, respond)
    }

    private func fetch(_ wanted: SVGDocuments.Request, for request: RouteRequest, _ respond: @escaping (HTTPResponse) -> Void) {
        let ifNoneMatch = request.http.headers["if-none-match"]
        documents.fetch(wanted) { result in
            switch result {
            case .success(let (document, seq)): respond(Self.answer(document, seq: seq, ifNoneMatch: ifNoneMatch))
            case .failure(let error): respond(.error(error))
            }
        }
    }

    /// 200 with the document, or 304 when `If-None-Match` names its ETag.
    static func answer(_ document: SVGDocuments.Document, seq: UInt64, ifNoneMatch: String?) -> HTTPResponse {
        let etag = document.etag
        // no-cache, not no-store: a client may keep the picture but asks again each time (a 304 when unchanged).
        let headers: [(name: String, value: String)] = [
            (name: "ETag", value: etag), (name: "Cache-Control", value: "no-cache"), (name: "X-RingCast-Seq", value: "\(seq)"),
        ]
        if EntityTag.matches(ifNoneMatch, etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(
            status: 200, headers: [(name: "Content-Type", value: "image/svg+xml; charset=utf-8")] + headers,
            body: document.body)
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
            badge = try QueryFlag.value(of: "badge", in: query) ?? false
            if badge, !badgeAllowed {
                throw .malformed("badge is for a ring: GET …/rings/{ring}.svg?badge=1", field: "badge")
            }
            arrangementName = query["arrangement"]
        }

        /// The document these options ask for, of `board` or its ring `ring`.
        func request(board: String, ring: String?) -> SVGDocuments.Request {
            SVGDocuments.Request(board: board, ring: ring, badge: badge, atEnd: atEnd, arrangement: arrangementName)
        }
    }
}
