import Foundation
import RingCastCore
import RingCastServer
import Testing

/// The configuration file colours a ring by `status` or `thresholds` with the API's keys, ranges and messages: a
/// ring the config takes is one the API takes, and the other way round.
@Suite("Status and thresholds in the configuration")
struct StatusConfigurationTests {
    func load(_ rings: String) throws -> RingCastConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"{"boards": [{"name": "ci", "rings": \#(rings)}]}"#.write(to: file, atomically: true, encoding: .utf8)
        return try RingCastConfiguration.load(file: file.path, environment: [:])
    }

    @Test func aRingsStatusOrThresholds_load() throws {
        let board = try #require(
            load(
                #"[{"id": "build", "status": "running"}, {"id": "coverage", "kind": "indicator","#
                    + ##" "thresholds": [[0, "#e74c3c"], [0.8, ["#2ecc71", "#27ae60"]]]}]"##
            ).boards.first)
        let build = try #require(board.ring(withID: "build"))
        #expect(build.status == .running && build.colors == RingStatus.running.colors)
        let coverage = try #require(board.ring(withID: "coverage"))
        #expect(coverage.thresholds?.entries.map(\.value) == [0, 0.8])
        #expect(Board(spec: board).colors(ofRing: "coverage", at: 0) == [RGBAColor(hex: "#e74c3c")!, RGBAColor(hex: "#e74c3c")!])
    }

    @Test(arguments: [
        (#"[{"id": "build", "status": "green"}]"#, "boards[0].rings[0].status"),
        (#"[{"id": "build", "status": null}]"#, "boards[0].rings[0].status"),
        (#"[{"id": "n", "kind": "counter", "status": "success"}]"#, "boards[0].rings[0].status"),
        (##"[{"id": "b", "colors": ["#000000", "#ffffff"], "status": "success"}]"##, "boards[0].rings[0].status"),
        (##"[{"id": "b", "thresholds": [[0.5, "#000000"], [0.5, "#ffffff"]]}]"##, "boards[0].rings[0].thresholds[1][0]"),
        (##"[{"id": "b", "thresholds": [[12, "#000000"]]}]"##, "boards[0].rings[0].thresholds[0][0]"),
        (#"[{"id": "b", "thresholds": []}]"#, "boards[0].rings[0].thresholds"),
    ])
    func aMistake_stopsTheStartNamingItsKey(rings: String, key: String) {
        let error = #expect(throws: ConfigurationError.self) { try load(rings) }
        #expect(error?.key == key, "\(rings): \(String(describing: error))")
    }
}
