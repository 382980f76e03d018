import Foundation
import Testing

@testable import RingCastTransport

/// The pure pieces behind the HTTP edges: the raw head parser for methods lws cannot parse, the
/// version check, status lines and static file lookup. No sockets.
@Suite("Request parsing")
struct RequestParsingTests {
    private func parse(_ text: String) -> RawRequestHead.Parse {
        RawRequestHead.parse(Array(text.utf8))
    }

    @Test func completeHead_isParsed_withHeadersLowercasedAndJoined() {
        let parsed = parse("TRACE /a/./b/../c?x=1&y=%20z&x=2 HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nx-a:  2 \r\n\r\nignored body")
        guard case .complete(let head) = parsed else {
            Issue.record("\(parsed)")
            return
        }
        #expect(head.method == "TRACE")
        #expect(head.version == "HTTP/1.1")
        #expect(head.headers == ["host": "h", "x-a": "1, 2"])
        let target = head.pathAndQuery
        #expect(target?.path == "/a/c")
        #expect(target?.query == ["x": "1", "y": " z"])
    }

    @Test(arguments: [
        ("TRACE http://example.test/api/x?q=a+b HTTP/1.1", "/api/x", ["q": "a b"]),
        ("TRACE //api//x/ HTTP/1.1", "/api/x/", [:]),
        ("TRACE /../../etc/passwd HTTP/1.1", "/etc/passwd", [:]),
        ("TRACE /caf%C3%A9 HTTP/1.1", "/café", [:]),
    ])
    func target_isDecodedAndNormalisedAsLibwebsocketsDoes(line: String, path: String, query: [String: String]) {
        guard case .complete(let head) = parse(line + "\r\n\r\n") else {
            Issue.record("not parsed")
            return
        }
        #expect(head.pathAndQuery?.path == path)
        #expect(head.pathAndQuery?.query == query)
    }

    @Test func brokenEscape_orAuthorityForm_hasNoPath() {
        for line in ["TRACE /a%zz HTTP/1.1", "CONNECT example.test:443 HTTP/1.1", "OPTIONS * HTTP/1.1"] {
            guard case .complete(let head) = parse(line + "\r\n\r\n") else {
                Issue.record("\(line) not parsed")
                continue
            }
            #expect(head.pathAndQuery == nil, "\(line)")
        }
    }

    @Test(arguments: [
        ("TRACE / HTTP/1.1\r\nHost: x\r\n", RawRequestHead.Parse.incomplete),
        ("TRA", .incomplete),
        ("TRACE /\r\n\r\n", .malformed("the request line is not method, target and version")),
        ("TR(CE / HTTP/1.1\r\n", .malformed("\"TR(CE\" is not a method")),
        ("TRACE / HTTP/1.1\r\nNoColon\r\n\r\n", .malformed("the header line \"NoColon\" has no colon")),
        ("TRACE / HTTP/1.1\r\nX A: b\r\n\r\n", .malformed("\"X A\" is not a header name")),
        ("TRACE / HTTP/1.1\r\nX: a\0b\r\n\r\n", .malformed("the X header contains a NUL byte")),
    ])
    func unfinishedOrBrokenHead_isSaidSo(text: String, expected: RawRequestHead.Parse) {
        #expect(parse(text) == expected)
    }

    @Test(arguments: [
        ("HTTP/1.1", RequestReader.Version.http1(minor: 1)),
        ("HTTP/1.0", .http1(minor: 0)),
        ("HTTP/2.0", .unsupported("HTTP/2.0")),
        ("HTTP/2", .unsupported("HTTP/2")),
        ("HTTP/1", .unsupported("HTTP/1")),
        ("FOO/9", .malformed("FOO/9")),
        ("HTTP/1.1 extra", .malformed("HTTP/1.1 extra")),
    ])
    func version_isClassified(text: String, expected: RequestReader.Version) {
        #expect(RequestReader.version(text) == expected)
    }

    @Test func statusLines_areHTTP11_withReasons() {
        #expect(StatusLine.text(for: 431) == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(StatusLine.text(for: 101) == "HTTP/1.1 101 Switching Protocols")
        #expect(StatusLine.text(for: 299) == "HTTP/1.1 299 ")
    }

    @Test func staticFile_resolvesIndexes_typesAndTags_andRefusesDotSegments() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-static-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("<p>".utf8).write(to: URL(fileURLWithPath: root + "/sub/index.html"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/a.unknownsuffix"))
        let types = WebServer.contentTypes

        let index = try #require(StaticFile(urlPath: "/sub", root: root + "/", contentTypes: types))
        #expect(index.path == root + "/sub/index.html")
        #expect(index.contentType == "text/html; charset=utf-8")
        #expect(StaticFile(urlPath: "/sub/", root: root, contentTypes: types)?.path == root + "/sub/index.html")
        #expect(
            StaticFile(urlPath: "/a.unknownsuffix", root: root, contentTypes: types)?.contentType == "application/octet-stream")
        #expect(StaticFile(urlPath: "/missing", root: root, contentTypes: types) == nil)
        #expect(StaticFile(urlPath: "/sub/../sub/index.html", root: root, contentTypes: types) == nil)
        #expect(StaticFile(urlPath: "/", root: root, contentTypes: types) == nil)  // no index.html at the root

        #expect(index.entityTag.count == 18)
        #expect(index.entityTag.hasPrefix("\"00000003"))
        #expect(index.isNotModified(ifNoneMatch: index.entityTag))
        #expect(index.isNotModified(ifNoneMatch: "\"other\", W/\(index.entityTag)"))
        #expect(index.isNotModified(ifNoneMatch: String(index.entityTag.dropFirst().dropLast())))  // lws's unquoted tag
        #expect(index.isNotModified(ifNoneMatch: "*"))
        #expect(!index.isNotModified(ifNoneMatch: "\"other\""))
        #expect(!index.isNotModified(ifNoneMatch: nil))
    }
}
