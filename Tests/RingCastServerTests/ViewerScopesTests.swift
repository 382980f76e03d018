import Foundation
import RingCastCore
import Testing

@testable import RingCastServer
@testable import RingCastTransport

/// `ViewerScopes` in process: which connected viewers a playlist's redefinition or a reload of the tokens closes, with
/// what code and reason, by table.
@Suite("Viewer scopes follow changes")
struct ViewerScopesTests {
    static let onlyA = AccessToken(name: "tv-a", secret: .plain("tv-a-secret"), boards: ["a"], access: .read)
    static let wall = AccessToken(name: "tv-wall", secret: .plain("tv-wall-secret"), boards: ["a", "secret"], access: .read)
    static let writer = AccessToken(name: "root", secret: .plain("root-secret-1"), boards: ["*"], access: .admin)

    static func credential(_ secret: String?) -> String? {
        TokenPolicy.readCredential(in: HTTPRequest(method: "GET", path: "/ws", query: secret.map { ["token": $0] } ?? [:]))
    }

    /// Viewers 1–5: a playlist `wall` of [a] watched with tv-a and tv-wall, board `a` with tv-a, playlist `other` of
    /// [a] with tv-a, and board `a` with no credential; and what closed them.
    static func scopes(_ tokens: [AccessToken]) -> (ViewerScopes, () -> [UInt64: ViewerScopes.Closing]) {
        var closed: [UInt64: ViewerScopes.Closing] = [:]
        let scopes = ViewerScopes(tokens: TokenPolicy(tokens: tokens)) { id, closing in closed[id.rawValue] = closing }
        scopes.admitted(ViewerID(rawValue: 1), watching: .playlist("wall"), credential: credential("tv-a-secret"))
        scopes.admitted(ViewerID(rawValue: 2), watching: .playlist("wall"), credential: credential("tv-wall-secret"))
        scopes.admitted(ViewerID(rawValue: 3), watching: .board("a"), credential: credential("tv-a-secret"))
        scopes.admitted(ViewerID(rawValue: 4), watching: .playlist("other"), credential: credential("tv-a-secret"))
        scopes.admitted(ViewerID(rawValue: 5), watching: .board("a"), credential: nil)
        return (scopes, { closed })
    }

    @Test func aPlaylistRedefinedWithABoardOutsideAToken_closesItsViewersWithThatToken_only() {
        let (scopes, closed) = Self.scopes([Self.onlyA, Self.wall, Self.writer])
        scopes.playlistChanged("wall", boards: ["a", "secret"])
        #expect(closed() == [1: ViewerScopes.Closing(code: 4403, reason: "token tv-a may not read board secret")])
        #expect(scopes.viewers[ViewerID(rawValue: 1)] == nil && scopes.viewers.count == 4)
        // Back to boards it covers: nobody else goes.
        scopes.playlistChanged("wall", boards: ["a"])
        #expect(closed().count == 1)
    }

    @Test func aViewerThatLeft_isNotClosed() {
        let (scopes, closed) = Self.scopes([Self.onlyA, Self.wall, Self.writer])
        scopes.left(ViewerID(rawValue: 1))
        scopes.playlistChanged("wall", boards: ["secret", "a"])
        #expect(closed().isEmpty)
    }

    struct Reload: CustomTestStringConvertible, Sendable {
        var name: String
        var tokens: [AccessToken]
        var closed: [UInt64: Int]
        var testDescription: String { name }
    }

    @Test(arguments: [
        Reload(name: "the same tokens", tokens: [onlyA, wall, writer], closed: [:]),
        Reload(
            name: "tv-a narrowed to b", tokens: [AccessToken(name: "tv-a", secret: .plain("tv-a-secret"), boards: ["b"], access: .read), wall, writer],
            closed: [1: 4403, 3: 4403, 4: 4403]),
        Reload(name: "tv-a removed", tokens: [wall, writer], closed: [1: 4401, 3: 4401, 4: 4401]),
        Reload(
            name: "tv-a's secret changed",
            tokens: [AccessToken(name: "tv-a", secret: .plain("tv-a-secret-2"), boards: ["a"], access: .read), wall, writer],
            closed: [1: 4401, 3: 4401, 4: 4401]),
        Reload(name: "reads opened (write token only)", tokens: [writer], closed: [:]),
    ])
    func aReload_closesTheViewersWhoseTokenNoLongerReadsWhatTheyWatch(reload: Reload) {
        // Viewer 5 was admitted without a credential while reads were open; they are closed here from the start.
        let (scopes, closed) = Self.scopes([Self.writer])
        scopes.tokensChanged(to: TokenPolicy(tokens: reload.tokens)) { name in ["wall": ["a"], "other": ["a"]][name] }
        let readsClosed = reload.tokens.contains { $0.access == .read }
        var expected = reload.closed
        if readsClosed { expected[5] = 4401 }
        #expect(closed().mapValues(\.code) == expected)
        if readsClosed {
            #expect(closed()[5]?.reason == "a read token is needed now")
        }
    }

    @Test func aReloadNarrowingAToken_namesTheTokenAndTheBoardInTheReason() {
        let (scopes, closed) = Self.scopes([Self.onlyA, Self.wall, Self.writer])
        let narrowed = AccessToken(name: "tv-wall", secret: .plain("tv-wall-secret"), boards: ["a"], access: .read)
        scopes.tokensChanged(to: TokenPolicy(tokens: [Self.onlyA, narrowed, Self.writer])) { name in
            ["wall": ["a", "secret"], "other": ["a"]][name]
        }
        #expect(closed()[2] == ViewerScopes.Closing(code: 4403, reason: "token tv-wall may not read board secret"))
        #expect(closed()[1]?.code == 4403, "tv-a never read secret either")
        #expect(closed()[3] == nil && closed()[4] == nil)
    }
}
