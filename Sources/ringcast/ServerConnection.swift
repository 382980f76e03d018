import Foundation
import RingCastClient

/// One RingCast server as the client commands reach it: the URL as given (for messages), a
/// reverse proxy's path prefix, and one keep-alive HTTP (or https) client.
///
/// Main thread only.
final class ServerConnection {
    /// The `--server` URL as given.
    let url: String
    private let pathPrefix: String
    private let client: HTTPClient
    /// Where the token came from, `--token` or `RINGCAST_TOKEN`, for messages; nil without one.
    private let tokenSource: String?

    /// Resolves `host` once; a name that does not resolve throws.
    init(
        url: String, host: String, port: Int, pathPrefix: String, tls: TLSOptions?, token: String?,
        tokenSource: String? = nil
    ) throws(CommandFailure) {
        self.url = url
        self.pathPrefix = pathPrefix
        self.tokenSource = token == nil ? nil : tokenSource
        do {
            let address = try ServerAddress(resolving: host, port: port)
            client = HTTPClient(address: address, token: token, timeoutSeconds: 10, tls: tls)
        } catch {
            throw CommandFailure(error, server: url)
        }
    }

    /// `METHOD /api/v1/SEGMENT/…[?QUERY]`, each segment escaped (`query` as it is): the 2xx answer, else why not.
    func request(
        _ method: String, api segments: [String], query: String = "", json body: [UInt8]? = nil,
        headers: [(name: String, value: String)] = []
    ) throws(CommandFailure) -> HTTPClient.Response {
        let path =
            pathPrefix + "/api/v1/" + segments.map(Self.escape).joined(separator: "/") + (query.isEmpty ? "" : "?" + query)
        do {
            return try client.request(method, path, json: body, headers: headers)
        } catch {
            throw CommandFailure(error, server: url, tokenSource: tokenSource)
        }
    }

    /// `GET /api/v1/SEGMENT/…`: the 2xx answer, nil for a 404 (nothing there), else why not.
    func find(api segments: [String]) throws(CommandFailure) -> HTTPClient.Response? {
        let path = pathPrefix + "/api/v1/" + segments.map(Self.escape).joined(separator: "/")
        do {
            return try client.request("GET", path, json: nil)
        } catch ClientError.httpStatus(404, _) {
            return nil
        } catch {
            throw CommandFailure(error, server: url, tokenSource: tokenSource)
        }
    }

    /// Sends `request`: the 2xx answer, else why not.
    func send(_ request: APIRequest) throws(CommandFailure) -> HTTPClient.Response {
        try self.request(
            request.method, api: request.path, query: request.encodedQuery, json: request.body,
            headers: request.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) })
    }

    /// A 2xx answer's JSON body as `type`; a body that is not one throws, naming the server.
    /// Sends `request` (a GET) and prints the answer: the server's body as it came with `json` (`--json`, a
    /// history's `--csv`), ending in one newline, else what `text` makes of it, decoded as `Value`.
    func show<Value: Decodable>(
        _ request: APIRequest, json: Bool, as type: Value.Type, _ text: (Value) -> String
    ) throws(CommandFailure) {
        let response = try send(request)
        // The answer as it came ends with a newline (every JSON answer does, and a CSV's rows); only one is printed.
        let shown = json ? response.text : text(try decode(type, from: response))
        print(shown, terminator: json && !shown.hasSuffix("\n") ? "\n" : "")
    }

    func decode<Value: Decodable>(_ type: Value.Type, from response: HTTPClient.Response) throws(CommandFailure) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(response.body))
        } catch {
            throw CommandFailure("\(url) did not answer with a RingCast \(type): \(error)")
        }
    }

    /// `segment` percent-encoded for one path segment (a `/` in it is escaped too).
    private static func escape(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? segment
    }
}

@available(*, unavailable)
extension ServerConnection: Sendable {}
