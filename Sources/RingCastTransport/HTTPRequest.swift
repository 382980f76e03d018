/// One HTTP request as the transport received it: method, decoded path and query, headers and
/// the whole body.
public struct HTTPRequest: Sendable {
    /// "GET", "PATCH", … (uppercase).
    public var method: String
    /// Percent-decoded, without the query, with `.`/`..` segments and repeated slashes removed
    /// (libwebsockets normalises the path while parsing it; it also turns `+` into a space).
    public var path: String
    /// Decoded query parameters; for a repeated name the first value wins.
    public var query: [String: String]
    /// Lowercase names. Every header libwebsockets knows by name is here (content-type,
    /// content-length, authorization, if-match, if-none-match, origin, cookie, host, user-agent,
    /// accept, …). Headers it does not know are only visible when their name is listed in
    /// `TransportConfiguration.customHeaderNames` (idempotency-key and x-request-id by default),
    /// because 4.1.6 can look up an unknown header by name but cannot list them.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The client's IP address as text ("127.0.0.1", "::1").
    public var peer: String

    public init(
        method: String,
        path: String,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        body: [UInt8] = [],
        peer: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
    }
}
