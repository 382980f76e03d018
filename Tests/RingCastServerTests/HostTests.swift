import Foundation
import RingCastCore
import RingCastTransport
import Testing

@testable import RingCastServer

/// The host allow-list (issue 21, defect 1): a page under a name the attacker points at 127.0.0.1 (DNS
/// rebinding) is same-origin with the server in the browser's eyes, so the Origin check alone let it write.
/// Only the `Host` header tells: the server answers 421 to a name it does not serve, and changes nothing.
@Suite("Hosts (DNS rebinding)")
struct HostTests {
    static let board = "/api/v1/boards/main"
    static let patch = #"{"rings":{"move":0.9},"animation":"none"}"#
    static let newBoard = #"{"template":"single"}"#

    /// What a page on `http://NAME:PORT` sends: its Host, and its Origin.
    private static func page(_ name: String, port: Int) -> (client: TestHTTPClient, headers: [String: String]) {
        let client = TestHTTPClient(port: port, host: "\(name):\(port)")
        return (client, ["Content-Type": "application/json", "Origin": "http://\(name):\(port)"])
    }

    /// `response` is a 421 `host_not_allowed` in the API's JSON error shape, naming the Host header.
    private static func expectMisdirected(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 421, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.statusLine == "HTTP/1.1 421 Misdirected Request", sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
        #expect(response.error?.code == "host_not_allowed", "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.error?.field == "Host", sourceLocation: sourceLocation)
        #expect(response.error?.message.contains("allowedHosts") == true, sourceLocation: sourceLocation)
    }

    /// The issue's curl: a PATCH of main and a PUT of a new board from a page on evil.example, whose name
    /// resolves to the server. Both are refused, reads too, and nothing changed; the same writes from the
    /// server's own names go through.
    @Test func rebindingWrites_are421_andChangeNothing_whileTheServersOwnNamesWrite() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let port = server.port
        let before = try server.http.get(Self.board)
        try #require(before.status == 200)

        let evil = Self.page("evil.example", port: port)
        Self.expectMisdirected(try evil.client.send("PATCH", Self.board, headers: evil.headers, body: Self.patch))
        Self.expectMisdirected(try evil.client.send("PUT", "/api/v1/boards/pwned", headers: evil.headers, body: Self.newBoard))
        Self.expectMisdirected(try evil.client.send("DELETE", Self.board + "/countdown", headers: evil.headers, body: nil))
        Self.expectMisdirected(try evil.client.get(Self.board))
        Self.expectMisdirected(try evil.client.get("/metrics"))
        // Without the Origin (a rebinding page's GET sends none), in capitals, with a trailing dot, without a port.
        for host in ["EVIL.example:\(port)", "evil.example.:\(port)", "evil.example", "localhost.evil.example:\(port)"] {
            let response = try TestHTTPClient(port: port, host: host).send("PATCH", Self.board, body: Self.patch)
            Self.expectMisdirected(response)
        }

        let after = try server.http.get(Self.board)
        #expect(after.headers["etag"] == before.headers["etag"])
        #expect(try after.decode(TestSnapshot.self)[ring: "move"]?.target == nil)
        #expect(try server.http.get("/api/v1/boards/pwned").status == 404)

        for (index, name) in ["127.0.0.1", "localhost", "LocalHost", "[::1]"].enumerated() {
            let own = Self.page(name, port: port)
            let patched = try own.client.send("PATCH", Self.board, headers: own.headers, body: Self.patch)
            #expect(patched.status == 200, "\(name): \(patched.text)")
            let created = try own.client.send("PUT", "/api/v1/boards/own-\(index)", headers: own.headers, body: Self.newBoard)
            #expect(created.status == 201, "\(name): \(created.text)")
        }
        #expect(try server.http.get(Self.board).decode(TestSnapshot.self)[ring: "move"]?.target == 0.9)
    }

    @Test func allowedHostsStar_letsEveryHostThrough() throws {
        let server = try TestServer { $0.allowedHosts = ["*"] }
        defer { server.shutdown() }
        let evil = Self.page("evil.example", port: server.port)
        let patched = try evil.client.send("PATCH", Self.board, headers: evil.headers, body: Self.patch)
        #expect(patched.status == 200, "\(patched.text)")
        let created = try evil.client.send("PUT", "/api/v1/boards/anyone", headers: evil.headers, body: Self.newBoard)
        #expect(created.status == 201, "\(created.text)")
    }

    /// A reverse proxy forwards its public name: listed, it is served (with its port, or any); the machine's
    /// name is no longer in the list, while localhost and addresses always are.
    @Test func listedNames_areServed_andTheListReplacesTheDefaultNames() throws {
        let server = try TestServer { $0.allowedHosts = ["rings.example.com", "tv.example:8443"] }
        defer { server.shutdown() }
        let port = server.port
        let put = #"{"progress":0.5,"animation":"none"}"#
        for host in ["rings.example.com", "Rings.Example.com:443", "rings.example.com:\(port)", "tv.example:8443", "localhost"] {
            let response = try TestHTTPClient(port: port, host: host).send("PUT", Self.board + "/rings/move", body: put)
            #expect(response.status == 200, "\(host): \(response.text)")
        }
        let machine = [HostPolicy.machineName()].compactMap { $0 }.filter { $0 != "localhost" }
        for host in ["tv.example", "tv.example:\(port)", "example.com", "evil.rings.example.com"] + machine {
            let response = try TestHTTPClient(port: port, host: host).send("PUT", Self.board + "/rings/move", body: put)
            Self.expectMisdirected(response)
        }
    }

    /// A browser on the rebinding page opens the stream: refused before anything is sent, as an HTTP answer
    /// or (the page's `&refusal=message`) as an error message and close 4421; the server's own name watches.
    @Test func viewerUpgradeWithAnotherHost_isRefused421() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let port = server.port
        let upgrade = { (host: String, query: String) in
            "GET /ws?board=main&format=json\(query) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Origin: http://\(host)\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        }
        let refused = try server.http.exchange(Array(upgrade("evil.example:\(port)", "").utf8))
        Self.expectMisdirected(refused)

        let told = try RawWebSocket(
            port: port, path: "/ws?board=main&format=json&refusal=message", host: "evil.example:\(port)")
        let (messages, code) = try told.readUntilClose()
        #expect(code == 4421)
        let message = try #require(messages.first.map { String(decoding: $0, as: UTF8.self) })
        #expect(message.contains(#""code":"host_not_allowed""#), "\(message)")
        #expect(message.contains(#""status":421"#), "\(message)")

        _ = try RawWebSocket(port: port, host: "localhost:\(port)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: port, origin: "http://127.0.0.1:\(port)")
        try await viewer.waitUntil("layout and keyframe") { $0.count >= 2 }
    }

    /// HTTP/1.0 may leave Host out (the transport answers an HTTP/1.1 request without one 400): such a client
    /// is not a browser, so it is served.
    @Test func http10WithoutHost_isServed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.http.exchange(Array("GET \(Self.board) HTTP/1.0\r\n\r\n".utf8))
        #expect(response.status == 200, "\(response.text)")
        let noHost = try server.http.exchange(Array("GET \(Self.board) HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(noHost.status == 400, "\(noHost.text)")
    }

    // MARK: - The policy in process

    private static func policy(
        _ allowedHosts: [String]?, bind: String = "127.0.0.1", tls: Bool = false, machine: String? = "wallboard"
    ) -> HostPolicy {
        var configuration = RingCastConfiguration()
        configuration.allowedHosts = allowedHosts
        configuration.host = bind
        if tls { configuration.tlsCertificate = "cert.pem" }
        return HostPolicy(configuration: configuration, machineName: machine)
    }

    @Test(arguments: [
        ("localhost:8080", true), ("LOCALHOST", true), ("localhost.", true), ("127.0.0.1:8080", true), ("[::1]:8080", true),
        ("10.1.2.3", true), ("[2001:db8::1]", true), ("wallboard:8080", true), ("WallBoard", true),
        ("evil.example:8080", false), ("wallboard.evil.example", false), ("127.0.0.1.evil.example", false),
        ("localhost.evil", false), ("0x7f.1", false), ("2130706433", false), ("127.1", false), ("[::1", false),
        ("", false), ("evil.example:80:80", false), ("evil example", false), ("[evil]", false),
    ])
    func defaultPolicy_servesLocalhostAddressesAndTheMachinesName(host: String, allowed: Bool) {
        #expect(Self.policy(nil).allows(host) == allowed)
    }

    @Test func thePolicySaysWhatItAnswersTo_forTheLog() {
        #expect("\(Self.policy(nil))" == "localhost, IP addresses, wallboard")
        #expect("\(Self.policy(["rings.example.com:8443", "::1"]))" == "localhost, IP addresses, rings.example.com:8443")
        #expect("\(Self.policy(["*"]))" == #"every host name (allowedHosts ["*"])"#)
    }

    @Test func defaultPolicy_takesTheBindAddressWhenItIsAName() {
        #expect(Self.policy(nil, bind: "rings.lan").allows("rings.lan:8080"))
        #expect(!Self.policy(nil, bind: "0.0.0.0").allows("rings.lan:8080"))
        #expect(!Self.policy(nil, machine: nil).allows("wallboard"))
    }

    @Test func anEntryWithAPort_servesThatPortOnly_aHostWithoutOneMeansTheSchemesPort() {
        let plain = Self.policy(["rings.example.com:80", "tls.example:443"])
        #expect(plain.allows("rings.example.com"))
        #expect(plain.allows("rings.example.com:80"))
        #expect(!plain.allows("rings.example.com:8080"))
        #expect(!plain.allows("tls.example"))
        #expect(Self.policy(["tls.example:443"], tls: true).allows("tls.example"))
        #expect(Self.policy(["*"]).allows("anything.example:1"))
        #expect(Self.policy([]).allows("localhost:8080"))
        #expect(!Self.policy([]).allows("wallboard"))
    }

    @Test func requestsWithoutHost_pass_andARefusalIs421NamingTheHost() throws {
        let policy = Self.policy(nil)
        try policy.check(HTTPRequest(method: "GET", path: Self.board))
        do {
            try policy.check(HTTPRequest(method: "GET", path: Self.board, headers: ["host": "evil.example:8080"]))
            Issue.record("evil.example was served")
        } catch {
            #expect(error.status == 421)
            #expect(error.code == "host_not_allowed")
            #expect(error.field == "Host")
            #expect(error.message.contains(#""evil.example:8080""#), "\(error.message)")
        }
    }

    // MARK: - Configuration

    @Test(arguments: [
        ["http://rings.example.com"], ["rings.example.com/"], ["rings example"], ["rings.example.com:0"],
        ["rings.example.com:99999"], ["bücher.example"], [""], ["*", "rings.example.com"], ["rings.example.com:"],
    ])
    func aBadAllowedHostsEntry_stopsTheStartNamingIt(entries: [String]) throws {
        var configuration = try RingCastConfiguration.load(
            file: repositoryRoot.appendingPathComponent("config/ringcast.json").path, environment: [:])
        configuration.allowedHosts = ["localhost"] + entries
        do {
            try configuration.validate()
            Issue.record("\(entries) was accepted")
        } catch {
            #expect(error.key == "allowedHosts[1]", "\(error)")
        }
    }

    @Test func allowedHosts_comeFromTheFile() throws {
        let shipped = try String(
            contentsOf: repositoryRoot.appendingPathComponent("config/ringcast.json"), encoding: .utf8)
        let edited = shipped.replacingOccurrences(
            of: #""fps": 60"#, with: #""fps": 60, "allowedHosts": ["rings.example.com", "::1", "[::1]:8080", "*.x"]"#)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-hosts-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try edited.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
            Issue.record("a wildcard name was accepted")
        } catch {
            #expect(error.key == "allowedHosts[3]", "\(error)")
            #expect(error.file == file.path)
            #expect(error.message.contains("\"*.x\""), "\(error)")
        }
        try edited.replacingOccurrences(of: #", "*.x""#, with: "").write(to: file, atomically: true, encoding: .utf8)
        let loaded = try RingCastConfiguration.load(file: file.path, environment: [:])
        #expect(loaded.allowedHosts == ["rings.example.com", "::1", "[::1]:8080"])
        #expect(
            try RingCastConfiguration.load(file: repositoryRoot.appendingPathComponent("config/ringcast.json").path)
                .allowedHosts == nil)
    }
}
