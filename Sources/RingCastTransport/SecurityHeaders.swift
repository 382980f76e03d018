/// The security headers every answer carries: the set libwebsockets' vhost option
/// `LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE` adds (Mozilla Observatory's),
/// written by the transport itself, so that the page may name the sites allowed to frame it:
/// lws adds its set to every answer of the vhost alike, `frame-ancestors 'none'` and
/// `x-frame-options: deny` included.
public enum SecurityHeaders {
    /// The headers for an answer that `frameAncestors` may frame (origins such as
    /// `https://wiki.example.com`, or `*`) besides the server's own pages; none: nobody may frame
    /// it (`frame-ancestors 'none'` and `x-frame-options: deny`, lws's values). With origins,
    /// `x-frame-options` is left out: it can only say deny or same origin, and a browser that
    /// knows `frame-ancestors` ignores it anyway (CSP Level 2 §7.7.1).
    public static func fields(frameAncestors: [String] = []) -> [(name: String, value: String)] {
        let ancestors = frameAncestors.isEmpty ? "'none'" : (["'self'"] + frameAncestors).joined(separator: " ")
        var fields: [(name: String, value: String)] = [
            (
                name: "content-security-policy",
                value: "default-src 'none'; img-src 'self' data: ; script-src 'self'; font-src 'self'; "
                    + "style-src 'self'; connect-src 'self'; frame-ancestors \(ancestors); base-uri 'none';form-action 'self';"
            ),
            (name: "x-content-type-options", value: "nosniff"),
            (name: "x-xss-protection", value: "1; mode=block"),
        ]
        if frameAncestors.isEmpty {
            fields.append((name: "x-frame-options", value: "deny"))
        }
        fields.append((name: "referrer-policy", value: "no-referrer"))
        return fields
    }
}
