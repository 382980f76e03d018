import Foundation
import RingCastTransport
import Testing

@Suite("Static files")
struct StaticFileTests {
    /// A web root with one file of each type the page uses.
    private static func makeWebRoot() throws -> String {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("ringcast-transport-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/js", withIntermediateDirectories: true)
        let files = [
            "index.html": "<!doctype html><title>rings</title>",
            "boards.html": "<!doctype html><title>boards</title>",
            "js/app.js": "export const a = 1;\n",
            "js/module.mjs": "export const b = 2;\n",
            "style.css": "body { margin: 0 }\n",
            "data.json": "{\"a\":1}",
            "icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            "favicon.ico": "ico",
            "logo.png": "png",
        ]
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        return root
    }

    @Test(arguments: [
        ("/", "text/html; charset=utf-8"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/js/app.js", "text/javascript; charset=utf-8"),
        ("/js/module.mjs", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/data.json", "application/json"),
        ("/icon.svg", "image/svg+xml"),
        ("/favicon.ico", "image/x-icon"),
        ("/logo.png", "image/png"),
    ])
    func file_isServedWithItsContentType(path: String, contentType: String) throws {
        let root = try Self.makeWebRoot()
        let server = try TestServer { $0.webRoot = root }
        defer { server.stop() }
        let response = try server.connection().request("GET", path)
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == contentType)
        let file = path == "/" ? "/index.html" : path
        #expect(response.body == Array(try Data(contentsOf: URL(fileURLWithPath: root + file))))
    }

    @Test func missingFile_is404WithTheDelegatesBody() throws {
        let server = try TestServer { $0.webRoot = try? Self.makeWebRoot() }
        defer { server.stop() }
        let connection = try server.connection()
        let response = try connection.request("GET", "/nope.js")
        #expect(response.status == 404)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.text.contains("\"status\":\"404\""))
        // The connection stays usable.
        #expect(try connection.request("GET", "/style.css").status == 200)
    }

    /// `/boards` is `boards.html`: a page has an address without its suffix (the page's index of boards).
    @Test func pathWithoutASuffix_isItsHTMLFile_andNothingElseIs() throws {
        let root = try Self.makeWebRoot()
        let server = try TestServer { $0.webRoot = root }
        defer { server.stop() }
        let connection = try server.connection()
        let page = try connection.request("GET", "/boards")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text == "<!doctype html><title>boards</title>")
        // A directory's index, a name with a suffix, a trailing slash and a name with no page stay as they were.
        #expect(try connection.request("GET", "/js").status == 404)
        #expect(try connection.request("GET", "/boards/").status == 404)
        #expect(try connection.request("GET", "/style").status == 404)
        #expect(try connection.request("GET", "/boards.htm").status == 404)
        #expect(try connection.request("GET", "/nope").status == 404)
    }

    @Test func pathEscapingTheRoot_staysInside() throws {
        let server = try TestServer { $0.webRoot = try? Self.makeWebRoot() }
        defer { server.stop() }
        let response = try server.connection().request("GET", "/js/../../../../etc/passwd")
        #expect(response.status == 404)
    }

    @Test(arguments: ["PUT", "PATCH", "DELETE", "POST"])
    func nonGetOnAStaticPath_is405(method: String) throws {
        let server = try TestServer { $0.webRoot = try? Self.makeWebRoot() }
        defer { server.stop() }
        let response = try server.connection().request(method, "/index.html", body: Array("x".utf8))
        #expect(response.status == 405)
        #expect(response.text.contains("\"status\":\"405\""))
    }

    @Test func withoutWebRoot_unknownPathIs404() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try server.connection()
        #expect(try connection.request("GET", "/index.html").status == 404)
        #expect(try connection.request("DELETE", "/anything").status == 404)
        #expect(try connection.request("GET", "/apix").status == 404)
        #expect(try connection.request("GET", "/api").status == 200)
    }

    @Test func head_ofAStaticFile_hasNoBody() throws {
        let server = try TestServer { $0.webRoot = try? Self.makeWebRoot() }
        defer { server.stop() }
        let connection = try server.connection()
        try connection.send("HEAD /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse(ignoringBodyOfLength: true)
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/css; charset=utf-8")
    }
}
