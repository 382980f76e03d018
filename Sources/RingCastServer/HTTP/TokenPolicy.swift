import Foundation
import RingCastCore
import RingCastTransport

/// Who may do what to which board, from the configured tokens (DESIGN §14, `AccessToken`): a pure value that
/// takes the presented credential, the resource and the action, and says yes or names what is missing.
///
/// - The shorthands stay what they were: `token` is the token `write`, admin of every board (it could always
///   do everything), and `readToken` the token `read`, reader of every board.
/// - Reads (REST reads, viewers, metrics) are open while no token has `read` access alone (as before: with a
///   write token only, reads were open); writes and admin are open while no token may write. Once closed,
///   an action needs a token that covers the resource at that level or above (`read` ⊂ `write` ⊂ `admin`).
/// - Writes take the token only from `Authorization: Bearer`: a cookie or a query string is sent by a browser
///   on another site's behalf, a header is not. Browsers cannot set headers on a WebSocket, so readers may
///   present their token as `?token=` or the `ringcast_token` cookie instead.
/// - A refusal names the token (never its secret) and the permission it lacks; `Refusal` carries both for
///   `/metrics` (`token="none"` without a credential, `"invalid"` for one no token has).
struct TokenPolicy: Sendable {
    /// What a request asks to do: the access it needs, and where.
    struct Need: Sendable, Equatable {
        var access: AccessToken.Access
        var resource: Resource
    }

    /// What a request touches.
    enum Resource: Sendable, Equatable {
        /// One board (a route's `:board`, a viewer's `?board=`).
        case board(String)
        /// Every board of a playlist (its viewers and its GET): the token must cover each of them.
        case boards([String], playlist: String)
        /// What spans boards (the list of boards or playlists, metrics, the OpenAPI document, writing a
        /// playlist): any token with the access for reads; a token covering `*` for writes.
        case server
    }

    /// Why a request was refused: the API's answer, and for `/metrics` the token's name and the permission.
    struct Refusal: Error, Equatable {
        let error: APIError
        /// The token's name, `none` without a credential, `invalid` for one no token has.
        let token: String
        let permission: AccessToken.Access
    }

    /// Every token, the shorthands first.
    let tokens: [AccessToken]
    private let readsOpen: Bool
    private let writesOpen: Bool

    static let cookieName = "ringcast_token"

    init(tokens: [AccessToken]) {
        self.tokens = tokens
        readsOpen = !tokens.contains { $0.access == .read }
        writesOpen = !tokens.contains { $0.access >= .write }
    }

    /// The configuration's tokens: its shorthands and its `tokens`.
    init(configuration: RingCastConfiguration) {
        self.init(tokens: configuration.accessTokens)
    }

    /// Allows `need` for `request`, or throws the refusal: 401 without a (valid) credential, 403 for a token that
    /// does not cover it.
    func check(_ need: Need, _ request: HTTPRequest) throws(Refusal) {
        if need.access == .read ? readsOpen : writesOpen { return }
        let presented: String
        if need.access == .read {
            guard let found = Self.bearerToken(in: request) ?? Self.cookieOrQueryToken(in: request) else {
                throw refusal(
                    "this server needs a read token: send Authorization: Bearer <token>, ?token= or the \(Self.cookieName) cookie",
                    token: "none", need)
            }
            presented = found
        } else {
            guard let found = Self.bearerToken(in: request) else {
                let elsewhere = Self.cookieOrQueryToken(in: request) != nil
                throw refusal(
                    elsewhere
                        ? "a write token is accepted only as Authorization: Bearer <token>, never from a cookie or ?token="
                        : "this server needs a token that may \(need.access): send Authorization: Bearer <token>",
                    token: "none", need)
            }
            presented = found
        }
        guard let token = token(presented: presented) else {
            throw refusal("the token is not valid", token: "invalid", need)
        }
        try Self.check(need, by: token)
    }

    /// The read credential `request` presents (as `check` takes it for a read), kept as the SHA-256 hex of its secret:
    /// what a viewer is remembered by, to be checked again when its playlist or the tokens change (`ViewerScopes`).
    static func readCredential(in request: HTTPRequest) -> String? {
        (bearerToken(in: request) ?? cookieOrQueryToken(in: request)).map(AccessToken.sha256Hex(of:))
    }

    /// Allows reading `resource` for a credential `readCredential` kept, or throws what `check` would have for it.
    func checkRead(_ resource: Resource, credential: String?) throws(Refusal) {
        let need = Need(access: .read, resource: resource)
        if readsOpen { return }
        guard let credential else { throw refusal("this server needs a read token", token: "none", need) }
        var found: AccessToken?
        for token in tokens where Self.constantTimeEquals(credential, token.secretDigest) && found == nil {
            found = token
        }
        guard let found else { throw refusal("the token is not valid", token: "invalid", need) }
        try Self.check(need, by: found)
    }

    /// Which boards `request`'s credential may read, for a list of boards: every board while reads are open;
    /// else those its token covers (every board for one covering `*`), and none without a valid token.
    func readable(by request: HTTPRequest) -> (String) -> Bool {
        if readsOpen { return { _ in true } }
        guard let presented = Self.bearerToken(in: request) ?? Self.cookieOrQueryToken(in: request),
            let token = token(presented: presented), token.access >= .read
        else { return { _ in false } }
        return token.covers(board:)
    }

    /// Whether `token` may do `need`: the table the matrix tests read.
    static func check(_ need: Need, by token: AccessToken) throws(Refusal) {
        if token.access >= need.access {
            switch need.resource {
            case .board(let board) where token.covers(board: board): return
            case .boards(let boards, _) where boards.allSatisfy(token.covers(board:)): return
            case .server where need.access == .read || token.coversEveryBoard: return
            default: break
            }
        }
        let may = "token \"\(token.name)\" may \(token.access) \(describe(token.boards))"
        let missing: String
        switch need.resource {
        case .board(let board): missing = "it may not \(need.access) board \"\(board)\""
        case .boards(let boards, let playlist):
            let uncovered = boards.filter { !token.covers(board: $0) }
            missing =
                uncovered.isEmpty
                ? "it may not \(need.access) playlist \"\(playlist)\""
                : "it may not \(need.access) playlist \"\(playlist)\", which shows board \"\(uncovered[0])\""
        case .server: missing = "it may not \(need.access) what spans every board (that needs \(need.access) on \"*\")"
        }
        throw Refusal(
            error: APIError(status: 403, code: "forbidden", message: "\(may); \(missing)", field: "Authorization"),
            token: token.name, permission: need.access)
    }

    /// The token whose secret is `presented`, compared in constant time with every token's.
    func token(presented: String) -> AccessToken? {
        var digest: String?
        var found: AccessToken?
        for token in tokens {
            let matches: Bool
            switch token.secret {
            case .plain(let secret): matches = Self.constantTimeEquals(presented, secret)
            case .sha256(let hex):
                if digest == nil { digest = AccessToken.sha256Hex(of: presented) }
                matches = Self.constantTimeEquals(digest ?? "", hex)
            }
            if matches, found == nil { found = token }
        }
        return found
    }

    private static func describe(_ boards: [String]) -> String {
        boards == ["*"] ? "every board" : (boards.count == 1 ? "board " : "boards ") + boards.joined(separator: ", ")
    }

    private func refusal(_ message: String, token: String, _ need: Need) -> Refusal {
        Refusal(
            error: APIError(status: 401, code: "unauthorized", message: message, field: "Authorization"), token: token,
            permission: need.access)
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
