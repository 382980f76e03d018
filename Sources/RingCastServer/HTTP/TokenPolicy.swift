import Foundation
import RingCastCore
import RingCastTransport

/// Who may read and who may write, from the configured tokens.
///
/// Writes need the write token when one is configured, and only from `Authorization: Bearer`: a
/// cookie or a query string is sent by a browser on another site's behalf, a header is not.
/// Reads (REST reads, viewers, metrics) need the read token or the write token when a read token
/// is configured. Browsers cannot set headers on a WebSocket, so readers may present their token
/// as `?token=` or the `ringcast_token` cookie instead.
struct TokenPolicy: Sendable {
    enum Access {
        case read
        case write
    }

    var writeToken: String?
    var readToken: String?

    static let cookieName = "ringcast_token"

    /// Throws 401 without (valid) credentials and 403 for a read token used to write.
    func check(_ access: Access, _ request: HTTPRequest) throws(APIError) {
        switch access {
        case .write:
            guard let writeToken else { return }
            guard let presented = Self.bearerToken(in: request) else {
                let elsewhere = Self.cookieOrQueryToken(in: request) != nil
                throw Self.unauthorized(
                    elsewhere
                        ? "a write token is accepted only as Authorization: Bearer <token>, never from a cookie or ?token="
                        : "this server needs a write token: send Authorization: Bearer <token>")
            }
            if Self.constantTimeEquals(presented, writeToken) { return }
            if let readToken, Self.constantTimeEquals(presented, readToken) {
                throw APIError(status: 403, code: "forbidden", message: "the read token cannot write; use the write token")
            }
            throw Self.unauthorized("the token is not valid")
        case .read:
            guard let readToken else { return }
            guard let presented = Self.bearerToken(in: request) ?? Self.cookieOrQueryToken(in: request) else {
                throw Self.unauthorized(
                    "this server needs a read token: send Authorization: Bearer <token>, ?token= or the \(Self.cookieName) cookie"
                )
            }
            if Self.constantTimeEquals(presented, readToken) { return }
            if let writeToken, Self.constantTimeEquals(presented, writeToken) { return }
            throw Self.unauthorized("the token is not valid")
        }
    }

    private static func unauthorized(_ message: String) -> APIError {
        APIError(status: 401, code: "unauthorized", message: message, field: "Authorization")
    }

    /// The token from `Authorization: Bearer`; "" for another scheme (never valid); nil without
    /// the header.
    static func bearerToken(in request: HTTPRequest) -> String? {
        guard let header = request.headers["authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return "" }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The token from `?token=`, else from the cookie.
    static func cookieOrQueryToken(in request: HTTPRequest) -> String? {
        if let token = request.query["token"] { return token }
        guard let cookies = request.headers["cookie"] else { return nil }
        for pair in cookies.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == cookieName { return parts[1] }
        }
        return nil
    }

    /// Compares without an early exit, so response time does not leak how much of a token matched.
    /// The shorter side is padded with zero bytes, so the lengths are compared in full: kept in a
    /// byte, a difference of 256 would vanish and a token with 256 NULs added would match.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt(bitPattern: x.count ^ y.count)
        for index in 0..<max(x.count, y.count) {
            let left = index < x.count ? x[index] : 0
            let right = index < y.count ? y[index] : 0
            difference |= UInt(left ^ right)
        }
        return difference == 0
    }
}
