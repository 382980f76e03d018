import RingCastCore
import RingCastTransport

/// Cross-origin resource sharing (the Fetch standard's CORS protocol) for the pages `OriginPolicy` lets
/// use the API: a page on an `allowedOrigins` origin, or on the server's own site, may call the API from
/// another origin's `fetch`.
///
/// - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from such a page is 204 with
///   `Access-Control-Allow-Origin` (the page's origin), `-Allow-Methods` (the methods the path answers),
///   `-Allow-Headers` (`allowedRequestHeaders`), `-Max-Age` (`preflightMaxAge`) and `Vary: Origin`; from
///   any other page 403 `origin_not_allowed` without any of them. It needs no token: browsers send none with
///   a preflight.
/// - Every other answer to such a page (success or error) carries `Access-Control-Allow-Origin`,
///   `Access-Control-Expose-Headers` (`exposedHeaders`) and `Vary: Origin`; answers to other pages carry
///   nothing of CORS, so their browser keeps the answer from them.
/// - No `Access-Control-Allow-Credentials`: a page sends its token as `Authorization: Bearer`, which is a
///   header it sets, not a credential the browser adds (cookies are never a write token).
extension OriginPolicy {
    /// The request headers a page may send: the token, the body's type, and the write preconditions.
    static let allowedRequestHeaders = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key"
    /// The answer headers a page may read besides the CORS-safelisted ones (Content-Type, …).
    static let exposedHeaders = "ETag, Location, Retry-After, X-RingCast-Node"
    /// Seconds a browser may keep a preflight's answer.
    static let preflightMaxAge = 600

    /// The request's `Origin` when it names a page that may use the API: a listed origin, or the server's
    /// own site (the Host, which `HostPolicy` has checked). Nil without an Origin, and for any other page.
    func allowedOrigin(of request: HTTPRequest) -> String? {
        guard let origin = request.headers["origin"], allows(origin, host: request.headers["host"]) else { return nil }
        return origin
    }

    /// The CORS headers of an answer to `request`: none unless it comes from a page that may use the API.
    func corsHeaders(for request: HTTPRequest) -> [(name: String, value: String)] {
        guard let origin = allowedOrigin(of: request) else { return [] }
        return [
            (name: "Access-Control-Allow-Origin", value: origin),
            (name: "Access-Control-Expose-Headers", value: Self.exposedHeaders),
            (name: "Vary", value: "Origin"),
        ]
    }

    /// The answer to `OPTIONS` on a path whose routes answer `allowed` (with `OPTIONS` itself): a preflight's
    /// (above), or else 204 with `Allow` (RFC 9110 §9.3.7), and the CORS headers for an allowed page.
    func options(_ request: HTTPRequest, allowed: [String]) -> HTTPResponse {
        let allow = (name: "Allow", value: allowed.joined(separator: ", "))
        guard let origin = request.headers["origin"], request.headers["access-control-request-method"] != nil else {
            return HTTPResponse(status: 204, headers: [allow] + corsHeaders(for: request))
        }
        guard allows(origin, host: request.headers["host"]) else {
            return .error(
                APIError(
                    status: 403, code: "origin_not_allowed",
                    message:
                        "a page from \(Self.quoted(origin)) may not use this server's API; add it to allowedOrigins if it should",
                    field: "Origin"))
        }
        return HTTPResponse(
            status: 204,
            headers: [
                (name: "Access-Control-Allow-Origin", value: origin),
                (name: "Access-Control-Allow-Methods", value: allowed.filter { $0 != "OPTIONS" }.joined(separator: ", ")),
                (name: "Access-Control-Allow-Headers", value: Self.allowedRequestHeaders),
                (name: "Access-Control-Max-Age", value: String(Self.preflightMaxAge)),
                (name: "Vary", value: "Origin"),
                allow,
            ])
    }
}
