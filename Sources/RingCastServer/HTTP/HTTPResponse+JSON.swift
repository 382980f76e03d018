import Foundation
import RingCastCore
import RingCastTransport

extension HTTPResponse {
    /// A JSON response of an `Encodable` value.
    static func json(_ value: some Encodable, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body: [UInt8]
        do {
            body = Array(try encoder.encode(value))
        } catch {
            return .error(APIError(status: 500, code: "internal", message: "cannot encode the response"))
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
            body: error.jsonBody
        )
    }

    /// API answers describe live state: no cache may keep them.
    private static let noStore: [(name: String, value: String)] = [(name: "Cache-Control", value: "no-store")]
}
