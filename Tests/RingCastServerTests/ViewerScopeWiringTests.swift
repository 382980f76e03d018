import RingCastCore
import Testing

@testable import RingCastServer

/// Scopes that follow changes, through the shipped wiring in process (`TestApplication`): a connected viewer never
/// receives a board its token may not read, whether a playlist is redefined to hold one or a reload narrows its token;
/// it is closed with 4403 instead (4401 once its token is gone).
@Suite("Viewer scopes, wired")
struct ViewerScopeWiringTests {
    static let root = "root-secret-1"
    static let onlyMain = AccessToken(name: "tv-main", secret: .plain("tv-main-secret"), boards: ["main"], access: .read)
    static let both = AccessToken(name: "tv-wall", secret: .plain("tv-wall-secret"), boards: ["main", "secret"], access: .read)

    private static func app() throws -> TestApplication {
        try TestApplication {
            $0.writeToken = root
            $0.tokens = [onlyMain, both]
        }
    }

    private static func admin(_ app: TestApplication, _ method: String, _ path: String, _ body: String) throws -> TestResponse {
        try app.send(method, path, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(root)"], body: body)
    }

    /// Whether `messages` hold anything of board `board`: its layout or a frame.
    private static func received(_ board: String, _ messages: [ViewerMessage]) -> Bool {
        messages.contains { message in
            switch message {
            case .layout(let layout, _): layout.board == board
            case .frame(let frame, _): frame.board == board
            case .event: false
            }
        }
    }

    @Test func aPlaylistRedefinedToIncludeABoardOutsideAViewersScope_neverReachesIt_andClosesItWith4403() throws {
        let app = try Self.app()
        #expect(try Self.admin(app, "PUT", "/api/v1/boards/secret", #"{"template":"single"}"#).status == 201)
        let defined = try Self.admin(app, "PUT", "/api/v1/playlists/wall", #"{"boards":["main"],"seconds":1}"#)
        try #require(defined.status == 201, "\(defined.text)")
        let scoped = app.connect("playlist=wall&format=json&token=tv-main-secret")
        let covered = app.connect("playlist=wall&format=json&token=tv-wall-secret")
        #expect(scoped.frames.count == 1 && covered.frames.count == 1)

        let redefined = try Self.admin(app, "PUT", "/api/v1/playlists/wall", #"{"boards":["main","secret"],"seconds":1}"#)
        #expect(redefined.status == 200, "\(redefined.text)")
        #expect(scoped.closeCode == 4403, "closed before the next tick")
        app.advance(ticks: 3 * Int64(app.fps))
        // The viewer whose token reads both boards is switched to secret: the redefinition did reach viewers.
        #expect(Self.received("secret", covered.messages))
        #expect(covered.closeCode == nil)
        #expect(!Self.received("secret", scoped.messages), "the scoped viewer got secret's layout or a frame")

        // A new connection with the narrow token is refused, as before.
        let again = app.connect("playlist=wall&format=json&token=tv-main-secret")
        #expect(again.refusal?.status == 403, "\(again.refusal?.text ?? "admitted")")
    }

    @Test func aReloadNarrowingAViewersToken_closesItWith4403_andOneWhoseTokenWentWith4401() throws {
        let app = try Self.app()
        let narrowed = app.connect("board=main&format=json&token=tv-main-secret")
        let removed = app.connect("board=main&format=json&token=tv-wall-secret")
        let kept = app.connect("board=main&format=json&token=\(Self.root)")
        for viewer in [narrowed, removed, kept] { #expect(viewer.frames.count == 1) }

        let onlySecret = AccessToken(name: "tv-main", secret: .plain("tv-main-secret"), boards: ["secret"], access: .read)
        #expect(try app.reload { $0.tokens = [onlySecret] })
        #expect(narrowed.closeCode == 4403)
        #expect(removed.closeCode == 4401)
        let push = try Self.admin(app, "PUT", "/api/v1/boards/main/rings/move", #"{"progress":0.7,"animation":"none"}"#)
        #expect(push.status == 200, "\(push.text)")
        app.advance(ticks: 2)
        #expect(kept.frames.last?[ring: "move"]?.p == 0.7)
        #expect(kept.closeCode == nil)
        #expect(narrowed.frames.count == 1 && removed.frames.count == 1, "nothing after the close")
    }
}
