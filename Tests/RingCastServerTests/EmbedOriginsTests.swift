import Foundation
import RingCastServer
import Testing

/// `embedOrigins` goes into a Content-Security-Policy header as is: the config takes CSP host sources and `*`, and
/// refuses anything else naming its index, before it could add a directive or split the header.
@Suite struct EmbedOriginsTests {
    static func load(_ origins: String) throws -> RingCastConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"{"embedOrigins": \#(origins), "boards": [{"name": "main", "rings": [{"id": "a"}]}]}"#.write(
            to: file, atomically: true, encoding: .utf8)
        return try RingCastConfiguration.load(file: file.path, environment: [:])
    }

    @Test func origins_areTaken() throws {
        let origins = [
            "https://wiki.example.com", "http://localhost:8080", "https://*.example.com", "*", "http://10.0.0.5:3000",
        ]
        let text = "[" + origins.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        #expect(try Self.load(text).embedOrigins == origins)
        #expect(try Self.load("[]").embedOrigins == [])
    }

    @Test(arguments: [
        "wiki.example.com", "https://wiki.example.com/", "https://wiki.example.com/page", "https://a.com; script-src *",
        "https://a.com\\r\\nx: y", "'self'", "https://", "https://a.com:99999", "https://a..com", "ftp://a.com",
        "https://*", "https://a.*.com", "",
    ])
    func anythingElse_isRefusedNamingTheEntry(origin: String) throws {
        let error = #expect(throws: ConfigurationError.self) { try Self.load(#"["https://ok.example.com", "\#(origin)"]"#) }
        #expect(error?.key == "embedOrigins[1]", "\(origin)")
    }
}
