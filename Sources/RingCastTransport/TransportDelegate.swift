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

    /// An accepted viewer's connection ended (closed by either side, stalled, or server stop).
    func viewerDidDisconnect(_ id: ViewerID, channel: any ChannelKey)

    /// An error the transport answers itself (413 body too large, 411 length required, 400 bad
    /// request, 404 for unknown non-static paths, 405 for a non-GET/HEAD on a static path, 403
    /// for a WebSocket subprotocol we do not speak, 503 while stopping): the delegate renders
    /// the body so every error has the app's JSON shape.
    func errorResponse(status: Int, message: String) -> HTTPResponse
}
