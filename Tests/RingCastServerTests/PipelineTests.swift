import Foundation
import RingCastTransport
import Testing

@testable import RingCastServer

/// One bad request and what it must be answered with.
struct BadRequest: CustomTestStringConvertible, Sendable {
    var name: String
    var method: String
    var path: String
    var headers: [String: String] = ["Content-Type": "application/json"]
    var body: String?
    var status: Int
    var code: String?
    var field: String?
    /// The error message, when the test pins it.
    var message: String? = nil

    var testDescription: String { name }
}

/// Every step of the request pipeline, in process: the same `Pipeline` the server runs, with a real
/// SQLite store and no sockets. Each refusal is followed by a GET proving nothing changed.
@Suite("Pipeline")
struct PipelineTests {
    static let board = "/api/v1/boards/main"
    static let seed = #"{"rings":{"move":0.3,"exercise":0.6},"animation":"none"}"#

    static let badRequests: [BadRequest] = [
        BadRequest(name: "malformed JSON", method: "PATCH", path: board, body: #"{"rings":"#, status: 400, code: "malformed"),
        BadRequest(name: "not an object", method: "PATCH", path: board, body: "[1,2]", status: 400, code: "malformed"),
        BadRequest(name: "empty body", method: "PATCH", path: board, body: "", status: 400, code: "malformed"),
        BadRequest(
            name: "duplicate key", method: "PATCH", path: board, body: #"{"rings":{"move":0.5,"move":0.9}}"#,
            status: 400, code: "malformed", field: "rings.move"
        ),
        BadRequest(
            name: "deep nesting", method: "PATCH", path: board,
            body: #"{"rings":{"move":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}}",
            status: 400, code: "malformed"
        ),

        BadRequest(
            name: "wrong type", method: "PATCH", path: board, body: #"{"rings":{"move":"high"}}"#,
            status: 400, code: "malformed", field: "rings.move"
        ),
        BadRequest(
            name: "unknown field", method: "PATCH", path: board, body: #"{"rings":{"move":0.5},"colour":"red"}"#,
            status: 400, code: "unknown_field", field: "colour"
        ),
        BadRequest(
            name: "unknown board", method: "PATCH", path: "/api/v1/boards/nope", body: #"{"rings":{"move":0.5}}"#, status: 404,
            code: "not_found"),
        BadRequest(
            name: "unknown ring among good ones", method: "PATCH", path: board, body: #"{"rings":{"move":0.5,"nope":0.2}}"#,
            status: 404, code: "not_found", field: "rings.nope"
        ),
        BadRequest(
            name: "PUT unknown ring", method: "PUT", path: board + "/rings/nope", body: #"{"progress":0.5}"#, status: 404,
            code: "not_found"),
        BadRequest(name: "unknown route", method: "GET", path: "/api/v2/boards", status: 404, code: "not_found"),
        BadRequest(name: "POST to a board", method: "POST", path: board, status: 405, code: "method_not_allowed"),
        BadRequest(
            name: "POST the board list", method: "POST", path: "/api/v1/boards", body: "{}", status: 405,
            code: "method_not_allowed"),
        BadRequest(
            name: "not JSON", method: "PATCH", path: board, headers: ["Content-Type": "text/plain"],
            body: #"{"rings":{"move":0.5}}"#, status: 415, code: "unsupported_media_type"
        ),
        BadRequest(
            name: "progress above 10", method: "PATCH", path: board, body: #"{"rings":{"move":10.5}}"#,
            status: 422, field: "rings.move"
        ),
        BadRequest(
            name: "negative progress", method: "PUT", path: board + "/rings/move", body: #"{"progress":-0.1}"#,
            status: 422, field: "progress"
        ),
        BadRequest(
            name: "one bad ring in a PATCH", method: "PATCH", path: board,
            body: #"{"rings":{"move":0.5,"exercise":11}}"#, status: 422, field: "rings.exercise"
        ),
        BadRequest(
            name: "unknown curve", method: "PATCH", path: board,
            body: #"{"rings":{"move":0.5},"animation":{"curve":"wobble","duration":1}}"#, status: 422
        ),
        BadRequest(
            name: "zero duration", method: "PATCH", path: board,
            body: #"{"rings":{"move":0.5},"animation":{"curve":"linear","duration":0}}"#, status: 422
        ),
        BadRequest(
            name: "duration above 60 s", method: "PUT", path: board + "/rings/move",
            body: #"{"progress":0.5,"animation":{"curve":"linear","duration":61}}"#, status: 422
        ),
        BadRequest(
            name: "one colour", method: "PATCH", path: board, body: ##"{"rings":{"move":{"colors":["#ff0000"]}}}"##,
            status: 422
        ),
        BadRequest(
            name: "bad colour", method: "PATCH", path: board,
            body: ##"{"rings":{"move":{"colors":["#ff0000","red"]}}}"##, status: 422
        ),
        BadRequest(
            name: "derived ring", method: "PUT", path: board + "/rings/overall", body: #"{"progress":0.5}"#,
            status: 422
        ),
        BadRequest(name: "empty rings", method: "PATCH", path: board, body: #"{"rings":{}}"#, status: 422),
        BadRequest(
            name: "huge number", method: "PATCH", path: board, body: #"{"rings":{"move":1e400}}"#,
            status: 400
        ),
        BadRequest(
            name: "countdown: unknown key", method: "POST", path: board + "/countdown", body: #"{"seconds":5,"secs":1}"#,
            status: 400, code: "unknown_field", field: "secs"),
        BadRequest(
            name: "countdown: seconds as a string", method: "POST", path: board + "/countdown", body: #"{"seconds":"10"}"#,
            status: 400, code: "malformed", field: "seconds", message: "seconds must be a number"),
        BadRequest(
            name: "countdown: no seconds", method: "POST", path: board + "/countdown", body: "{}", status: 400,
            code: "malformed", field: "seconds"),
        BadRequest(
            name: "countdown: too long", method: "POST", path: board + "/countdown", body: #"{"seconds":86401}"#,
            status: 422, code: "out_of_range"),
        BadRequest(
            name: "countdown cancel: a key", method: "DELETE", path: board + "/countdown", body: #"{"now":true}"#,
            status: 400, code: "unknown_field", field: "now"),
        BadRequest(
            name: "background: colour as a number", method: "PUT", path: board + "/background", body: #"{"color":7}"#,
            status: 400, code: "malformed", field: "color"),
        BadRequest(
            name: "background: unknown key", method: "PUT", path: board + "/background",
            body: ##"{"color":"#112233","speed":2}"##, status: 400, code: "unknown_field", field: "speed"),
        BadRequest(
            name: "progress as a string", method: "PUT", path: board + "/rings/move", body: #"{"progress":"0.5"}"#,
            status: 400, code: "malformed", field: "progress", message: "progress must be a number"),
        BadRequest(
            name: "rings as an array", method: "PATCH", path: board, body: #"{"rings":[0.5]}"#, status: 400, code: "malformed",
            field: "rings"),
        BadRequest(
            name: "PUT a read-only route", method: "PUT", path: "/api/v1/boards", body: "{}", status: 405,
            code: "method_not_allowed"),
        BadRequest(name: "TRACE", method: "TRACE", path: board, status: 405, code: "method_not_allowed"),
        BadRequest(
            name: "Idempotency-Key too long", method: "PATCH", path: board,
            headers: ["Content-Type": "application/json", "Idempotency-Key": String(repeating: "k", count: 256)],
            body: #"{"rings":{"move":0.5}}"#, status: 400, code: "malformed", field: "Idempotency-Key"),
        BadRequest(
            name: "stale If-Match", method: "PATCH", path: board,
            headers: ["Content-Type": "application/json", "If-Match": #""1-stale""#], body: #"{"rings":{"move":0.5}}"#,
            status: 412, code: "precondition_failed", field: "If-Match"),
        BadRequest(
            name: "form from another site", method: "POST", path: board + "/countdown",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"],
            body: #"{"seconds":5}"#, status: 403, code: "origin_not_allowed", field: "Origin"),
        BadRequest(
            name: "fetch from a page elsewhere (Referer)", method: "PATCH", path: board,
            headers: ["Content-Type": "application/json", "Referer": "https://evil.example/page.html"],
            body: #"{"rings":{"move":0.5}}"#, status: 403, code: "origin_not_allowed", field: "Referer"),
        BadRequest(
            name: "sandboxed page (Origin null)", method: "PATCH", path: board,
            headers: ["Content-Type": "application/json", "Origin": "null"], body: #"{"rings":{"move":0.5}}"#, status: 403,
            code: "origin_not_allowed"),
        BadRequest(
            name: "same host, other port", method: "PATCH", path: board,
            headers: ["Content-Type": "application/json", "Origin": "http://127.0.0.1:9090"], body: #"{"rings":{"move":0.5}}"#,
            status: 403, code: "origin_not_allowed"),
    ]

    /// The board's ETag and targets, to compare before and after a refused request.
    private func state(_ api: TestApplication, headers: [String: String] = [:]) throws -> (etag: String?, targets: [Double?]) {
        let response = try api.get(Self.board, headers: headers)
        try #require(response.status == 200, "\(response.text)")
        return (response.headers["etag"], try response.decode(TestSnapshot.self).rings.map(\.target))
    }

    /// `response` is DESIGN's JSON error with `status` (and `code`, when given).
    private func expectError(
        _ response: TestResponse, _ status: Int, _ code: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
        let error = response.error
        #expect(error != nil && !(error?.message.isEmpty ?? true), "\(response.text)", sourceLocation: sourceLocation)
        if let code { #expect(error?.code == code, "\(response.text)", sourceLocation: sourceLocation) }
    }

    @Test(arguments: badRequests)
    func badRequest_isAnsweredWithItsStatusAndChangesNothing(_ bad: BadRequest) throws {
        let api = try TestApplication()
        try #require(try api.send("PATCH", Self.board, body: Self.seed).status == 200)
        let before = try state(api)

        let response = try api.send(bad.method, bad.path, headers: bad.headers, body: bad.body)

        expectError(response, bad.status, bad.code)
        let error = try #require(response.error)
        if let field = bad.field { #expect(error.field == field) }
        if let message = bad.message { #expect(error.message == message) }
        // The API's words, never Swift's.
        for swiftism in ["Expected to decode", "Double", "Swift", "CodingKeys", "debugDescription"] {
            #expect(!error.message.contains(swiftism), "\(error.message)")
        }
        if bad.status == 405 { #expect(response.headers["allow"] != nil) }
        let after = try state(api)
        #expect(after.etag == before.etag)
        #expect(after.targets == before.targets)
    }

    // MARK: - Tokens

    @Test func writeToken_onlyAsBearer_neverFromACookieOrTheQuery() throws {
        let api = try TestApplication {
            $0.writeToken = "write-secret-1"
            $0.readToken = "read-secret-1"
        }
        let read = ["Authorization": "Bearer read-secret-1"]
        let before = try state(api, headers: read)
        let body = #"{"rings":{"move":0.5}}"#
        let json = ["Content-Type": "application/json"]

        let missing = try api.send("PATCH", Self.board, body: body)
        expectError(missing, 401, "unauthorized")
        #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        expectError(
            try api.send("PATCH", Self.board, headers: json.merging(["Authorization": "Bearer nope"]) { $1 }, body: body), 401)
        expectError(try api.send("PATCH", Self.board, headers: json.merging(read) { $1 }, body: body), 403, "forbidden")
        let cookie = try api.send(
            "PATCH", Self.board, headers: json.merging(["Cookie": "ringcast_token=write-secret-1"]) { $1 }, body: body)
        expectError(cookie, 401, "unauthorized")
        #expect(cookie.error?.message.contains("only as Authorization: Bearer") == true)
        expectError(try api.send("PATCH", Self.board + "?token=write-secret-1", body: body), 401, "unauthorized")
        #expect(try state(api, headers: read).targets == before.targets)

        let allowed = try api.send(
            "PATCH", Self.board, headers: json.merging(["Authorization": "Bearer write-secret-1"]) { $1 }, body: body)
        #expect(allowed.status == 200, "\(allowed.text)")
        #expect(try allowed.decode(TestSnapshot.self)[ring: "move"]?.target == 0.5)
    }

    @Test func readToken_fromBearerQueryOrCookie_andNoneForHealth() throws {
        let api = try TestApplication { $0.readToken = "read-secret-1" }
        expectError(try api.get(Self.board), 401, "unauthorized")
        expectError(try api.get("/metrics"), 401, "unauthorized")
        #expect(try api.get(Self.board, headers: ["Authorization": "Bearer read-secret-1"]).status == 200)
        #expect(try api.get(Self.board + "?token=read-secret-1").status == 200)
        #expect(try api.get(Self.board, headers: ["Cookie": "theme=dark; ringcast_token=read-secret-1"]).status == 200)
        #expect(try api.get("/healthz").status == 200)
        #expect(try api.get("/readyz").status == 200)
    }

    // MARK: - Origins

    @Test(arguments: [
        ["Origin": "http://\(TestApplication.host)"],
        ["Origin": "http://LOCALHOST:8080", "Host": "localhost:8080"],
        ["Origin": "https://rings.example", "Host": "rings.example"],
        ["Origin": "http://rings.example", "Host": "rings.example:80"],
        ["Referer": "http://\(TestApplication.host)/control.html"],
        ["Origin": "http://tv.example:8080"],
        [:],
    ])
    func writeFromTheServersOwnPage_aListedOrigin_orNoPage_isApplied(headers: [String: String]) throws {
        let api = try TestApplication {
            $0.allowedOrigins = ["http://tv.example:8080"]
            $0.allowedHosts = ["rings.example"]
        }
        let response = try api.send(
            "PUT", Self.board + "/rings/move", headers: headers.merging(["Content-Type": "application/json"]) { $1 },
            body: #"{"progress":0.7}"#)
        #expect(response.status == 200, "\(response.text)")
    }

    @Test func foreignOrigin_isRefusedBeforeTheToken_evenWithTheRightOne() throws {
        let api = try TestApplication {
            $0.writeToken = "write-secret-1"
            $0.allowedOrigins = ["http://tv.example:8080"]
        }
        let before = try state(api)
        let headers = ["Content-Type": "application/json", "Origin": "http://evil.example"]
        expectError(try api.send("PATCH", Self.board, headers: headers, body: Self.seed), 403, "origin_not_allowed")
        expectError(
            try api.send(
                "PATCH", Self.board, headers: headers.merging(["Authorization": "Bearer write-secret-1"]) { $1 }, body: Self.seed),
            403, "origin_not_allowed")
        #expect(try state(api).targets == before.targets)
    }

    // MARK: - The order of the steps

    @Test func authComesBeforeTheRateLimit_andTheRateLimitBeforeIdempotency() throws {
        let api = try TestApplication {
            $0.writeToken = "write-secret-1"
            $0.writesPerMinute = 1
        }
        let authorized = ["Content-Type": "application/json", "Authorization": "Bearer write-secret-1", "Idempotency-Key": "k1"]
        #expect(try api.send("PATCH", Self.board, headers: authorized, body: Self.seed).status == 200)
        // The bucket is empty: a request without the token is still told about the token.
        expectError(try api.send("PATCH", Self.board, body: Self.seed), 401, "unauthorized")
        // And a retry of the first is limited before it could be replayed.
        let limited = try api.send("PATCH", Self.board, headers: authorized, body: Self.seed)
        expectError(limited, 429, "rate_limited")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        // Reads are not limited.
        #expect(try api.get(Self.board, headers: ["Authorization": "Bearer write-secret-1"]).status == 200)
    }

    @Test func idempotencyComesBeforeDecoding_decodingBeforeIfMatch_ifMatchBeforeTheBoard() throws {
        let api = try TestApplication()
        let keyed = ["Content-Type": "application/json", "Idempotency-Key": "k2"]
        #expect(try api.send("PATCH", Self.board, headers: keyed, body: Self.seed).status == 200)
        let before = try state(api)
        // The key's reuse is noticed before the (malformed) body is read.
        expectError(try api.send("PATCH", Self.board, headers: keyed, body: "{"), 422, "idempotency_key_reused")
        let stale = ["Content-Type": "application/json", "If-Match": #""0-stale""#]
        // A body that cannot be read is refused before its precondition is looked at…
        expectError(try api.send("PATCH", Self.board, headers: stale, body: "{"), 400, "malformed")
        // …and the precondition before the board checks the change (no ring "nope").
        expectError(
            try api.send("PATCH", Self.board, headers: stale, body: #"{"rings":{"nope":0.5}}"#), 412, "precondition_failed")
        expectError(try api.send("PATCH", Self.board, body: #"{"rings":{"nope":0.5}}"#), 404, "not_found")
        let after = try state(api)
        #expect(after.etag == before.etag && after.targets == before.targets)
    }

    // MARK: - Idempotency, If-Match, the store

    @Test func idempotencyKey_replaysTheFirstAnswer_refusesReuse_andAnswers409WhileInFlight() throws {
        let api = try TestApplication()
        let headers = ["Content-Type": "application/json", "Idempotency-Key": "push-42"]
        let body = #"{"rings":{"move":0.4},"animation":"none"}"#

        // In flight: the first is handed to the store but not yet durable.
        var first: HTTPResponse?
        api.pipeline.handle(api.request("PATCH", Self.board, headers: headers, body: body)) { first = $0 }
        #expect(first == nil)
        expectError(try api.send("PATCH", Self.board, headers: headers, body: body), 409, "idempotency_key_in_flight")
        #expect(api.drain(until: { first != nil }), "the first push is answered once stored")
        let answered = try #require(first)
        #expect(answered.status == 200)

        // Someone else moves the ring; the retried push must not move it back.
        #expect(try api.send("PUT", Self.board + "/rings/move", body: #"{"progress":0.9,"animation":"none"}"#).status == 200)
        let retry = try api.send("PATCH", Self.board, headers: headers, body: body)
        #expect(retry.status == 200)
        #expect(retry.body == answered.body)
        #expect(retry.headers["idempotent-replayed"] == "true")
        expectError(
            try api.send("PATCH", Self.board, headers: headers, body: #"{"rings":{"move":0.1}}"#), 422, "idempotency_key_reused")
        #expect(try api.get(Self.board).decode(TestSnapshot.self)[ring: "move"]?.target == 0.9)
    }

    /// Issue 20, defect 5: bodies that two JSON readers could read two ways are refused as 400 `malformed`
    /// saying why and where, and change nothing: a key given twice (after its escapes are read), a trailing
    /// comma, a byte order mark, UTF-16, text that is not UTF-8.
    @Test(
        arguments: [
            ("a key twice", Array(#"{"rings":{"move":0.11},"ring\u0073":{"move":0.99}}"#.utf8), "appears twice", "rings"),
            ("a trailing comma", Array(#"{"rings":{"move":0.11,}}"#.utf8), "a comma after the last member", "rings"),
            ("a byte order mark", [0xEF, 0xBB, 0xBF] + Array(#"{"rings":{"move":0.11}}"#.utf8), "byte order mark", nil),
            ("UTF-16", [0xFF, 0xFE] + Array(#"{"rings":{"move":0.11}}"#.utf8).flatMap { [$0, 0] }, "UTF-16", nil),
            ("UTF-16 without a mark", Array(#"{"rings":{"move":0.11}}"#.utf8).flatMap { [$0, 0] }, "UTF-16", nil),
            ("not UTF-8", Array(#"{"rings":{"m"#.utf8) + [0xC3, 0x28] + Array(#"":0.11}}"#.utf8), "not UTF-8", nil),
        ] as [(String, [UInt8], String, String?)])
    func bodiesThatAreNotStrictJSON_are400SayingWhy_andChangeNothing(
        name: String, body: [UInt8], says: String, field: String?
    ) throws {
        let api = try TestApplication()
        #expect(try api.send("PATCH", Self.board, body: Self.seed).status == 200)
        let before = try state(api)
        var request = api.request("PATCH", Self.board)
        request.body = body
        var answer: HTTPResponse?
        api.pipeline.handle(request) { answer = $0 }
        let response = TestApplication.testResponse(try #require(answer, "\(name): answered at once"))
        expectError(response, 400, "malformed")
        #expect(response.error?.message.contains(says) == true, "\(name): \(response.text)")
        #expect(response.error?.field == field, "\(name): \(response.text)")
        let after = try state(api)
        #expect(after.etag == before.etag && after.targets == before.targets)
    }

    @Test func anEmptyIdempotencyKey_countsAsNoKey_andAnOverlongOneIs400() throws {
        let api = try TestApplication()
        let empty = ["Content-Type": "application/json", "Idempotency-Key": ""]
        #expect(try api.send("PATCH", Self.board, headers: empty, body: #"{"rings":{"move":0.4}}"#).status == 200)
        // Without a key, another body under the same (empty) header is a new write, not a reuse.
        let second = try api.send("PATCH", Self.board, headers: empty, body: #"{"rings":{"move":0.6}}"#)
        #expect(second.status == 200)
        #expect(second.headers["idempotent-replayed"] == nil)
        let before = try state(api)
        let long = ["Content-Type": "application/json", "Idempotency-Key": String(repeating: "k", count: 256)]
        expectError(try api.send("PATCH", Self.board, headers: long, body: #"{"rings":{"move":0.1}}"#), 400, "malformed")
        let after = try state(api)
        #expect(after.etag == before.etag && after.targets == before.targets)
    }

    @Test func ifMatch_acceptsTheCurrentTagOrStar_andEveryWriteAnswersWithTheNewTag() throws {
        let api = try TestApplication()
        let empty = try api.get(Self.board)
        let tag = try #require(empty.headers["etag"])
        let put = try api.send(
            "PUT", Self.board + "/rings/move", headers: ["Content-Type": "application/json", "If-Match": tag],
            body: #"{"progress":0.25,"animation":"none"}"#)
        #expect(put.status == 200)
        #expect(try put.decode(TestSnapshot.self)[ring: "move"]?.target == 0.25)
        let newTag = try #require(put.headers["etag"])
        #expect(newTag != tag)
        #expect(try api.get(Self.board).headers["etag"] == newTag)
        let star = try api.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "If-Match": "*"], body: #"{"rings":{"move":0.5}}"#)
        #expect(star.status == 200)
    }

    /// A write refused at its commit (here an If-Match naming a revision the board has not reached) leaves its
    /// Idempotency-Key free: only a 2xx is replayed, so the corrected retry under the same key is applied.
    @Test func aWriteRefusedAtItsCommit_leavesItsIdempotencyKeyFree() throws {
        let api = try TestApplication()
        let tag = try #require(api.get(Self.board).headers["etag"])
        // "REVISION-NONCE": the same run's nonce with a revision five ahead.
        let inner = tag.dropFirst().dropLast()
        let dash = try #require(inner.firstIndex(of: "-"))
        let revision = try #require(Int(inner[..<dash]))
        let ahead = "\"\(revision + 5)-\(inner[inner.index(after: dash)...])\""
        let body = #"{"rings":{"move":0.4},"animation":"none"}"#
        let refused = try api.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "Idempotency-Key": "k-412", "If-Match": ahead],
            body: body)
        expectError(refused, 412, "precondition_failed")
        let retry = try api.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/json", "Idempotency-Key": "k-412", "If-Match": tag],
            body: body)
        #expect(retry.status == 200, "\(retry.text)")
        #expect(retry.headers["idempotent-replayed"] == nil)
        #expect(try api.get(Self.board).decode(TestSnapshot.self)[ring: "move"]?.target == 0.4)
    }

    @Test func storeThatCannotCommit_answers503_revertsTheBoard_andReadyzSaysWhy() throws {
        let api = try TestApplication()
        #expect(try api.send("PATCH", Self.board, body: Self.seed).status == 200)
        let before = try state(api)
        api.store.close()

        let failed = try api.send("PUT", Self.board + "/rings/move", body: #"{"progress":0.9}"#)
        expectError(failed, 503, "storage_unavailable")
        let after = try state(api)
        #expect(after.targets == before.targets)
        #expect(after.etag != nil)
        let ready = try api.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.text.contains("closed"), "\(ready.text)")
        // While failing, a write is refused at once; one that is wrong in itself still says so.
        expectError(try api.send("PUT", Self.board + "/rings/move", body: #"{"progress":0.9}"#), 503, "storage_unavailable")
        expectError(try api.send("PUT", Self.board + "/rings/nope", body: #"{"progress":0.9}"#), 404, "not_found")
        #expect(try state(api).targets == before.targets)
    }

    // MARK: - Reads and routes

    @Test func head_isAnsweredWhereverGetIs() throws {
        let api = try TestApplication()
        for path in [
            "/healthz", "/readyz", "/metrics", "/api/v1/openapi.yaml", "/api/v1/boards", Self.board, Self.board + "/rings/move",
        ] {
            let get = try api.get(path)
            let head = try api.send("HEAD", path)
            #expect(head.status == 200, "HEAD \(path): \(head.text)")
            #expect(head.headers["content-type"] == get.headers["content-type"])
        }
    }

    @Test func unknownRouteAndMethod_are404And405_withAllow() throws {
        let api = try TestApplication()
        expectError(try api.get("/api/v1/nothing"), 404, "not_found")
        let refused = try api.send("POST", Self.board)
        expectError(refused, 405, "method_not_allowed")
        #expect(refused.headers["allow"] == "GET, HEAD, PATCH, PUT, DELETE, OPTIONS")
    }

    @Test func curlsDefaultFormContentType_withoutAnOrigin_isAcceptedAsJSON() throws {
        let api = try TestApplication()
        let response = try api.send(
            "PATCH", Self.board, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: #"{"rings":{"move":0.8}}"#)
        #expect(response.status == 200, "\(response.text)")
    }

    @Test func countdown_startsAndCancels_andABodilessCancelNeedsNoBody() throws {
        let api = try TestApplication()
        let started = try api.send("POST", Self.board + "/countdown", body: #"{"seconds":30}"#)
        #expect(started.status == 200, "\(started.text)")
        let cancelled = try api.send("DELETE", Self.board + "/countdown", headers: [:])
        #expect(cancelled.status == 200, "\(cancelled.text)")
        #expect(try api.send("DELETE", Self.board + "/countdown", body: "{}").status == 200)
    }

    @Test func boardList_countsViewersFromTheTransport() throws {
        let api = try TestApplication()
        struct List: Decodable {
            struct Entry: Decodable {
                var name: String
                var viewers: Int
            }
            var boards: [Entry]
        }
        let list = try api.get("/api/v1/boards").decode(List.self)
        #expect(list.boards.map(\.name) == ["main"])
        #expect(list.boards.map(\.viewers) == [0])
    }
}
