import Foundation
import Testing

@testable import RingCastServer

/// Small things a user notices in the answers (issue 24): JSON ends with a newline and writes `/` as it is,
/// a 405 is counted under its route, a countdown ring's GET says what its label shows, log lines use
/// human units.
@Suite("Answer details")
struct AnswerDetailsTests {
    @Test func jsonAnswers_endWithANewline_andDoNotEscapeSlashes() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let http = server.http
        let pushed = try http.send(
            "PUT", "/api/v1/boards/main/rings/move", body: #"{"value":12,"max":20,"label":"fraction","animation":"none"}"#)
        #expect(pushed.status == 200, "\(pushed.text)")
        for answer in [
            pushed, try http.get("/api/v1/boards/main"), try http.get("/api/v1/boards/main/rings/move"),
            try http.get("/api/v1/boards"), try http.get("/api/v1/boards/nope"), try http.get("/healthz"),
        ] {
            #expect(answer.text.hasSuffix("}\n") && !answer.text.dropLast().contains("\n"), "\(answer.text)")
            #expect(!answer.text.contains(#"\/"#), "\(answer.text)")
        }
        #expect(try http.get("/api/v1/boards/main/rings/move").text.contains(#""text":"12/20""#))
    }

    @Test func aMethodNotAllowed_isCountedUnderItsRoute() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        #expect(try server.http.send("POST", "/api/v1/boards", body: "{}").status == 405)
        #expect(try server.http.send("PATCH", "/api/v1/boards/main/countdown", body: "{}").status == 405)
        let lines = try server.http.get("/metrics").text.split(separator: "\n")
        let refused = lines.filter { $0.hasPrefix("ringcast_http_requests_total{") && $0.contains(#"status="405""#) }
        #expect(refused.contains { $0.contains(#"route="boards""#) && $0.contains(#"method="POST""#) }, "\(refused)")
        #expect(refused.contains { $0.contains(#"route="countdown""#) && $0.contains(#"method="PATCH""#) }, "\(refused)")
        #expect(!refused.contains { $0.contains(#"route="unknown""#) }, "\(refused)")
    }

    @Test func aCountdownRing_saysItShowsSeconds_andItsDefinitionTakesThatBack() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let ring = try server.http.get("/api/v1/boards/main/rings/countdown").text
        #expect(ring.contains(#""label":"seconds""#), "\(ring)")
        #expect(try server.http.get("/api/v1/boards/main/rings/move").text.contains(#""label":"percent""#))

        let created = try server.http.send(
            "PUT", "/api/v1/boards/launch",
            body: #"{"rings":[{"id":"t","kind":"countdown","label":"seconds"}]}"#)
        #expect(created.status == 201, "\(created.text)")
        let plain = try server.http.send(
            "PUT", "/api/v1/boards/launch2", body: #"{"rings":[{"id":"t","kind":"plain","label":"seconds"}]}"#)
        #expect(plain.status == 422, "\(plain.text)")
        #expect(plain.text.contains(#""field":"rings.0.label""#) && plain.text.contains("countdown"), "\(plain.text)")
        #expect(try server.http.get("/api/v1/boards/launch2").status == 404)
    }

    @Test func theBoardList_saysWhichBoardsTheConfigurationDefines() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        #expect(try server.http.send("PUT", "/api/v1/boards/ci", body: #"{"template":"single"}"#).status == 201)
        struct List: Decodable {
            struct Board: Decodable {
                var name: String
                var configured: Bool
            }
            var boards: [Board]
        }
        let list = try server.http.get("/api/v1/boards").decode(List.self)
        #expect(list.boards.first { $0.name == "main" }?.configured == true)
        #expect(list.boards.first { $0.name == "ci" }?.configured == false)
    }

    @Test(arguments: [
        (Duration.nanoseconds(420), "420 ns"),
        (.nanoseconds(63_077), "63.1 µs"),
        (.microseconds(999), "999 µs"),
        (.microseconds(1_200), "1.2 ms"),
        (.microseconds(45_000), "45 ms"),
        (.milliseconds(2_345), "2.35 s"),
        (.seconds(120), "120 s"),
    ])
    func durations_readInTheirUnit(duration: Duration, text: String) {
        #expect(duration.logDescription == text)
    }

    @Test func counts_agreeWithTheirNoun() {
        #expect("\(Counted(0, "board"))" == "0 boards")
        #expect("\(Counted(1, "board"))" == "1 board")
        #expect("\(Counted(2, "stored board"))" == "2 stored boards")
    }
}
