/// The one error type of the REST API. It encodes as DESIGN §6's body,
/// `{"error":{"code":"…","message":"…","field":"…"}}` (`field` omitted when nil); `status` is the HTTP status.
///
/// Codes this module produces:
/// - 400 `malformed`: the body is not JSON, not an object, or a value has the wrong JSON type, is missing, or
///   is a number too large for a Double (1e400).
/// - 400 `unknown_field`: an object has a key the API does not know (a typo must not be silently ignored).
/// - 404 `not_found`: no such board or ring; a countdown on a board without a countdown ring.
/// - 422 `out_of_range`: a number outside its range: progress not in 0...10, a duration or spring response not
///   in (0, 60], a dampingFraction not in (0, 10], a bounce not in (−1, 1), countdown seconds not in
///   (0, 86400].
/// - 422 `invalid_value`: a value of the right type that is not allowed: a colour that is not `#rrggbb` or
///   `#rrggbbaa`, `colors` without exactly two entries, an unknown curve, animation or transition name, an
///   empty `rings`, a ring entry that sets neither `progress` nor `colors`, a spring mixing its two forms or an
///   animation with both a curve and a spring, a background `duration` beside a spring or `"none"`.
/// - 422 `read_only`: a push to a ring whose values the server computes (derived or countdown).
///
/// `field` is the dotted path of the offending value in the request body, e.g. `rings.move.progress` or
/// `rings.stand.colors.1`.
public struct APIError: Error, Sendable, Equatable, Encodable {
    public var status: Int
    public var code: String
    public var message: String
    public var field: String?

    public init(status: Int, code: String, message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// 400 `malformed`.
    public static func malformed(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 400, code: "malformed", message: message, field: field)
    }

    /// 400 `unknown_field`: `field` names the key that is not part of the API.
    public static func unknownField(_ message: String, field: String) -> APIError {
        APIError(status: 400, code: "unknown_field", message: message, field: field)
    }

    /// 404 `not_found`.
    public static func notFound(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 404, code: "not_found", message: message, field: field)
    }

    /// 422 `out_of_range`: a number outside the range the API accepts.
    public static func unprocessable(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 422, code: "out_of_range", message: message, field: field)
    }

    /// 422 `invalid_value`: a value of the right JSON type that the API cannot use.
    public static func invalidValue(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 422, code: "invalid_value", message: message, field: field)
    }

    /// 422 `read_only`: the value is computed by the server and cannot be pushed.
    public static func readOnly(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 422, code: "read_only", message: message, field: field)
    }

    /// 422 `limit_exceeded`: more boards or rings than the server is configured to hold.
    public static func limitExceeded(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 422, code: "limit_exceeded", message: message, field: field)
    }

    /// 409 `already_exists`: the id is taken.
    public static func alreadyExists(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 409, code: "already_exists", message: message, field: field)
    }

    /// 409 `conflict`: the change would leave the board inconsistent (a derived ring without sources, a board
    /// without rings).
    public static func conflict(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 409, code: "conflict", message: message, field: field)
    }

    /// 500 `internal`: what the write made cannot be encoded (stored, published, digested), so it was not applied.
    public static func unencodable(_ failure: EncodingFailure) -> APIError {
        APIError(status: 500, code: "internal", message: "\(failure); nothing was changed")
    }

    private enum BodyKeys: String, CodingKey {
        case error
    }

    private enum ErrorKeys: String, CodingKey {
        case code, message, field
    }

    public func encode(to encoder: any Encoder) throws {
        var body = encoder.container(keyedBy: BodyKeys.self)
        var error = body.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
        try error.encode(code, forKey: .code)
        try error.encode(message, forKey: .message)
        try error.encodeIfPresent(field, forKey: .field)
    }

    /// The response body, UTF-8 JSON.
    public var jsonBody: [UInt8] {
        // Encoding strings cannot fail; the fallback only keeps this property non-throwing.
        (try? JSONBytes.encode(self))
            ?? Array(#"{"error":{"code":"internal","message":"the error could not be encoded"}}"#.utf8)
    }
}

extension APIError: CustomStringConvertible {
    /// `422 out_of_range at rings.move.progress: …`, for logs.
    public var description: String {
        let location = field.map { " at \($0)" } ?? ""
        return "\(status) \(code)\(location): \(message)"
    }
}
