import Foundation
import RingCastCore
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

/// A config file that is not JSON, and where and what its error must say.
struct ConfigSyntaxMistake: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var line: Int
    var column: Int
    var message: String

    var testDescription: String { name }
}

/// An environment variable with a bad value, and the start of its error.
struct EnvironmentMistake: CustomTestStringConvertible, Sendable {
    var environment: [String: String]
    var description: String

    var testDescription: String { environment.keys.sorted().joined(separator: ", ") }
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
        #expect(configuration.defaultBoard == "main")
    }

    /// The hand-placed main board gets the server's portrait (issue 23), the same as Core makes it, and keeps
    /// its rings sharing a centre as a group.
    @Test func shippedConfigsHandPlacedBoard_getsTheServersPortrait() throws {
        let main = try RingCastConfiguration.load(file: Self.shipped.path, environment: [:]).boards[0]
        #expect(main.arrangements.map(\.name) == ["landscape", "portrait"])
        #expect(main.groups == [["move", "exercise", "stand"]])
        #expect(LayoutCheck.problems(in: main) == [])
        var handPlaced = main
        handPlaced.alternates = []
        handPlaced.groups = []
        #expect(main.alternates == [try #require(Arranger.portrait(ofPlaced: handPlaced))])
    }

    /// A hand-placed board may give its own portrait; it is checked as the landscape is.
    @Test func aHandPlacedBoardsOwnPortrait_isTakenAsGiven_andCheckedForOverlaps() throws {
        func load(secondY: Int) throws -> RingCastConfiguration {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ringcast-config-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            try """
            {"boards": [{"name": "pair", "width": 400, "height": 200, "rings": [
              {"id": "a", "cx": 100, "cy": 100, "r": 60, "thickness": 10, "colors": ["#e74c3c", "#c0392b"],
               "titleText": {"x": 100, "y": 180, "size": 14, "align": "center"}},
              {"id": "b", "cx": 300, "cy": 100, "r": 60, "thickness": 10, "colors": ["#2ecc71", "#27ae60"],
               "titleText": {"x": 300, "y": 180, "size": 14, "align": "center"}}],
             "portrait": {"width": 200, "height": 420, "rings": [
              {"id": "b", "cx": 100, "cy": \(secondY), "titleText": {"x": 100, "y": \(secondY + 80), "size": 14, "align": "center"},
               "labelText": {"x": 100, "y": \(secondY), "size": 20, "align": "center"}},
              {"id": "a", "cx": 100, "cy": 70, "titleText": {"x": 100, "y": 150, "size": 14, "align": "center"},
               "labelText": {"x": 100, "y": 70, "size": 20, "align": "center"}}]}}]}
            """.write(to: file, atomically: true, encoding: .utf8)
            return try RingCastConfiguration.load(file: file.path, environment: [:])
        }
        let pair = try load(secondY: 270).boards[0]
        #expect(pair.arrangements.map(\.name) == ["landscape", "portrait"])
        let portrait = try #require(pair.alternates.first)
        #expect(portrait.width == 200 && portrait.height == 420)
        #expect(portrait.placements.map(\.id) == ["a", "b"], "in the board's ring order")
        #expect(portrait.placement(of: "b")?.cy == 270)
        do {
            _ = try load(secondY: 120)
            Issue.record("overlapping rings in the portrait were accepted")
        } catch let error as ConfigurationError {
            #expect(error.key == "boards[0].portrait", "\(error)")
            #expect(error.message.hasPrefix("portrait: ring \"a\""), "\(error)")
        }
    }

    @Test func boardsWithoutCoordinates_areLaidOutByTheServer() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"""
        {"boards": [
          {"name": "ci", "title": "CI", "rings": [{"id": "build"}, {"id": "tests", "label": "fraction", "max": 20},
            {"id": "all", "kind": "derived", "sources": ["build", "tests"]}], "groups": [["build", "tests"]]},
          {"name": "wall", "template": "tasks", "count": 6}
        ]}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let configuration = try RingCastConfiguration.load(file: file.path, environment: [:])
        let ci = try #require(configuration.boards.first)
        #expect(ci.title == "CI")
        #expect(ci.groups == [["build", "tests"]])
        #expect(ci.arrangements.map(\.name) == ["landscape", "portrait"])
        #expect(ci.ring(withID: "tests")?.label == .fraction)
        #expect(ci.ring(withID: "tests")?.maximum == 20)
        #expect(configuration.boards.last?.rings.count == 7)
    }

    /// Widgets in the config file are defined with the API's keys and checked with its rules (DESIGN §12).
    @Test func widgetsInTheConfig_areDefinedAsTheAPIDefinesThem() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        func load(_ rings: String) throws -> RingCastConfiguration {
            try #"{"boards": [{"name": "wall", "rings": \#(rings)}]}"#.write(to: file, atomically: true, encoding: .utf8)
            return try RingCastConfiguration.load(file: file.path, environment: [:])
        }
        let wall = try #require(
            load(
                #"[{"id": "build"}, {"id": "tests", "kind": "counter", "value": 12, "unit": "tests", "grouping": ","},"#
                    + #" {"id": "status", "kind": "text", "text": "Idle"}, {"id": "load", "kind": "indicator"},"#
                    + ##" {"id": "mood", "kind": "gradient", "colors": ["#000000", "#ffffff", "#ff00ff"]}]"##
            ).boards.first)
        #expect(wall.rings.map(\.kind.name) == ["plain", "counter", "text", "indicator", "gradient"])
        #expect(wall.ring(withID: "tests")?.value == 12)
        #expect(wall.ring(withID: "tests")?.kind.counterFormat == CounterFormat(grouping: ",", unit: "tests"))
        #expect(wall.ring(withID: "status")?.label == .text("Idle"))
        #expect(wall.ring(withID: "mood")?.colors.count == 3)
        for (rings, key) in [
            (#"[{"id": "tests", "kind": "counter", "decimals": 9}]"#, "boards[0].rings[0].decimals"),
            (#"[{"id": "tests", "kind": "counter", "text": "x"}]"#, "boards[0].rings[0].text"),
            (#"[{"id": "build", "unit": "x"}]"#, "boards[0].rings[0].unit"),
            (##"[{"id": "mood", "kind": "gradient", "colors": ["#000000"]}]"##, "boards[0].rings[0].colors"),
        ] {
            let error = #expect(throws: ConfigurationError.self) { try load(rings) }
            #expect(error?.key == key, "\(rings)")
        }
    }

    /// Issue 20, defect 2: a config board `{"template":"tasks","count":30}` trapped at start. Every count from 0
    /// to 300, with `limits.maxRingsPerBoard` 255 and 24, starts or stops the start naming the count's key.
    @Test(arguments: [255, 24])
    func everyTemplateCount_loads_orStopsTheStartNamingTheCount(maximumRings: Int) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        for count in 0...300 {
            try
                #"{"limits":{"maxRingsPerBoard":\#(maximumRings)},"boards":[{"name":"wall","template":"tasks","count":\#(count)}]}"#
                .write(to: file, atomically: true, encoding: .utf8)
            do {
                let configuration = try RingCastConfiguration.load(file: file.path, environment: [:])
                #expect(count >= 1 && count < maximumRings, "count \(count) loaded")
                #expect(configuration.boards.first?.rings.count == count + 1)
            } catch {
                #expect(!(1..<maximumRings).contains(count), "count \(count): \(error)")
                #expect(error.key == "boards[0].count", "count \(count): \(error)")
            }
        }
    }

    @Test func aCountdownRingsOptions_load_andAMistakeStopsTheStartNamingItsKey() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        func load(_ ring: String) throws -> RingCastConfiguration {
            try #"{"boards":[{"name":"launch","rings":[{"id":"a"},\#(ring)]}]}"#.write(
                to: file, atomically: true, encoding: .utf8)
            return try RingCastConfiguration.load(file: file.path, environment: [:])
        }
        let loaded = try load(
            #"{"id":"t","kind":"countdown","style":"seed","tenths":true,"then":"restart","webhook":"https://x.example/h"}"#)
        #expect(
            loaded.boards.first?.ring(withID: "t")?.countdown
                == CountdownOptions(style: .seed, tenths: true, then: .restart, webhook: "https://x.example/h"))
        #expect(loaded.boards.first?.ring(withID: "a")?.countdown == nil)
        for (ring, key) in [
            (#"{"id":"t","then":"restart"}"#, "boards[0].rings[1].then"),
            (#"{"id":"t","kind":"countdown","style":"disc"}"#, "boards[0].rings[1].style"),
            (#"{"id":"t","kind":"countdown","then":"stop"}"#, "boards[0].rings[1].then"),
            (#"{"id":"t","kind":"countdown","webhook":"gopher://x"}"#, "boards[0].rings[1].webhook"),
        ] {
            do {
                _ = try load(ring)
                Issue.record("\(ring) loaded")
            } catch let error as ConfigurationError {
                #expect(error.key == key, "\(ring): \(error)")
            }
        }
    }

    @Test func webhookHosts_stopAConfigBoardWhoseWebhookNamesAnotherHost() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let board = #"{"name":"l","rings":[{"id":"t","kind":"countdown","webhook":"http://127.0.0.1:9/h"}]}"#
        for (hosts, key) in [
            (#"["hooks.example.com"]"#, "boards[0].rings"), (#"["127.0.0.1"]"#, nil), (#"["a/b"]"#, "webhookHosts[0]"),
        ] {
            try #"{"webhookHosts":\#(hosts),"boards":[\#(board)]}"#.write(to: file, atomically: true, encoding: .utf8)
            do {
                let configuration = try RingCastConfiguration.load(file: file.path, environment: [:])
                #expect(key == nil, "\(hosts) loaded")
                #expect(configuration.webhookHosts == ["127.0.0.1"])
            } catch {
                #expect(error.key == key, "\(hosts): \(error)")
            }
        }
    }

    @Test func overlappingHandPlacedRings_stopTheStartNamingBoth() throws {
        let original = try String(contentsOf: Self.shipped, encoding: .utf8)
        let edited = original.replacingOccurrences(of: #""cx": 880, "cy": 200"#, with: #""cx": 760, "cy": 200"#)
        #expect(edited != original)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try edited.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
            Issue.record("overlapping rings were accepted")
        } catch {
            #expect(error.key == "boards[0]", "\(error)")
            #expect(error.message.contains(#""task1""#) && error.message.contains(#""task2""#), "\(error)")
        }
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

    @Test func shutdownTimeout_isTenByDefault_thenTheFiles_thenTheEnvironments() throws {
        let shipped = try RingCastConfiguration.load(file: Self.shipped.path, environment: [:])
        #expect(shipped.shutdownTimeout == 10)
        let original = try String(contentsOf: Self.shipped, encoding: .utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try original.replacingOccurrences(of: #""fps": 60"#, with: #""fps": 60, "shutdownTimeout": 0"#)
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(try RingCastConfiguration.load(file: file.path, environment: [:]).shutdownTimeout == 0)
        let fromEnvironment = try RingCastConfiguration.load(
            file: file.path, environment: ["RINGCAST_SHUTDOWN_TIMEOUT": "300"])
        #expect(fromEnvironment.shutdownTimeout == 300)
    }

    @Test func loops_areOnePerCoreByDefault_thenTheFiles_thenTheEnvironments_andOutOfRangeIsRefusedByName() throws {
        let shipped = try RingCastConfiguration.load(file: Self.shipped.path, environment: [:])
        #expect(shipped.loops == min(8, ProcessInfo.processInfo.activeProcessorCount))
        let original = try String(contentsOf: Self.shipped, encoding: .utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try original.replacingOccurrences(of: #""fps": 60"#, with: #""fps": 60, "loops": 3"#)
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(try RingCastConfiguration.load(file: file.path, environment: [:]).loops == 3)
        #expect(try RingCastConfiguration.load(file: file.path, environment: ["RINGCAST_LOOPS": "1"]).loops == 1)
        for bad in ["0", "9"] {
            #expect {
                _ = try RingCastConfiguration.load(file: file.path, environment: ["RINGCAST_LOOPS": bad])
            } throws: { error in
                "\(error)".contains("RINGCAST_LOOPS") && "\(error)".contains("expected 1…8 service loops, got \(bad)")
            }
        }
        try original.replacingOccurrences(of: #""fps": 60"#, with: #""fps": 60, "loops": 0"#)
            .write(to: file, atomically: true, encoding: .utf8)
        #expect {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
        } throws: { error in
            "\(error)".contains("loops") && "\(error)".contains("got 0")
        }
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
        ConfigMistake(
            name: "history of a negative span", replace: #""fps": 60"#, with: #""fps": 60, "history": {"seconds": -1}"#,
            key: "history.seconds"),
        ConfigMistake(
            name: "history of too many changes", replace: #""fps": 60"#,
            with: #""fps": 60, "history": {"changes": 10000001}"#, key: "history.changes"),
        ConfigMistake(
            name: "unknown history key", replace: #""fps": 60"#, with: #""fps": 60, "history": {"days": 7}"#,
            key: "history.days"),
        ConfigMistake(name: "port as text", replace: #""port": 8080"#, with: #""port": "8080""#, key: "port"),
        ConfigMistake(
            name: "bad colour", replace: ##""#e74c3c", "#c0392b""##, with: ##""#e74c3c", "crimson""##,
            key: "boards[0].rings[0].colors[1]"),
        ConfigMistake(
            name: "duplicate ring", replace: #""id": "exercise""#, with: #""id": "move""#, key: "boards[0].rings[1].id"),
        ConfigMistake(name: "unknown source", replace: #""task4"]"#, with: #""task9"]"#, key: "boards[0].rings[7].sources[3]"),
        ConfigMistake(name: "negative radius", replace: #""r": 220"#, with: #""r": -220"#, key: "boards[0].rings[0].r"),
        ConfigMistake(
            name: "unknown kind", replace: #""kind": "countdown""#, with: #""kind": "timer""#, key: "boards[0].rings[8].kind"),
        ConfigMistake(
            name: "bad text align", replace: #""align": "center" },"#, with: #""align": "middle" },"#,
            key: "boards[0].rings[0].titleText.align"),
        ConfigMistake(
            name: "tls cert without key", replace: #""fps": 60"#, with: #""fps": 60, "tls": {"cert": "cert.pem"}"#,
            key: "tls.cert"
        ),
        ConfigMistake(
            name: "tls key without cert", replace: #""fps": 60"#, with: #""fps": 60, "tls": {"key": "key.pem"}"#, key: "tls.key"),
        ConfigMistake(
            name: "unknown log level", replace: #""fps": 60"#, with: #""fps": 60, "logLevel": "loud""#, key: "logLevel"),
        ConfigMistake(
            name: "shutdown timeout too long", replace: #""fps": 60"#, with: #""fps": 60, "shutdownTimeout": 301"#,
            key: "shutdownTimeout"),
        ConfigMistake(
            name: "negative shutdown timeout", replace: #""fps": 60"#, with: #""fps": 60, "shutdownTimeout": -1"#,
            key: "shutdownTimeout"),
        ConfigMistake(
            name: "shutdown timeout as text", replace: #""fps": 60"#, with: #""fps": 60, "shutdownTimeout": "10s""#,
            key: "shutdownTimeout"),
        ConfigMistake(
            name: "a ring without coordinates among placed ones", replace: #""cx": 300, "cy": 330, "r": 220, "thickness": 38,"#,
            with: "", key: "boards[0].rings[0].titleText"),
        ConfigMistake(
            name: "unknown template", replace: #""name": "main","#, with: #""name": "main", "template": "pie","#,
            key: "boards[0].template"),
        ConfigMistake(
            name: "template with rings", replace: #""name": "main","#, with: #""name": "main", "template": "single","#,
            key: "boards[0].rings"),
        ConfigMistake(
            name: "too many rings", replace: #""limits": {"#, with: #""limits": {"maxRingsPerBoard": 3,"#,
            key: "boards[0].rings"),
        ConfigMistake(
            name: "HSTS max-age beyond two years", replace: #""fps": 60"#,
            with: #""fps": 60, "tls": {"hstsMaxAgeSeconds": 63072001}"#, key: "tls.hstsMaxAgeSeconds"),
        ConfigMistake(
            name: "unknown tls key", replace: #""fps": 60"#, with: #""fps": 60, "tls": {"certificate": "cert.pem"}"#,
            key: "tls.certificate"),
        ConfigMistake(
            name: "redis URL with another scheme", replace: #""fps": 60"#,
            with: #""fps": 60, "cluster": {"redis": "http://127.0.0.1:6379"}"#, key: "cluster.redis"),
        ConfigMistake(
            name: "negative lead", replace: #""fps": 60"#,
            with: #""fps": 60, "cluster": {"redis": "redis://127.0.0.1", "leadMilliseconds": -1}"#,
            key: "cluster.leadMilliseconds"),
        ConfigMistake(
            name: "node name with a space", replace: #""fps": 60"#,
            with: #""fps": 60, "cluster": {"redis": "redis://127.0.0.1", "node": "node a"}"#, key: "cluster.node"),
        ConfigMistake(
            name: "unknown cluster key", replace: #""fps": 60"#, with: #""fps": 60, "cluster": {"url": "redis://127.0.0.1"}"#,
            key: "cluster.url"),
        ConfigMistake(
            name: "default board that is no board name", replace: #""fps": 60"#,
            with: #""fps": 60, "defaultBoard": "the main one""#, key: "defaultBoard"),
        ConfigMistake(
            name: "default board as a list", replace: #""fps": 60"#, with: #""fps": 60, "defaultBoard": ["main"]"#,
            key: "defaultBoard"),
        ConfigMistake(
            name: "portrait with an unknown key", replace: #""name": "main","#,
            with: #""name": "main", "portrait": {"width": 9, "height": 19, "rings": [], "rotate": true},"#,
            key: "boards[0].portrait.rotate"),
        ConfigMistake(
            name: "portrait without a canvas", replace: #""name": "main","#,
            with: #""name": "main", "portrait": {"width": 0, "height": 19, "rings": []},"#, key: "boards[0].portrait.width"),
        ConfigMistake(
            name: "portrait that leaves rings out", replace: #""name": "main","#,
            with: #""name": "main", "portrait": {"width": 9, "height": 19, "rings": []},"#, key: "boards[0].portrait.rings"),
        ConfigMistake(
            name: "portrait placing an unknown ring", replace: #""name": "main","#,
            with:
                #""name": "main", "portrait": {"width": 9, "height": 19, "rings": [{"id": "nope", "cx": 1, "cy": 1, "titleText": {"x": 1, "y": 1, "size": 1, "align": "center"}, "labelText": {"x": 1, "y": 1, "size": 1, "align": "center"}}]},"#,
            key: "boards[0].portrait.rings[0].id"),
        ConfigMistake(
            name: "portrait text with a bad align", replace: #""name": "main","#,
            with:
                #""name": "main", "portrait": {"width": 9, "height": 19, "rings": [{"id": "move", "cx": 1, "cy": 1, "titleText": {"x": 1, "y": 1, "size": 1, "align": "middle"}, "labelText": {"x": 1, "y": 1, "size": 1, "align": "center"}}]},"#,
            key: "boards[0].portrait.rings[0].titleText.align"),
    ]

    @Test func historySettings_comeFromTheFile_andZeroKeepsNone() throws {
        let original = try String(contentsOf: Self.shipped, encoding: .utf8)
        for (history, seconds, points, changes) in [
            (#"{"seconds": 3600, "changes": 50}"#, 3600, 10_000, 50), (#"{"changes": 0, "points": 0}"#, 604_800, 0, 0),
        ] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            try original.replacingOccurrences(of: #""fps": 60"#, with: #""fps": 60, "history": \#(history)"#)
                .write(to: file, atomically: true, encoding: .utf8)
            let configured = try RingCastConfiguration.load(file: file.path, environment: [:])
            #expect(configured.historySeconds == seconds && configured.historyChanges == changes, "\(history)")
            #expect(configured.historyPoints == points, "\(history)")
        }
    }

    @Test func clusterSettings_comeFromTheFile_thenTheEnvironment() throws {
        let original = try String(contentsOf: Self.shipped, encoding: .utf8)
        let edited = original.replacingOccurrences(
            of: #""fps": 60"#,
            with:
                #""fps": 60, "cluster": {"redis": "redis://10.0.0.5:6380/2", "node": "a", "leadMilliseconds": 80, "replicas": 1}"#
        )
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try edited.write(to: file, atomically: true, encoding: .utf8)

        let configured = try RingCastConfiguration.load(file: file.path, environment: [:])
        #expect(configured.redis == "redis://10.0.0.5:6380/2")
        #expect(configured.node == "a")
        #expect(configured.leadMilliseconds == 80)
        #expect(configured.replicas == 1)
        #expect(configured.streamLength == 1000)
        #expect(configured.historySeconds == 604_800 && configured.historyChanges == 10_000, "the change log's defaults")

        let overridden = try RingCastConfiguration.load(
            file: file.path, environment: ["RINGCAST_REDIS_URL": "redis://127.0.0.1:7000", "RINGCAST_NODE": "b"])
        #expect(overridden.redis == "redis://127.0.0.1:7000")
        #expect(overridden.node == "b")
        let alone = try RingCastConfiguration.load(file: file.path, environment: ["RINGCAST_REDIS_URL": ""])
        #expect(alone.redis == nil, "an empty RINGCAST_REDIS_URL serves alone")

        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: ["RINGCAST_REDIS_URL": "redis://:0"])
            Issue.record("a Redis URL without host was accepted")
        } catch {
            #expect(error.key == "RINGCAST_REDIS_URL", "\(error)")
        }
        #expect(try RingCastConfiguration.load(file: Self.shipped.path, environment: [:]).redis == nil, "alone by default")
    }

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

    static let syntaxMistakes: [ConfigSyntaxMistake] = [
        ConfigSyntaxMistake(
            name: "missing comma", text: "{\n  \"port\": 8080\n  \"fps\": 60\n}\n", line: 3, column: 3,
            message: #"expected "," or "}", found the string "fps""#),
        ConfigSyntaxMistake(
            name: "comma before }", text: "{\n  \"port\": 8080,\n}\n", line: 2, column: 15,
            message: #"a comma after the last member; JSON allows none before "}""#),
        ConfigSyntaxMistake(
            name: "comma before ]", text: #"{"allowedOrigins": ["http://a",]}"#, line: 1, column: 31,
            message: #"a comma after the last element; JSON allows none before "]""#),
        ConfigSyntaxMistake(
            name: "a misspelt literal", text: #"{"host": tru}"#, line: 1, column: 10,
            message: #"expected a value (a string, number, object, array, true, false or null), found "tru""#),
        ConfigSyntaxMistake(
            name: "a comment", text: "{\n  // the port\n  \"port\": 1\n}", line: 2, column: 3, message: "JSON allows no comments"),
        ConfigSyntaxMistake(
            name: "single quotes", text: "{'port': 1}", line: 1, column: 2,
            message: "expected a key in double quotes; JSON strings take double quotes, not single"),
        ConfigSyntaxMistake(
            name: "missing colon", text: #"{"port" 1}"#, line: 1, column: 9,
            message: #"expected ":" after the key "port", found "1""#),
        ConfigSyntaxMistake(
            name: "cut short", text: "{\"port\": 8080", line: 1, column: 14,
            message: #"expected "," or "}", found the end of the file"#),
        ConfigSyntaxMistake(
            name: "a string never closed", text: "{\"host\": \"localhost}", line: 1, column: 10,
            message: #"this string has no closing ""#),
        ConfigSyntaxMistake(
            name: "a tab in a string", text: "{\"host\": \"a\tb\"}", line: 1, column: 12,
            message: #"a control character (a line break or tab) inside a string; write it as \n or \t"#),
        ConfigSyntaxMistake(
            name: "a bad escape", text: #"{"webRoot": "C:\web"}"#, line: 1, column: 16,
            message: #"invalid escape "\w"; a backslash in a string is written \\"#),
        ConfigSyntaxMistake(
            name: "a leading zero", text: #"{"port": 08080}"#, line: 1, column: 10,
            message: "a number cannot have a leading zero (write 8, not 08)"),
        ConfigSyntaxMistake(
            name: "a key twice", text: "{\n  \"port\": 1,\n  \"port\": 2\n}", line: 3, column: 3,
            message: #"the key "port" appears twice in this object (first at 2:3)"#),
        ConfigSyntaxMistake(
            name: "columns count characters", text: #"{"host": "Zürich", x}"#, line: 1, column: 20,
            message: #"expected a key in double quotes, found "x""#),
        ConfigSyntaxMistake(
            name: "text after the end", text: "{}\n{}", line: 2, column: 1,
            message: #"unexpected text after the end of the JSON, found "{""#),
        ConfigSyntaxMistake(
            name: "empty file", text: "", line: 1, column: 1,
            message: "expected a value (a string, number, object, array, true, false or null), found the end of the file"),
    ]

    /// Issue 20, defect 5: the config file is read by the API's strict reader: a key given twice after its
    /// escapes are read (`"fp\u0073"` is `"fps"`), a byte order mark and UTF-16 stop the start, naming where.
    @Test(
        arguments: [
            (
                "an escaped key twice", Array("{\n  \"fps\": 30,\n  \"fp\\u0073\": 5\n}".utf8), 3, 3,
                #"the key "fps" (written "fp\u0073") appears twice in this object (first at 2:3)"#
            ),
            (
                "a byte order mark", [0xEF, 0xBB, 0xBF] + Array("{}".utf8), 1, 1,
                "the text starts with a byte order mark; send UTF-8 without one"
            ),
            ("UTF-16", [0xFF, 0xFE] + Array("{}".utf8).flatMap { [$0, 0] }, 1, 1, "this is UTF-16 text; JSON here is UTF-8"),
        ] as [(String, [UInt8], Int, Int, String)])
    func configTheStrictReaderRefuses_stopsTheStartSayingWhere(
        name: String, bytes: [UInt8], line: Int, column: Int, message: String
    ) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.line == line && error.column == column, "\(name): \(error)")
            #expect(error.message == message, "\(name): \(error)")
        }
    }

    @Test(arguments: syntaxMistakes)
    func configThatIsNotJSON_namesTheLineAndColumn(_ mistake: ConfigSyntaxMistake) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try mistake.text.write(to: file, atomically: true, encoding: .utf8)

        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
            Issue.record("the mistake was accepted")
        } catch {
            #expect(error.line == mistake.line && error.column == mistake.column, "\(error)")
            #expect(error.message == mistake.message)
            #expect("\(error)" == "\(file.path):\(mistake.line):\(mistake.column): \(mistake.message)")
        }
    }

    @Test func missingCommaInTheShippedConfig_isReportedOnTheLineOfTheNextKey() throws {
        let original = try String(contentsOf: Self.shipped, encoding: .utf8)
        let range = try #require(original.range(of: #""port": 8080,"#))
        let edited = original.replacingCharacters(in: range, with: #""port": 8080"#)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try edited.write(to: file, atomically: true, encoding: .utf8)
        // The key after "port" starts the next line, after the same indentation.
        let portLine = original[..<range.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count
        let indentation = original[..<range.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).last?.count ?? 0

        #expect {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
        } throws: { error in
            "\(error)".hasPrefix("\(file.path):\(portLine + 1):\(indentation + 1): expected \",\" or \"}\", found the string ")
        }
    }

    @Test func aListWhereTheConfigNeedsAnObject_saysSo() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try "[]".write(to: file, atomically: true, encoding: .utf8)
        #expect {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
        } throws: { error in
            "\(error)" == "\(file.path): expected an object, {…}"
        }
    }

    static let environmentMistakes: [EnvironmentMistake] = [
        EnvironmentMistake(
            environment: ["RINGCAST_TOKEN": "abc"],
            description: "RINGCAST_TOKEN: a token needs at least 8 characters and no spaces, ';' or ','"),
        EnvironmentMistake(
            environment: ["RINGCAST_READ_TOKEN": "short"],
            description: "RINGCAST_READ_TOKEN: a token needs at least 8 characters and no spaces, ';' or ','"),
        EnvironmentMistake(
            environment: ["RINGCAST_TOKEN": "same-token-1", "RINGCAST_READ_TOKEN": "same-token-1"],
            description: "RINGCAST_READ_TOKEN: must differ from the write token"),
        EnvironmentMistake(environment: ["RINGCAST_PORT": "70000"], description: "RINGCAST_PORT: expected 0…65535, got 70000"),
        EnvironmentMistake(
            environment: ["RINGCAST_PORT": "eighty"], description: #"RINGCAST_PORT: expected a whole number, got "eighty""#),
        EnvironmentMistake(environment: ["RINGCAST_FPS": "0"], description: "RINGCAST_FPS: expected 1…240, got 0"),
        EnvironmentMistake(
            environment: ["RINGCAST_SHUTDOWN_TIMEOUT": "301"],
            description: "RINGCAST_SHUTDOWN_TIMEOUT: expected 0…300 seconds, got 301"),
        EnvironmentMistake(environment: ["RINGCAST_HOST": ""], description: "RINGCAST_HOST: must not be empty"),
        EnvironmentMistake(environment: ["RINGCAST_DATA_DIR": ""], description: "RINGCAST_DATA_DIR: must not be empty"),
        EnvironmentMistake(
            environment: ["RINGCAST_LOG_LEVEL": "verbose"],
            description:
                #"RINGCAST_LOG_LEVEL: expected one of trace, debug, info, notice, warning, error, critical, got "verbose""#),
    ]

    @Test(arguments: environmentMistakes)
    func badEnvironmentValue_namesTheVariableNotTheFile(_ mistake: EnvironmentMistake) {
        do {
            _ = try RingCastConfiguration.load(file: Self.shipped.path, environment: mistake.environment)
            Issue.record("the mistake was accepted")
        } catch {
            #expect(error.file == nil, "\(error)")
            #expect("\(error)" == mistake.description)
        }
    }

    @Test func settingFromAFlag_isNamedInItsError_andAFileValueStillNamesTheFile() throws {
        var configuration = try RingCastConfiguration.read(file: Self.shipped.path, environment: [:])
        configuration.set(\.port, to: 70_000, key: "port", from: "--port")
        #expect {
            try configuration.validate()
        } throws: { error in
            "\(error)" == "--port: expected 0…65535, got 70000"
        }

        configuration.set(\.port, to: 0, key: "port", from: "--port")
        configuration.fps = 0
        #expect {
            try configuration.validate()
        } throws: { error in
            "\(error)" == "\(Self.shipped.path): fps: expected 1…240, got 0"
        }
    }
}
