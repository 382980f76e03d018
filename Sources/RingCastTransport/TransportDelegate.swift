/// What the transport asks of the application. Everything here is called on the service thread.
///
/// `WebServer` holds its delegate weakly: keep it alive for as long as the server runs. Without
/// a delegate the server answers every dynamic request and upgrade with a plain 503.
public protocol TransportDelegate: AnyObject {
    /// Dynamic HTTP (every path under `TransportConfiguration.dynamicPrefixes`, any method). Call
    /// `respond` exactly once, on the service thread — now or later (e.g. after an fsync batch).
    /// Later calls are ignored, and so is a call after the client went away.
    func handleHTTP(_ request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void)

    /// A WebSocket upgrade on `websocketPath` (query, headers incl. origin and cookie available).
    func admitViewer(_ request: HTTPRequest, id: ViewerID) -> ViewerAdmission

    /// Headers for the `101 Switching Protocols` answer to an upgrade the delegate admitted (or
    /// refuses in-band): lws writes that answer itself, so they cannot travel in an `HTTPResponse`.
    /// Asked once per upgrade, after `admitViewer`.
    func upgradeHeaders(for viewer: ViewerID) -> [(name: String, value: String)]

    /// Headers for the static files the transport serves itself (the page, its scripts), their
    /// `304 Not Modified` too. Asked once per file answer.
    func fileHeaders() -> [(name: String, value: String)]

    /// The origins that may frame the static file at `path` (its path on disk, under the web root)
    /// besides the server's own pages, or `*` for any; empty: none (`SecurityHeaders`). Asked once
    /// per file answer, its `304 Not Modified` too. Every other answer may never be framed.
    func frameAncestors(forFile path: String) -> [String]

    /// An accepted viewer's connection ended (closed by either side, stalled, or server stop).
    func viewerDidDisconnect(_ id: ViewerID, channel: any ChannelKey)

    /// An error the transport answers itself (413 body too large, 411 length required, 400 bad
    /// request line or header, 408 request or body too slow, 414 target too long, 431 header too
    /// long, 501 unknown method, 505 not HTTP/1.x, 404 for unknown non-static paths, 405 for a
    /// non-GET/HEAD on a static path, 403/400/426 for a WebSocket upgrade lws would drop, 503
    /// while stopping; docs/HTTP-EDGES.md): the delegate renders the body so every error has the
    /// app's JSON shape. The transport adds the headers a status needs (`Allow`, …) itself.
    func errorResponse(status: Int, message: String) -> HTTPResponse
}

extension TransportDelegate {
    /// Nobody frames the static files.
    public func frameAncestors(forFile path: String) -> [String] { [] }
}
