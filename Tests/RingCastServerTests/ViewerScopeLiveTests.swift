import Dispatch
import Foundation
import RingCastCore
import RingCastServer
import RingCastTransport
import Synchronization
import Testing

/// Scopes that follow changes on a real server: a connected viewer never receives a board its token may not read,
/// whether a playlist is redefined to hold one or a reload narrows its token; it is closed with 4403 instead.
@Suite("Viewer scopes, live")
struct ViewerScopeLiveTests {
    static let root = "root-secret-1"
    static let onlyMain = AccessToken(name: "tv-main", secret: .plain("tv-main-secret"), boards: ["main"], access: .read)
    static let both = AccessToken(name: "tv-wall", secret: .plain("tv-wall-secret"), boards: ["main", "secret"], access: .read)

    private static func adjust(_ configuration: inout RingCastConfiguration, tokens: [AccessToken]) {
        configuration.writeToken = root
        configuration.tokens = tokens
    }

    private static func admin(_ server: TestServer, _ method: String, _ path: String, _ body: String) throws -> TestResponse {
        try server.http.send(
            method, path, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(root)"], body: body)
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

    @Test func aPlaylistRedefinedToIncludeABoardOutsideAViewersScope_neverReachesIt_andClosesItWith4403() async throws {
        let server = try TestServer { Self.adjust(&$0, tokens: [Self.onlyMain, Self.both]) }
        defer { server.shutdown() }
        #expect(try Self.admin(server, "PUT", "/api/v1/boards/secret", #"{"template":"single"}"#).status == 201)
        let defined = try Self.admin(server, "PUT", "/api/v1/playlists/wall", #"{"boards":["main"],"seconds":1}"#)
        try #require(defined.status == 201, "\(defined.text)")

        let client = try WebSocketClient()
        defer { client.shutdown() }
        let scoped = TestViewer(client: client, port: server.port, path: "/ws?playlist=wall&format=json&token=tv-main-secret")
        let covered = TestViewer(client: client, port: server.port, path: "/ws?playlist=wall&format=json&token=tv-wall-secret")
        try await scoped.waitForGreeting()
        try await covered.waitForGreeting()

        let redefined = try Self.admin(server, "PUT", "/api/v1/playlists/wall", #"{"boards":["main","secret"],"seconds":1}"#)
        #expect(redefined.status == 200, "\(redefined.text)")
        #expect(try await scoped.waitForClose(timeout: 15) == 4403)
        // The viewer whose token reads both boards is switched to secret: the redefinition did reach viewers.
        _ = try await covered.waitUntil(timeout: 20, "the switch to secret") { Self.received("secret", $0) }
        #expect(covered.closeCode == nil)
        #expect(!Self.received("secret", scoped.messages), "the scoped viewer got secret's layout or a frame")

        // A new connection with the narrow token is refused, as before.
        let again = TestViewer(client: client, port: server.port, path: "/ws?playlist=wall&format=json&token=tv-main-secret")
        _ = try await again.waitForClose()
        #expect(again.failure?.contains("403") == true, "\(String(describing: again.failure))")
    }

    @Test func aReloadNarrowingAViewersToken_closesItWith4403_andOneWhoseTokenWentWith4401() async throws {
        let server = try TestServer { Self.adjust(&$0, tokens: [Self.onlyMain, Self.both]) }
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let narrowed = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=json&token=tv-main-secret")
        let removed = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=json&token=tv-wall-secret")
        let kept = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=json&token=\(Self.root)")
        for viewer in [narrowed, removed, kept] { try await viewer.waitForGreeting() }

        let onlySecret = AccessToken(name: "tv-main", secret: .plain("tv-main-secret"), boards: ["secret"], access: .read)
        var configuration = try RingCastConfiguration.load(
            file: repositoryRoot.appendingPathComponent("config/ringcast.json").path, environment: [:])
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.webRoot = repositoryRoot.appendingPathComponent("web").path
        configuration.openAPIDocument = repositoryRoot.appendingPathComponent("docs/openapi.yaml").path
        configuration.dataDirectory = server.dataDirectory.path
        Self.adjust(&configuration, tokens: [onlySecret])
        let reloaded = try await onOwnThread { [configuration] in
            let done = DispatchSemaphore(value: 0)
            let applied = Mutex<Bool?>(nil)
            server.server.reload(configuration) { result in
                applied.withLock { $0 = result }
                done.signal()
            }
            _ = done.wait(timeout: .now() + 10)
            return applied.withLock { $0 }
        }
        #expect(reloaded == true)
        #expect(try await narrowed.waitForClose(timeout: 15) == 4403)
        #expect(try await removed.waitForClose(timeout: 15) == 4401)
        let push = try Self.admin(server, "PUT", "/api/v1/boards/main/rings/move", #"{"progress":0.7,"animation":"none"}"#)
        #expect(push.status == 200, "\(push.text)")
        try await kept.waitUntil("the push after the reload") { $0.last?.frame?[ring: "move"]?.p == 0.7 }
        #expect(kept.closeCode == nil)
    }
}
