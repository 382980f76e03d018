/// The status line the transport writes in front of every answer it composes itself.
///
/// `lws_add_http_header_status` takes the version from `lws_http_action`, which has not run for a
/// WebSocket upgrade or for a request whose head never completed: those answers said `HTTP/1.0`,
/// and clients such as Python's `websockets` then report no valid HTTP response at all. Its
/// reason table also stops at 417, so 422, 429 and 431 went out with no reason. A server answers
/// with its own version (RFC 9110 §6.2), so this is always HTTP/1.1.
enum StatusLine {
    static func text(for status: Int) -> String {
        "HTTP/1.1 \(status) \(reason(for: status))"
    }

    /// RFC 9110 §15's reason phrases for the statuses RingCast sends; empty for others (the
    /// phrase is optional, the space before it is not).
    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}
