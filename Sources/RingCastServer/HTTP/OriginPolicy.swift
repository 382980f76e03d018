import RingCastCore
import RingCastTransport

/// Which web pages may use the server, from the `Origin` (or `Referer`) a browser sends.
///
/// - Writes: a page's write must come from the server's own site (the Origin's host and port are
///   the request's `Host`) or from a site on `allowedOrigins`; otherwise 403 `origin_not_allowed`,
///   also when no token is configured. This is what stops another site's page from submitting a
///   form or a `fetch` to the API (cross-site request forgery). Without an Origin the `Referer`'s
///   origin counts; a request with neither is not from a page (curl, scripts, CI) and passes.
/// - Viewers: when `allowedOrigins` is set, a browser's WebSocket must come from a listed origin or
///   the server's own site (a page cannot read another site's stream through it); without a list any
///   page may watch.
/// - Pages that may use the API from another origin get CORS answers (`OriginPolicy+CORS.swift`).
///
/// "The server's own site" is the `Host` the request names, which `HostPolicy` has checked before:
/// a DNS-rebinding page (its Origin and Host both `evil.example`) never gets this far, unless
/// `allowedHosts` is `["*"]`.
struct OriginPolicy: Sendable {
    var allowedOrigins: [String]

    /// Throws 403 `origin_not_allowed` for a write from another site's page.
    func checkWrite(_ request: HTTPRequest) throws(APIError) {
        let origin: String
        let header: String
        if let value = request.headers["origin"] {
            (origin, header) = (value, "Origin")
        } else if let referer = request.headers["referer"] {
            (origin, header) = (Self.origin(ofURL: referer) ?? referer, "Referer")
        } else {
            return
        }
        if allows(origin, host: request.headers["host"]) { return }
        throw APIError(
            status: 403, code: "origin_not_allowed",
            message:
                "a page from \(Self.quoted(origin)) may not write to this server; add it to allowedOrigins if it should",
            field: header)
    }

    /// Throws 403 `origin_not_allowed` when an allow-list is configured and a browser's Origin is
    /// neither on it nor the server's own site.
    func checkViewer(_ request: HTTPRequest) throws(APIError) {
        guard !allowedOrigins.isEmpty, let origin = request.headers["origin"] else { return }
        guard allows(origin, host: request.headers["host"]) else {
            throw APIError(
                status: 403, code: "origin_not_allowed",
                message: "a page from \(Self.quoted(origin)) may not watch this server", field: "Origin")
        }
    }

    /// Whether a page from `origin` may use the server: a listed origin, or the server's own site.
    func allows(_ origin: String, host: String?) -> Bool {
        allowedOrigins.contains(origin) || Self.isSameSite(origin, host: host)
    }

    /// True when `origin` (`scheme://host[:port]`) names the host and port of the `Host` header.
    static func isSameSite(_ origin: String, host: String?) -> Bool {
        guard let host, let (scheme, authority) = split(origin), let own = Authority(host) else { return false }
        guard let theirs = Authority(authority) else { return false }
        let defaultPort = scheme == "https" || scheme == "wss" ? 443 : 80
        return theirs.host == own.host && (theirs.port ?? defaultPort) == (own.port ?? defaultPort)
    }

    /// `scheme://authority` of an absolute URL, as a browser writes it in `Origin`.
    static func origin(ofURL url: String) -> String? {
        guard let (scheme, rest) = split(url) else { return nil }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return "\(scheme)://\(authority)"
    }

    private static func split(_ url: String) -> (scheme: String, rest: Substring)? {
        guard let range = url.range(of: "://") else { return nil }
        let scheme = url[..<range.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        return (scheme, url[range.upperBound...])
    }

    /// A client's text for a message: quoted, and cut short.
    static func quoted(_ text: String) -> String {
        "\"" + (text.count > 60 ? text.prefix(60) + "…" : text) + "\""
    }
}
