/// An error the server reported, decoded from the API's JSON error body
/// `{"error":{"code":"…","message":"…","field":"…"}}` (docs/openapi.yaml, `Error`).
public struct ServerError: Sendable, Equatable, Decodable, CustomStringConvertible {
    /// The machine-readable code, e.g. `not_found` or `out_of_range`.
    public var code: String
    /// The sentence for people, e.g. `no board named "x"`.
    public var message: String
    /// The dotted path of the offending value, e.g. `rings.move.progress`, when there is one.
    public var field: String?

    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    private enum BodyKeys: String, CodingKey {
        case error
    }

    private enum ErrorKeys: String, CodingKey {
        case code, message, field
    }

    public init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyKeys.self)
        let error = try body.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
        code = try error.decode(String.self, forKey: .code)
        message = try error.decode(String.self, forKey: .message)
        field = try error.decodeIfPresent(String.self, forKey: .field)
    }

    /// `not_found: no board named "x" (board)`.
    public var description: String {
        "\(code): \(message)" + (field.map { " (\($0))" } ?? "")
    }
}
