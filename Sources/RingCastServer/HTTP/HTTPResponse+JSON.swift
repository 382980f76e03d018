import Foundation
import RingCastCore
import RingCastTransport

extension HTTPResponse {
    /// A JSON response of an `Encodable` value: keys sorted, `/` as it is (`12/20`, not `12\/20`), and a
    /// newline at the end, so that `curl` leaves the shell's prompt on a line of its own. Every JSON answer of
    /// the API is written here or by `error`; WebSocket frames are not answers and keep their own bytes.
    static func json(_ value: some Encodable, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body: [UInt8]
        do {
            body = Array(try encoder.encode(value)) + newline
        } catch {
            return .error(
                APIError(status: 500, code: "internal", message: "cannot encode the response: \(EncodingFailure(encoding: type(of: value), error))"))
        }
        return HTTPResponse(
            status: status,
            headers: [(name: "Content-Type", value: "application/json")] + headers + noStore,
            body: body
        )
    }

    /// DESIGN's error body `{"error":{"code","message","field"}}` with the error's status.
    static func error(_ error: APIError, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        // RFC 6750: a 401 names the scheme the client should use.
        let challenge: [(name: String, value: String)] =
            error.status == 401 ? [(name: "WWW-Authenticate", value: #"Bearer realm="ringcast""#)] : []
        return HTTPResponse(
            status: error.status,
            headers: [(name: "Content-Type", value: "application/json")] + challenge + headers + noStore,
            body: error.jsonBody + newline
        )
    }

    /// What ends every JSON answer's body.
    private static let newline: [UInt8] = [UInt8(ascii: "\n")]

    /// API answers describe live state: no cache may keep them.
    private static let noStore: [(name: String, value: String)] = [(name: "Cache-Control", value: "no-store")]
}
