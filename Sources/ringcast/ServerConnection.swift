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

    /// Resolves `host` once; a name that does not resolve throws.
    init(url: String, host: String, port: Int, pathPrefix: String, tls: TLSOptions?, token: String?) throws(CommandFailure) {
        self.url = url
        self.pathPrefix = pathPrefix
        do {
            let address = try ServerAddress(resolving: host, port: port)
            client = HTTPClient(address: address, token: token, timeoutSeconds: 10, tls: tls)
        } catch {
            throw CommandFailure(error, server: url)
        }
    }

    /// `METHOD /api/v1/SEGMENT/…`, each segment escaped: the 2xx answer, else why not.
    func request(_ method: String, api segments: [String], json body: [UInt8]? = nil) throws(CommandFailure)
        -> HTTPClient.Response
    {
        let path = pathPrefix + "/api/v1/" + segments.map(Self.escape).joined(separator: "/")
        do {
            return try client.request(method, path, json: body)
        } catch {
            throw CommandFailure(error, server: url)
        }
    }

    /// Sends `request`: the 2xx answer, else why not.
    func send(_ request: APIRequest) throws(CommandFailure) -> HTTPClient.Response {
        try self.request(request.method, api: request.path, json: request.body)
    }

    /// A 2xx answer's JSON body as `type`; a body that is not one throws, naming the server.
    /// Sends `request` (a GET) and prints the answer: the server's JSON as it came with `json` (`--json`), else
    /// what `text` makes of it, decoded as `Value`.
    func show<Value: Decodable>(
        _ request: APIRequest, json: Bool, as type: Value.Type, _ text: (Value) -> String
    ) throws(CommandFailure) {
        let response = try send(request)
        print(json ? response.text : text(try decode(type, from: response)), terminator: json ? "\n" : "")
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
