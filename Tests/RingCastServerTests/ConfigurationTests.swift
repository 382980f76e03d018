import Foundation
import RingCastServer
import Testing

/// A config edit and the key its error must name.
struct ConfigMistake: CustomTestStringConvertible, Sendable {
    var name: String
    var replace: String
    var with: String
    var key: String

    var testDescription: String { name }
}

@Suite("Configuration")
struct ConfigurationTests {
    static let shipped = repositoryRoot.appendingPathComponent("config/ringcast.json")

    @Test func shippedConfig_describesTheDefaultBoard() throws {
        let configuration = try RingCastConfiguration.load(file: Self.shipped.path, environment: [:])
        #expect(configuration.port == 8080)
        #expect(configuration.fps == 60)
        #expect(configuration.boards.map(\.name) == ["main"])
        let rings = configuration.boards[0].rings
        #expect(rings.map(\.id) == ["move", "exercise", "stand", "task1", "task2", "task3", "task4", "overall", "countdown"])
        // Move, Exercise and Stand are concentric, outermost first.
        let activity = rings.prefix(3)
        #expect(Set(activity.map(\.cx)).count == 1 && Set(activity.map(\.cy)).count == 1)
        #expect(activity.map(\.r) == activity.map(\.r).sorted(by: >))
    }

    @Test func environmentOverridesTheFile() throws {
        let configuration = try RingCastConfiguration.load(
            file: Self.shipped.path,
            environment: [
                "RINGCAST_PORT": "9999", "RINGCAST_HOST": "0.0.0.0", "RINGCAST_FPS": "30", "RINGCAST_DATA_DIR": "/tmp/x",
            ]
        )
        #expect(configuration.port == 9999)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.fps == 30)
        #expect(configuration.dataDirectory == "/tmp/x")
    }

    @Test func tlsFilesComeFromTheEnvironment_andAnEmptyValueSwitchesTLSOff() throws {
        let on = try RingCastConfiguration.load(
            file: Self.shipped.path, environment: ["RINGCAST_TLS_CERT": "/c.pem", "RINGCAST_TLS_KEY": "/k.pem"])
        #expect(on.tlsCertificate == "/c.pem" && on.tlsKey == "/k.pem")
        let off = try RingCastConfiguration.load(
            file: Self.shipped.path, environment: ["RINGCAST_TLS_CERT": "", "RINGCAST_TLS_KEY": ""])
        #expect(off.tlsCertificate == nil && off.tlsKey == nil)
    }

    @Test func badEnvironmentValue_namesTheVariable() {
        #expect {
            _ = try RingCastConfiguration.load(file: Self.shipped.path, environment: ["RINGCAST_PORT": "eighty"])
        } throws: { error in
            "\(error)".contains("RINGCAST_PORT") && "\(error)".contains("eighty")
        }
    }

    static let mistakes: [ConfigMistake] = [
        ConfigMistake(name: "unknown key", replace: #""fps": 60"#, with: #""fsp": 60"#, key: "fsp"),
        ConfigMistake(name: "port out of range", replace: #""port": 8080"#, with: #""port": 70000"#, key: "port"),
        ConfigMistake(name: "fps zero", replace: #""fps": 60"#, with: #""fps": 0"#, key: "fps"),
        ConfigMistake(name: "port as text", replace: #""port": 8080"#, with: #""port": "8080""#, key: "port"),
        ConfigMistake(
            name: "bad colour", replace: ##""#e74c3c", "#c0392b""##, with: ##""#e74c3c", "crimson""##,
            key: "boards[0].rings[0].colors[1]"),
        ConfigMistake(
            name: "duplicate ring", replace: #""id": "exercise""#, with: #""id": "move""#, key: "boards[0].rings[1].id"),
        ConfigMistake(name: "unknown source", replace: #""task4"]"#, with: #""task9"]"#, key: "boards[0].rings[7].sources"),
        ConfigMistake(name: "negative radius", replace: #""r": 220"#, with: #""r": -220"#, key: "boards[0].rings[0].r"),
        ConfigMistake(
            name: "unknown kind", replace: #""kind": "countdown""#, with: #""kind": "timer""#, key: "boards[0].rings[8].kind"),
        ConfigMistake(
            name: "bad text align", replace: #""align": "center" },"#, with: #""align": "middle" },"#,
            key: "boards[0].rings[0].titleText.align"),
        ConfigMistake(
            name: "tls cert without key", replace: #""fps": 60"#, with: #""fps": 60, "tls": {"cert": "cert.pem"}"#, key: "tls.key"
        ),
        ConfigMistake(
            name: "tls key without cert", replace: #""fps": 60"#, with: #""fps": 60, "tls": {"key": "key.pem"}"#, key: "tls.cert"),
        ConfigMistake(
            name: "unknown tls key", replace: #""fps": 60"#, with: #""fps": 60, "tls": {"certificate": "cert.pem"}"#,
            key: "tls.certificate"),
    ]

    @Test(arguments: mistakes)
    func mistakeInTheConfig_namesTheFileAndTheKey(_ mistake: ConfigMistake) throws {
        let original = try String(contentsOf: Self.shipped, encoding: .utf8)
        let range = try #require(original.range(of: mistake.replace), "the shipped config changed: \(mistake.replace)")
        let edited = original.replacingCharacters(in: range, with: mistake.with)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try edited.write(to: file, atomically: true, encoding: .utf8)

        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
            Issue.record("the mistake was accepted")
        } catch {
            #expect(error.file == file.path)
            #expect(error.key == mistake.key, "\(error)")
            #expect(!error.message.isEmpty)
        }
    }
}
