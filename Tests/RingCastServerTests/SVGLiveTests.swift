import Foundation
import RingCastTransport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `GET …/boards/{board}.svg` and `…/rings/{ring}.svg` on a real server: the SVG of a tick is the picture a viewer
/// got for that tick, it has an ETag that a client can revalidate, and the page may be framed only where
/// `embedOrigins` says.
@Suite("SVG and embedding, live")
struct SVGLiveTests {
    /// An SVG answer parsed, with XPath that ignores the SVG namespace.
    struct Picture {
        let document: XMLDocument

        init(_ response: TestResponse) throws {
            document = try XMLDocument(data: Data(response.body), options: [])
        }

        func values(_ path: String, attribute: String? = nil) throws -> [String] {
            let steps = path.split(separator: "/", omittingEmptySubsequences: false).map { step -> String in
                guard !step.isEmpty else { return "" }
                let parts = step.split(separator: "[", maxSplits: 1)
                let name = parts[0] == "*" ? "*" : "*[local-name()='\(parts[0])']"
                return parts.count == 2 ? name + "[" + parts[1] : name
            }
            let nodes = try document.nodes(forXPath: steps.joined(separator: "/") + (attribute.map { "/@" + $0 } ?? ""))
            return nodes.map { $0.stringValue ?? "" }
        }
    }

    @Test func boardSVG_isThePictureAViewerGotForItsSeq() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port)
        try await viewer.waitForGreeting()
        let push = try server.http.send(
            "PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":1,"animation":{"curve":"linear","duration":20}}"#)
        #expect(push.status == 200, "\(push.text)")
        try await viewer.waitUntil("move under way") { ($0.last?.frame?[ring: "move"]?.p ?? 0) > 0.01 }

        // A loaded viewer may skip a tick (it is sent the newest frame when it falls behind); the next GET's tick is
        // then compared. A loaded make test once had a viewer skip the ticks of 5 GETs in a row; each try costs a GET.
        var compared = false
        for _ in 0..<25 where !compared {
            let response = try server.http.get("/api/v1/boards/main.svg")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "image/svg+xml; charset=utf-8")
            #expect(response.headers["etag"]?.hasPrefix("\"svg-") == true)
            #expect(response.headers["cache-control"] == "no-cache")
            let seq = try #require(response.headers["x-ringcast-seq"].flatMap(UInt64.init))
            do {
                try await viewer.waitForSeq(atLeast: seq, timeout: 20)
            } catch {
                // Said below if no GET could be compared; a starved viewer may catch up by the next one.
                continue
            }
            guard let picture = viewer.jsonPicture(at: seq), let move = picture["move"] else { continue }
            let svg = try Picture(response)
            let ring = "/svg/g[@data-ring='move']"
            #expect(try svg.values(ring + "/text[@class='label']") == [move.label])
            #expect(move.p.map { $0 > 0 && $0 < 1 } == true, "mid-animation")
            let tipX = try #require(Double(try svg.values(ring + "//circle[@class='tip']", attribute: "cx").first ?? ""))
            let tipY = try #require(Double(try svg.values(ring + "//circle[@class='tip']", attribute: "cy").first ?? ""))
            #expect(abs(tipX - move.tip.x) < 0.001 && abs(tipY - move.tip.y) < 0.001)
            #expect(try svg.values(ring + "//circle[@class='tip']", attribute: "fill").first == String(move.tip.color.prefix(7)))
            // The arc ends where the tip sits: at a1 on the ring's circle.
            let path = try #require(try svg.values(ring + "/g/g[@class='arc']/path", attribute: "d").last)
            let end = path.split(separator: " ").suffix(2).compactMap { Double($0) }
            #expect(end.count == 2 && abs(end[0] - move.tip.x) < 0.001 && abs(end[1] - move.tip.y) < 0.001, "\(path)")
            compared = true
        }
        #expect(
            compared,
            "no GET's tick was one the viewer got: its last seq \(String(describing: viewer.lastSeq)), \(viewer.frames.count) frames, close \(String(describing: viewer.closeCode)), failure \(viewer.failure ?? "none")"
        )
    }

    @Test func atEnd_showsTheTargets_andTheETagRevalidates() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let push = try server.http.send(
            "PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":0.42,"animation":{"curve":"linear","duration":30}}"#)
        #expect(push.status == 200, "\(push.text)")
        let first = try server.http.get("/api/v1/boards/main.svg?at=end")
        #expect(first.status == 200)
        #expect(try Picture(first).values("/svg/g[@data-ring='move']/text[@class='label']") == ["42%"])
        let etag = try #require(first.headers["etag"])
        let again = try server.http.get("/api/v1/boards/main.svg?at=end", headers: ["If-None-Match": etag])
        #expect(again.status == 304, "the same picture at a later tick keeps its ETag")
        #expect(again.body.isEmpty)
        let other = try server.http.get("/api/v1/boards/main.svg?at=end", headers: ["If-None-Match": "\"svg-0\""])
        #expect(other.status == 200)

        let portrait = try server.http.get("/api/v1/boards/main.svg?at=end&arrangement=portrait")
        #expect(portrait.status == 200)
        #expect(try Picture(portrait).values("/svg", attribute: "data-arrangement") == ["portrait"])
        let ring = try server.http.get("/api/v1/boards/main/rings/move.svg?at=end")
        #expect(ring.status == 200)
        #expect(try Picture(ring).values("//text[@class='label']") == ["42%"])
        let badge = try server.http.get("/api/v1/boards/main/rings/move.svg?badge=1&at=end&v=3")
        #expect(badge.status == 200)
        let picture = try Picture(badge)
        #expect(try picture.values("/svg", attribute: "height") == ["40"])
        #expect(try picture.values("//text[@class='label']") == ["42%"])
    }

    @Test(arguments: [
        ("/api/v1/boards/nope.svg", 404, "board"),
        ("/api/v1/boards/main/rings/nope.svg", 404, "ring"),
        ("/api/v1/boards/main.svg?at=later", 400, "at"),
        ("/api/v1/boards/main.svg?arrangement=square", 400, "arrangement"),
        ("/api/v1/boards/main.svg?badge=1", 400, "badge"),
        ("/api/v1/boards/main/rings/move.svg?badge=yes", 400, "badge"),
    ])
    func badQueries_areRefusedNamingTheField(path: String, status: Int, field: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.http.get(path)
        #expect(response.status == status, "\(response.text)")
        #expect(response.error?.field == field, "\(response.text)")
    }

    @Test func readToken_guardsTheSVG() throws {
        let server = try TestServer { $0.readToken = "read-secret-1" }
        defer { server.shutdown() }
        #expect(try server.http.get("/api/v1/boards/main.svg").status == 401)
        #expect(try server.http.get("/api/v1/boards/main.svg?token=read-secret-1").status == 200)
    }

    @Test func page_isFramedOnlyByEmbedOrigins() throws {
        let closed = try TestServer()
        defer { closed.shutdown() }
        let page = try closed.http.get("/")
        #expect(page.headers["x-frame-options"] == "deny")
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)

        let open = try TestServer { $0.embedOrigins = ["https://wiki.example.com"] }
        defer { open.shutdown() }
        for path in ["/", "/index.html", "/app.js"] {
            let answer = try open.http.get(path)
            #expect(answer.status == 200)
            #expect(answer.headers["x-frame-options"] == nil, "\(path)")
            #expect(
                answer.headers["content-security-policy"]?.contains("frame-ancestors 'self' https://wiki.example.com;") == true,
                "\(path)")
        }
        let cached = try open.http.get("/", headers: ["If-None-Match": try #require(open.http.get("/").headers["etag"])])
        #expect(cached.status == 304)
        #expect(cached.headers["content-security-policy"]?.contains("https://wiki.example.com") == true)
        // The control page holds a write token: never framed. Nor is the API.
        for path in ["/control.html", "/control", "/api/v1/boards/main", "/api/v1/boards/main.svg", "/nothing-here"] {
            let answer = try open.http.get(path)
            #expect(answer.headers["x-frame-options"] == "deny", "\(path)")
            #expect(answer.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true, "\(path)")
        }
    }
}
