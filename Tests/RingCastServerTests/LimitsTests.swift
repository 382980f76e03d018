import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// One set of limits (issue 20): whatever a write is accepted with is stored, and loads again after a restart;
/// the first value beyond each limit is refused with 422 naming the field, and changes nothing.
@Suite("Limits")
struct LimitsTests {
    /// Issue 20, defect 2: `{"template":"tasks","count":30}` trapped the server with `limits.maxRingsPerBoard`
    /// 255. Every count from 0 to 300 makes the board or is refused as JSON naming `count`.
    @Test func everyTemplateCount_makesTheBoard_orIsRefusedNamingCount() throws {
        let api = try TestApplication { configuration in
            configuration.maxRingsPerBoard = 255
            configuration.writesPerMinute = 0
        }
        for count in 0...300 {
            let response = try api.send("PUT", "/api/v1/boards/wall", body: #"{"template":"tasks","count":\#(count)}"#)
            if (1...254).contains(count) {
                #expect(response.status == 200 || response.status == 201, "count \(count): \(response.text)")
            } else {
                #expect(response.status == 422, "count \(count): \(response.text)")
                #expect(response.error?.field == "count", "count \(count): \(response.text)")
            }
        }
        for count in [-1, 1.5, 1e300] {
            let response = try api.send("PUT", "/api/v1/boards/odd", body: #"{"template":"tasks","count":\#(count)}"#)
            #expect(response.status == 422 && response.error?.field == "count", "count \(count): \(response.text)")
        }
    }
}

/// A numeric field of a request body, where it goes, and the range a write accepts.
struct NumericField: CustomTestStringConvertible, Sendable {
    var name: String
    var method: String
    /// After `/api/v1/boards/BOARD`.
    var path: String
    /// The body, with `X` where the number goes.
    var body: String
    var smallest: Double
    var largest: Double
    /// The first values beyond: the next number below `smallest` and above `largest` a client can send.
    var below: Double?
    var above: Double?
    /// The field the 422 names.
    var field: String

    var testDescription: String { name }

    func body(_ value: Double) -> String {
        body.replacingOccurrences(of: "X", with: "\(value)")
    }

    init(
        _ name: String, _ method: String, _ path: String, _ body: String, _ range: ClosedRange<Double>, field: String,
        below: Double?? = nil, above: Double?? = nil
    ) {
        self.name = name
        self.method = method
        self.path = path
        self.body = body
        smallest = range.lowerBound
        largest = range.upperBound
        self.below = below ?? range.lowerBound.nextDown
        self.above = above ?? range.upperBound.nextUp
        self.field = field
    }
}

extension LimitsTests {
    static let ring = "/rings/move"
    static let duration = Limits.durations
    static let fields: [NumericField] = [
        NumericField("ring progress", "PUT", ring, #"{"progress":X,"animation":"none"}"#, Limits.progress, field: "progress"),
        NumericField("patch progress", "PATCH", "", #"{"rings":{"move":X}}"#, Limits.progress, field: "rings.move"),
        NumericField(
            "patch ring progress", "PATCH", "", #"{"rings":{"stand":{"progress":X}},"animation":"bouncy"}"#, Limits.progress,
            field: "rings.stand.progress"),
        NumericField(
            "curve duration", "PUT", ring, #"{"progress":0.9,"animation":{"curve":"linear","duration":X}}"#, duration,
            field: "animation.duration"),
        NumericField(
            "patch curve duration", "PATCH", "", #"{"rings":{"move":0.9},"animation":{"curve":"easeOut","duration":X}}"#,
            duration, field: "animation.duration"),
        NumericField(
            "spring response", "PUT", ring, #"{"progress":0.9,"animation":{"spring":{"response":X,"dampingFraction":0.3}}}"#,
            duration, field: "animation.spring.response"),
        NumericField(
            "spring dampingFraction", "PUT", ring,
            #"{"progress":0.9,"animation":{"spring":{"response":0.5,"dampingFraction":X}}}"#, Limits.dampingFractions,
            field: "animation.spring.dampingFraction"),
        NumericField(
            "spring duration", "PUT", ring, #"{"progress":0.9,"animation":{"spring":{"duration":X,"bounce":0.2}}}"#,
            duration, field: "animation.spring.duration"),
        NumericField(
            "spring bounce", "PUT", ring, #"{"progress":0.9,"animation":{"spring":{"duration":1,"bounce":X}}}"#,
            Limits.bounces, field: "animation.spring.bounce", above: 1.0),
        NumericField(
            "patch ring spring bounce", "PATCH", "",
            #"{"rings":{"task1":{"progress":1.5,"animation":{"spring":{"bounce":X}}}}}"#, Limits.bounces,
            field: "rings.task1.animation.spring.bounce", above: 1.0),
        NumericField("ring value", "PUT", ring, #"{"value":X,"max":20,"animation":"snappy"}"#, 0...200, field: "value"),
        NumericField("ring max", "PUT", ring, #"{"value":0,"max":X}"#, Limits.ringMaximums, field: "max"),
        NumericField(
            "splash duration", "PUT", "/background", ##"{"color":"#4533c9","transition":"circle","duration":X}"##, duration,
            field: "duration"),
        NumericField(
            "splash angle", "PUT", "/background", ##"{"color":"#4533c9","transition":{"angle":X},"duration":0.5}"##,
            Limits.angles, field: "transition.angle"),
        NumericField(
            "splash spring response", "PUT", "/background",
            ##"{"color":"#4533c9","animation":{"spring":{"response":X,"dampingFraction":0.2}}}"##, duration,
            field: "animation.spring.response"),
        NumericField(
            "countdown seconds", "POST", "/countdown", #"{"seconds":X}"#, Limits.countdownSeconds, field: "seconds"),
        NumericField(
            "threshold value", "PUT", ring, ##"{"progress":0.5,"thresholds":[[X,"#e74c3c"]]}"##, Limits.progress,
            field: "thresholds.0.0"),
        NumericField(
            "patch threshold value", "PATCH", "", ##"{"rings":{"overall":{"thresholds":[[0,"#e74c3c"],[X,"#2ecc71"]]}}}"##,
            0.0.nextUp...10, field: "rings.overall.thresholds.1.0"),
        NumericField(
            "ring staleAfter", "PUT", ring, #"{"progress":0.5,"staleAfter":X}"#, 1...604_800, field: "staleAfter", below: 0,
            above: 604_801),
        NumericField(
            "patch ring staleAfter", "PATCH", "", #"{"rings":{"stand":{"staleAfter":X}}}"#, 1...604_800,
            field: "rings.stand.staleAfter", below: 0.5, above: 604_800.5),
        NumericField(
            "board staleAfter", "PATCH", "", #"{"staleAfter":X}"#, 1...604_800, field: "staleAfter", below: 0, above: 604_801),
    ]

    /// Issue 20, defect 1: a write accepted with an extreme value made the server unable to restart. For every
    /// numeric field of every body, the smallest and the largest accepted values are stored and served again
    /// after a restart; the first values beyond are refused with 422 naming the field, and change nothing.
    @Test(arguments: fields)
    func extremeValues_areStoredAndServedAfterARestart_andTheFirstBeyondIsRefused(_ field: NumericField) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-limits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        func adjust(_ configuration: inout RingCastConfiguration) {
            configuration.writesPerMinute = 0
        }
        var server = try TestServer(dataDirectory: directory, adjust: adjust)
        var served: [String: TestSnapshot] = [:]
        for (board, value) in [("smallest", field.smallest), ("largest", field.largest)] {
            let path = "/api/v1/boards/\(board)"
            let created = try server.http.send("PUT", path, body: #"{"template":"main"}"#)
            try #require(created.status == 201, "\(created.text)")
            let write = try server.http.send(field.method, path + field.path, body: field.body(value))
            #expect((200...299).contains(write.status), "\(field.name) \(value): \(write.status) \(write.text)")
            served[board] = try server.http.get(path).decode(TestSnapshot.self)
        }
        for value in [field.below, field.above].compactMap({ $0 }) {
            let path = "/api/v1/boards/smallest"
            let before = try server.http.get(path)
            let write = try server.http.send(field.method, path + field.path, body: field.body(value))
            #expect(write.status == 422, "\(field.name) \(value): \(write.status) \(write.text)")
            #expect(write.error?.field == field.field, "\(field.name) \(value): \(write.text)")
            #expect(try server.http.get(path).headers["etag"] == before.headers["etag"], "\(field.name) \(value) changed")
        }
        server.stop()
        server = try TestServer(dataDirectory: directory, adjust: adjust)
        defer { server.shutdown() }
        for (board, before) in served {
            let after = try server.http.get("/api/v1/boards/\(board)")
            #expect(after.status == 200, "\(field.name), \(board): \(after.text)")
            let snapshot = try after.decode(TestSnapshot.self)
            #expect(snapshot.rings.map(\.target) == before.rings.map(\.target), "\(field.name), \(board)")
            #expect(snapshot.background == before.background, "\(field.name), \(board)")
        }
    }
}
