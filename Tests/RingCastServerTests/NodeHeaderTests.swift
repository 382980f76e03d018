import Foundation
import RedisTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 21, item 7: in cluster mode every answer names the node that gave it (`X-RingCast-Node`,
/// docs/CLUSTER.md) — WebSocket answers too: the `101` that lws writes, a refused upgrade, an
/// in-band refusal, and the errors the transport answers itself. A node of a real cluster on its
/// own `redis-server`, in process.
@Suite("X-RingCast-Node on every answer")
struct NodeHeaderTests {
    @Test func clusterNode_namesItselfOnThe101_refusedUpgrades_andTransportErrors() async throws {
        let redis = try RedisProcess()
        defer { redis.stop() }
        let server = try TestServer { configuration in
            configuration.redis = "redis://127.0.0.1:\(redis.port)"
            configuration.node = "node-a"
        }
        defer { server.shutdown() }

        let upgrade = try Self.openingHandshake(port: server.port, path: "/ws?board=main")
        #expect(upgrade.status == 101)
        #expect(upgrade.headers["x-ringcast-node"] == "node-a", "head: \(upgrade.headers)")
        #expect(upgrade.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")

        let inBand = try Self.openingHandshake(port: server.port, path: "/ws?board=nope&refusal=message")
        #expect(inBand.status == 101)
        #expect(inBand.headers["x-ringcast-node"] == "node-a", "head: \(inBand.headers)")

        // Refused by the application (unknown board) and by the transport (no key).
        let refused = try server.http.exchange(Array(Self.upgradeRequest(port: server.port, "/ws?board=nope").utf8))
        #expect(refused.status == 404)
        #expect(refused.headers["x-ringcast-node"] == "node-a", "head: \(refused.headers)")
        let keyless = Self.upgradeRequest(port: server.port, "/ws").replacingOccurrences(
            of: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", with: "")
        let noKey = try server.http.exchange(Array(keyless.utf8))
        #expect(noKey.status == 400)
        #expect(noKey.headers["x-ringcast-node"] == "node-a", "head: \(noKey.headers)")

        // An HTTP error the transport answers, and an API answer.
        let missing = try server.http.get("/nothing-here")
        #expect(missing.status == 404)
        #expect(missing.headers["x-ringcast-node"] == "node-a")
        #expect(try server.http.get("/api/v1/boards/main").headers["x-ringcast-node"] == "node-a")

        // The page's static files, and their 304.
        let page = try server.http.get("/")
        #expect(page.status == 200 && page.headers["x-ringcast-node"] == "node-a", "head: \(page.headers)")
        let script = try server.http.get("/app.js")
        #expect(script.headers["x-ringcast-node"] == "node-a", "head: \(script.headers)")
        let tag = try #require(script.headers["etag"])
        let unchanged = try server.http.get("/app.js", headers: ["If-None-Match": tag])
        #expect(unchanged.status == 304 && unchanged.headers["x-ringcast-node"] == "node-a", "head: \(unchanged.headers)")
    }

    @Test func standaloneServer_sendsNoNodeHeader() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let upgrade = try Self.openingHandshake(port: server.port, path: "/ws?board=main")
        #expect(upgrade.status == 101)
        #expect(upgrade.headers["x-ringcast-node"] == nil)
        #expect(try server.http.get("/ws?board=nope").headers["x-ringcast-node"] == nil)
        #expect(try server.http.get("/").headers["x-ringcast-node"] == nil)
    }

    static func upgradeRequest(port: Int, _ path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    /// Sends an upgrade on `path` and reads the answer's head only (a `101` has no length and
    /// the stream goes on after it); the connection is closed on return.
    static func openingHandshake(port: Int, path: String) throws -> TestResponse {
        let fd = try connectLoopback(port: port, timeoutSeconds: 5)
        defer { close(fd) }
        let request = Array(upgradeRequest(port: port, path).utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw TestHTTPError.io("send failed: errno \(errno)")
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while String(decoding: buffer, as: UTF8.self).range(of: "\r\n\r\n") == nil {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { throw TestHTTPError.io("no complete head (recv \(count), errno \(errno))") }
            buffer += chunk.prefix(count)
        }
        let text = String(decoding: buffer, as: UTF8.self)
        let head = text[..<text.range(of: "\r\n\r\n")!.lowerBound]
        let lines = head.split(separator: "\r\n")
        let parts = (lines.first ?? "").split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw TestHTTPError.badResponse("bad head: \(head)") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return TestResponse(status: status, statusLine: String(lines.first ?? ""), headers: headers, body: [])
    }
}
