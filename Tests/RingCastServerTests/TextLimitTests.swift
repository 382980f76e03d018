import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// Issue 30, problems 6 and 8, at the API and the config file: a counter whose longest label cannot fit a frame
/// (255 bytes of UTF-8) is refused with 422 naming its key, and changes nothing; one exactly at the limit is
/// taken. A number too close to zero for a 64-bit float is refused saying so, by the API and the config alike.
@Suite("Text and number limits at every boundary")
struct TextLimitTests {
    static let family = "👩‍👩‍👧‍👦"
    /// With a family between groups, 3 decimals and a sign: 19 + 100 + 136 = 255 bytes for −10¹².
    static let unitAtTheLimit = String(repeating: family, count: 5) + "abcdefghijk"
    /// One byte more: an é for the a.
    static let unitOneOver = String(repeating: family, count: 5) + "ébcdefghijk"

    static func counter(unit: String) -> String {
        #"{"id":"people","kind":"counter","value":3,"decimals":3,"grouping":"\#(family)","unit":"\#(unit)"}"#
    }

    @Test func aCounterWhoseLongestLabelCannotFit_is422NamingTheUnit_andChangesNothing() throws {
        let api = try TestApplication()
        let before = try api.get("/api/v1/boards/main")
        // The issue's counter: a unit of ten families.
        let issue =
            #"{"id":"people","kind":"counter","grouping":"\#(Self.family)","unit":"\#(String(repeating: Self.family, count: 10))"}"#
        let refusals: [(String, String, String, String)] = [
            ("PUT", "/api/v1/boards/new", #"{"rings":[\#(issue)]}"#, "rings.0.unit"),
            ("PUT", "/api/v1/boards/new", #"{"rings":[\#(Self.counter(unit: Self.unitOneOver))]}"#, "rings.0.unit"),
            ("POST", "/api/v1/boards/main/rings?force=true", Self.counter(unit: Self.unitOneOver), "unit"),
        ]
        for (method, path, body, field) in refusals {
            let response = try api.send(method, path, body: body)
            #expect(response.status == 422, "\(path): \(response.text)")
            #expect(response.error?.code == "invalid_value")
            #expect(response.error?.field == field, "\(response.text)")
            #expect(response.error?.message.contains("at most 255") == true, "\(response.text)")
        }
        #expect(try api.get("/api/v1/boards/new").status == 404)
        #expect(try api.get("/api/v1/boards/main").headers["etag"] == before.headers["etag"])
        // Exactly at the limit, taken; and its label at −10¹² is 255 bytes, whole.
        let taken = try api.send("POST", "/api/v1/boards/main/rings?force=true", body: Self.counter(unit: Self.unitAtTheLimit))
        #expect((200...201).contains(taken.status), "\(taken.text)")
        let pushed = try api.send("PUT", "/api/v1/boards/main/rings/people", body: #"{"value":-1e12,"animation":"none"}"#)
        #expect(pushed.status == 200, "\(pushed.text)")
    }

    /// The config file reads a counter with the API's code, and refuses the same one naming its key.
    @Test func theConfigFile_refusesACounterWhoseLabelCannotFit_namingTheKey() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-text-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        for (unit, refused) in [(Self.unitOneOver, true), (Self.unitAtTheLimit, false)] {
            try #"{"boards":[{"name":"wall","rings":[{"id":"build"},\#(Self.counter(unit: unit))]}]}"#
                .write(to: file, atomically: true, encoding: .utf8)
            do {
                _ = try RingCastConfiguration.load(file: file.path, environment: [:])
                #expect(!refused, "\(unit) was accepted")
            } catch {
                #expect(refused, "\(error)")
                #expect(error.key == "boards[0].rings[1].unit", "\(error)")
                #expect(error.message.contains("256 bytes of UTF-8, at most 255"), "\(error)")
            }
        }
    }

    /// The same literals through a request body and the config file: the same words.
    @Test(
        arguments: [
            ("0.1e-400", "too close to zero"), ("-1e-400", "too close to zero"), ("1e400", "too large"),
            ("1e-320", nil), ("0e-400", nil),
        ] as [(String, String?)])
    func aNumberADoubleCannotHold_isRefusedAlikeByTheAPIAndTheConfig(literal: String, words: String?) throws {
        let api = try TestApplication()
        let response = try api.send("PATCH", "/api/v1/boards/main", body: #"{"rings":{"move":{"progress":\#(literal)}}}"#)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-number-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"{"boards":[{"name":"wall","rings":[{"id":"build","max":\#(literal)}]}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        var configError: ConfigurationError?
        do {
            _ = try RingCastConfiguration.load(file: file.path, environment: [:])
        } catch {
            configError = error
        }
        guard let words else {
            // Read as written: progress 1e-320 is taken; a max of 1e-320 or 0 may then be out of its range.
            #expect(response.status == 200, "\(response.text)")
            #expect(configError.map { !"\($0)".contains("64-bit") } ?? true, "\(configError.map { "\($0)" } ?? "")")
            return
        }
        #expect(response.status == 400, "\(response.text)")
        #expect(response.error?.field == "rings.move.progress", "\(response.text)")
        #expect(response.error?.message.contains(words) == true, "\(response.text)")
        let error = try #require(configError, "\(literal) was accepted by the config")
        #expect("\(error)".contains(words), "\(error)")
        #expect(error.line == 1)
    }
}
