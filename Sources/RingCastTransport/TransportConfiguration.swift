#if canImport(Glibc)
    import Glibc
#endif

/// Everything `WebServer` needs to know to listen: one port for static files, the dynamic HTTP
/// API and the WebSocket endpoint.
public struct TransportConfiguration: Sendable {
    /// "127.0.0.1", "::1", "localhost", a host name, or "0.0.0.0" / "::" for every interface.
    public var host: String
    /// 0 = pick a free port (read it back from `WebServer.port`).
    public var port: Int
    /// Static files mounted at "/" (index.html for directories), nil = none.
    public var webRoot: String?
    /// The only path that upgrades to WebSocket, e.g. "/ws".
    public var websocketPath: String
    /// Paths handed to `TransportDelegate.handleHTTP` with any method, e.g. ["/api", "/healthz"];
    /// each matches itself and everything below it.
    public var dynamicPrefixes: [String]
    /// Largest request body accepted; a larger Content-Length is answered 413 at once.
    public var maxBodyBytes: Int
    /// Seconds between WebSocket pings to viewers; a viewer that does not answer within
    /// `stallTimeout` more seconds is dropped. 0 = no pings.
    public var pingInterval: Int
    /// Seconds a viewer may fail to accept data before it is closed.
    public var stallTimeout: Int
    /// Largest message `EventLoop.publish` or a greeting may carry; larger ones are dropped
    /// with a log line.
    public var maxMessageBytes: Int
    /// Lowercase names of headers libwebsockets does not know, looked up on every request
    /// (4.1.6 cannot list unknown headers, only find them by name).
    public var customHeaderNames: [String]
    /// Longest request target (after percent-decoding; longer is answered 414) and longest header
    /// line the transport can see (longer: 431). libwebsockets holds a whole request head in
    /// four times this (`headerBufferBytes`) and closes a connection whose head does not fit
    /// without an answer; headers it does not know by name are stored but cannot be measured
    /// (docs/HTTP-EDGES.md).
    public var maxHeaderBytes: Int
    /// Seconds a client has to send a request's head — from connecting, or from the end of the
    /// answer before it — and then as long again for its body. Past that, a request that has begun
    /// is answered 408 and the connection closed; an idle connection is closed without a word.
    public var requestTimeout: Int
    /// The certificate and key to serve https and wss with; nil = plain http and ws.
    public var tls: TLSFiles?
    /// Lets several servers — in this process or others of the same user — listen on one port
    /// together (SO_REUSEPORT; the kernel spreads new connections across them): cluster nodes on
    /// one machine, or one node per core. libwebsockets 4.1.6 cannot share a listening port
    /// (`LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE` does nothing in Debian's build), so with this set the
    /// transport opens and accepts on its own socket and hands each connection to lws
    /// (`EventLoop+SharedPort.swift`); connections are then served exactly as otherwise.
    public var sharePort: Bool
    /// Seconds `WebServer.stop()` may take to drain: to answer the requests already received and
    /// close viewers with 1001 (EventLoop+Drain.swift). Past it, what is still open is cut.
    /// 0 = no drain: stop at once.
    public var drainTimeout: Double
    /// Service loops: each its own thread and libwebsockets context, owning the connections it is
    /// handed (WebServer: the first loop accepts them all and deals them out in turn). The first
    /// loop's thread is where the delegate runs; the others forward every delegate call to it
    /// (`ForwardingDelegate`). 1 to `maximumLoops`.
    public var loops = 1
    /// The most service loops a server runs.
    public static let maximumLoops = 8
    /// The kernel send buffer (SO_SNDBUF) of each viewer's socket, in bytes; Linux doubles it for
    /// its bookkeeping. Without it the kernel grows the buffer of a viewer that stops reading to
    /// megabytes (2.8 MiB each over loopback), and holds it until the stall timeout — and, after a
    /// normal close, until the client goes. 64 KiB holds about 20 frames of the default board in
    /// JSON and a whole greeting of a 255-ring board in binary; a larger message is sent in pieces
    /// as the socket takes them (docs/HTTP-EDGES.md, "Viewer sockets").
    public var viewerSendBufferBytes = 64 * 1024
    /// What the kernel may hold unsent for a viewer before its socket stops reporting itself
    /// writeable (TCP_NOTSENT_LOWAT): a few frames of the default board, so a viewer the network
    /// cannot keep up with skips to the newest one; a larger message still goes in whole.
    static let viewerUnsentBytes = 16 * 1024
    /// How often a viewer held back by its peer's closed window (`SendPacing`) is looked at again:
    /// a viewer that reads again gets the newest frame within about this, plus a round trip.
    static let heldViewerRetry = 0.025
    /// How long a viewer must have waited (held by pacing), its peer having taken everything written, before its
    /// pacing settles on the smaller window that peer offers now (`SendPacing.settle`).
    static let heldViewerSettle = 1.0

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        webRoot: String? = nil,
        websocketPath: String = "/ws",
        dynamicPrefixes: [String] = ["/api"],
        maxBodyBytes: Int = 65536,
        pingInterval: Int = 30,
        stallTimeout: Int = 10,
        maxMessageBytes: Int = 1 << 20,
        customHeaderNames: [String] = ["idempotency-key", "x-request-id"],
        maxHeaderBytes: Int = 8192,
        requestTimeout: Int = 10,
        tls: TLSFiles? = nil,
        sharePort: Bool = false,
        drainTimeout: Double = 10
    ) {
        self.host = host
        self.port = port
        self.webRoot = webRoot
        self.websocketPath = websocketPath
        self.dynamicPrefixes = dynamicPrefixes
        self.maxBodyBytes = maxBodyBytes
        self.pingInterval = pingInterval
        self.stallTimeout = stallTimeout
        self.maxMessageBytes = maxMessageBytes
        self.customHeaderNames = customHeaderNames
        self.maxHeaderBytes = maxHeaderBytes
        self.requestTimeout = requestTimeout
        self.tls = tls
        self.sharePort = sharePort
        self.drainTimeout = drainTimeout
    }

    /// The size of libwebsockets' buffer for one request head (`max_http_header_data2`).
    var headerBufferBytes: Int { 4 * maxHeaderBytes }

    /// True when `path` is one of `dynamicPrefixes` or lies below one.
    func isDynamic(_ path: String) -> Bool {
        dynamicPrefixes.contains { prefix in
            path == prefix || (path.hasPrefix(prefix) && path.dropFirst(prefix.count).first == "/")
        }
    }

    /// Throws when a value cannot work, naming it and what was expected.
    func validate() throws(TransportError) {
        func fail(_ message: String) throws(TransportError) -> Never {
            throw .invalidConfiguration(message)
        }
        if !(0...65535).contains(port) { try fail("port \(port) is outside 0…65535") }
        if !websocketPath.hasPrefix("/") { try fail("websocketPath \"\(websocketPath)\" must start with /") }
        for prefix in dynamicPrefixes where !prefix.hasPrefix("/") || prefix == "/" || prefix.hasSuffix("/") {
            try fail("dynamic prefix \"\(prefix)\" must start with / and name a path below it, without a trailing /")
        }
        for prefix in dynamicPrefixes where prefix.utf8.count > 255 {
            try fail("dynamic prefix \"\(prefix)\" is longer than 255 bytes")
        }
        if isDynamic(websocketPath) { try fail("websocketPath \"\(websocketPath)\" lies under a dynamic prefix") }
        if maxBodyBytes < 0 { try fail("maxBodyBytes \(maxBodyBytes) is negative") }
        if !(0...30000).contains(pingInterval) { try fail("pingInterval \(pingInterval) is outside 0…30000 seconds") }
        if !(1...30000).contains(stallTimeout) { try fail("stallTimeout \(stallTimeout) is outside 1…30000 seconds") }
        if !(1...(256 << 20)).contains(maxMessageBytes) { try fail("maxMessageBytes \(maxMessageBytes) is outside 1 B…256 MiB") }
        // lws keeps each header's length in 16 bits; the buffer must stay below 64 KiB.
        if !(1024...16383).contains(maxHeaderBytes) { try fail("maxHeaderBytes \(maxHeaderBytes) is outside 1024…16383") }
        if !(1...3600).contains(requestTimeout) { try fail("requestTimeout \(requestTimeout) is outside 1…3600 seconds") }
        if !(0...3600).contains(drainTimeout) { try fail("drainTimeout \(drainTimeout) is outside 0…3600 seconds") }
        if !(1...Self.maximumLoops).contains(loops) { try fail("loops \(loops) is outside 1…\(Self.maximumLoops)") }
        if !(4096...(16 << 20)).contains(viewerSendBufferBytes) {
            try fail("viewerSendBufferBytes \(viewerSendBufferBytes) is outside 4 KiB…16 MiB")
        }
        for name in customHeaderNames where name.isEmpty || name != name.lowercased() || name.contains(":") {
            try fail("custom header name \"\(name)\" must be lowercase, without a colon")
        }
        // Whether they hold a certificate and its key is checked by the application (RingCastTLS);
        // here only that lws will be able to open them.
        if let tls {
            if !(0...Int(Int32.max)).contains(tls.strictTransportSecurityMaxAge) {
                try fail(
                    "Strict-Transport-Security max-age \(tls.strictTransportSecurityMaxAge) is outside 0…\(Int32.max) seconds")
            }
            for (what, path) in [("certificate", tls.certificatePath), ("private key", tls.privateKeyPath)]
            where access(path, R_OK) != 0 {
                try fail("TLS \(what) \(path) cannot be read")
            }
        }
    }
}
