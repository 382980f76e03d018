import Foundation
import RingCastCore

/// One call of the REST API as a client command builds it before anything is sent: the method,
/// the path under `/api/v1/` as unescaped segments, and the JSON body. Commands build it in a
/// function of their own, so the tests check what would go over the wire without a server.
struct APIRequest: Equatable {
    var method: String
    /// `["boards", "ci", "rings"]` for `/api/v1/boards/ci/rings`; `ServerConnection` escapes each.
    var path: [String]
    /// The JSON body; nil for none.
    var body: [UInt8]?
    /// Headers of the request's own (e.g. `If-None-Match: *`), sent as they are.
    var headers: [String: String] = [:]
    /// The query, in order (`?since=1h&points=500`); `ServerConnection` encodes it (`encodedQuery`).
    var query: [URLQueryItem] = []

    /// `since=1h&points=500`: each value percent-encoded but for letters, digits and `-._~:`, so that a `+` (in
    /// `+00:00`) is not read as a space.
    var encodedQuery: String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:")
        return query.map { item in
            let value = item.value ?? ""
            return item.name + "=" + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        }
        .joined(separator: "&")
    }

    /// This request asking for `Prefer: return=minimal` (RFC 7240): the server answers a write with its status and
    /// ETag alone and encodes nothing, for a command that prints nothing of the answer.
    var minimal: APIRequest {
        var request = self
        request.headers["Prefer"] = "return=minimal"
        return request
    }

    init(_ method: String, _ path: [String]) {
        self.method = method
        self.path = path
        body = nil
    }

    /// A request with `body` as JSON, keys sorted so the same arguments always give the same bytes.
    init(_ method: String, _ path: [String], json body: some Encodable) throws(CommandFailure) {
        self.init(method, path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            self.body = Array(try encoder.encode(body))
        } catch {
            // Only a number JSON cannot hold (NaN, infinity) fails, and the commands check those first.
            throw CommandFailure("cannot write the request as JSON: \(error)")
        }
    }

    /// A request with `body` as JSON, checked by the server's own decoder of that body (`type`, from
    /// RingCastCore) before anything is sent: the one validation of a request (issue 20), so the
    /// client refuses what the server would refuse, in the server's words and naming the field.
    init<Body: Decodable>(
        _ method: String, _ path: [String], json body: some Encodable, checkedAs type: Body.Type
    ) throws(CommandFailure) {
        try self.init(method, path, json: body)
        do {
            _ = try RequestDecoder.decode(type, from: self.body ?? [])
        } catch {
            throw CommandFailure("\(error.field.map { "\($0): " } ?? "")\(error.message)")
        }
    }

    /// The body as text, for tests and messages.
    var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }
}
