import Foundation
import RingCastCore
import RingCastTransport
import Testing

@testable import RingCastServer

/// Scoped tokens on a real server: a TV with a board-scoped read token, a pipeline with a token for another
/// board, and push-to-create over HTTP.
@Suite("Access, live")
struct AccessLiveTests {
    static let root = "root-secret-1"

    @Test func aBoardScopedReadToken_watchesItsBoard_andIsRefusedAnother_andAWriteElsewhereIs403() async throws {
        let server = try TestServer {
            $0.writeToken = Self.root
            $0.tokens = [
                AccessToken(name: "tv-main", secret: .plain("tv-main-secret"), boards: ["main"], access: .read),
                AccessToken(name: "ci", secret: .plain("ci-secret-1"), boards: ["ci", "ci-*"], access: .write),
            ]
        }
        defer { server.shutdown() }
        let created = try server.http.send(
            "PUT", "/api/v1/boards/sales",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(Self.root)"], body: #"{"template":"single"}"#
        )
        #expect(created.status == 201, "\(created.text)")

        let client = try WebSocketClient()
        defer { client.shutdown() }
        let admitted = TestViewer(client: client, port: server.port, path: "/ws?board=main&format=json&token=tv-main-secret")
        try await admitted.waitUntil("layout and keyframe") { $0.count >= 2 }
        let refused = TestViewer(client: client, port: server.port, path: "/ws?board=sales&format=json&token=tv-main-secret")
        _ = try await refused.waitForClose()
        #expect(refused.messages.isEmpty)
        #expect(refused.failure?.contains("403") == true, "\(String(describing: refused.failure))")

        let write = try server.http.send(
            "PUT", "/api/v1/boards/sales/rings/progress",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer ci-secret-1"], body: #"{"progress":0.5}"#)
        #expect(write.status == 403, "\(write.text)")
        #expect(write.error?.message == "token \"ci\" may write boards ci, ci-*; it may not write board \"sales\"")
    }
}
