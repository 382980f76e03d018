import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// `/api/v1/playlists` in process, through the same pipeline and store the server runs: what is accepted, what is
/// refused (and that a refusal changes nothing), If-Match, the limit.
@Suite("Playlists API")
struct PlaylistAPITests {
    struct Reading: Decodable {
        struct Current: Decodable {
            var board: String
            var index: Int
        }

        struct Next: Decodable {
            var board: String
            var tick: Int64
            var t: Double
        }

        var name: String
        var boards: [String]
        var seconds: Int
        var transition: String?
        var anchor: Int64
        var current: Current?
        var next: Next?
        var viewers: Int
    }

    /// The shipped boards plus `ci`, created through the API.
    private func api(adjust: (inout RingCastConfiguration) -> Void = { _ in }) throws -> TestApplication {
        let api = try TestApplication(adjust: adjust)
        let created = try api.send("PUT", "/api/v1/boards/ci", body: #"{"template":"single"}"#)
        #expect(created.status == 201, "\(created.text)")
        return api
    }

    @Test func put_creates201_thenTheSameAgainIs200_andGetShowsWhereItStands() throws {
        let api = try api()
        let created = try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main","ci"],"seconds":30}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.headers["location"] == "/api/v1/playlists/wall")
        let etag = try #require(created.headers["etag"])
        let reading = try created.decode(Reading.self)
        #expect(reading.name == "wall" && reading.boards == ["main", "ci"] && reading.seconds == 30)
        #expect(reading.transition == "circle")
        #expect(reading.current?.board == "main" && reading.next?.board == "ci")
        let fps = Int64(api.configuration.fps)
        #expect(reading.next?.tick == (reading.anchor + 30) * fps, "the first switch is a period after the anchor")
        #expect(reading.anchor * 1000 >= Int64(Date().timeIntervalSince1970 * 1000) - 1000)

        let again = try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main","ci"],"seconds":30}"#)
        #expect(again.status == 200 && again.headers["etag"] == etag, "the same definition changes nothing")
        #expect(try again.decode(Reading.self).anchor == reading.anchor)

        let shown = try api.get("/api/v1/playlists/wall")
        #expect(shown.status == 200 && shown.headers["etag"] == etag)
        let list = try api.get("/api/v1/playlists")
        #expect(list.status == 200 && list.text.contains(#""name":"wall""#), "\(list.text)")
    }

    @Test func put_replaces200_withANewETag() throws {
        let api = try api()
        let first = try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main","ci"],"seconds":30}"#)
        let second = try api.send(
            "PUT", "/api/v1/playlists/wall", body: #"{"boards":["ci"],"seconds":5,"transition":"none"}"#)
        #expect(second.status == 200, "\(second.text)")
        #expect(second.headers["etag"] != first.headers["etag"])
        let reading = try second.decode(Reading.self)
        #expect(reading.boards == ["ci"] && reading.transition == "none")
        // The replacement takes effect at its anchor, the next whole second: the old definition holds until then
        // (unless the answer came after it).
        if let next = reading.next {
            #expect(reading.current?.board == "main")
            #expect(next.board == "ci" && next.tick == reading.anchor * Int64(api.configuration.fps))
        } else {
            #expect(reading.current?.board == "ci")
        }
    }

    @Test(
        arguments: [
            (#"{"boards":["main","nope"],"seconds":30}"#, 422, "invalid_value", "boards.1"),
            (#"{"boards":["main"],"seconds":0.5}"#, 422, "out_of_range", "seconds"),
            (#"{"boards":[],"seconds":30}"#, 422, "invalid_value", "boards"),
            (#"{"boards":["main"],"seconds":30,"transition":"wipe"}"#, 422, "invalid_value", "transition"),
            (#"{"boards":["main"],"seconds":30,"shuffle":true}"#, 400, "unknown_field", "shuffle"),
            (#"["main"]"#, 400, "malformed", nil),
            ("", 400, "malformed", nil),
        ] as [(String, Int, String, String?)])
    func put_refusesABadBody_namingTheField_andChangesNothing(body: String, status: Int, code: String, field: String?) throws {
        let api = try api()
        let refused = try api.send("PUT", "/api/v1/playlists/wall", body: body)
        #expect(refused.status == status, "\(refused.text)")
        #expect(refused.error?.code == code && refused.error?.field == field, "\(refused.text)")
        #expect(try api.get("/api/v1/playlists/wall").status == 404)
    }

    @Test func put_refusesABadNameAndAnotherMediaType() throws {
        let api = try api()
        let name = try api.send("PUT", "/api/v1/playlists/Wall%20Screen", body: #"{"boards":["main"],"seconds":3}"#)
        #expect(name.status == 422 && name.error?.field == "playlist", "\(name.text)")
        let media = try api.send(
            "PUT", "/api/v1/playlists/wall", headers: ["Content-Type": "text/plain"], body: #"{"boards":["main"],"seconds":3}"#)
        #expect(media.status == 415)
    }

    @Test func delete_is204_thenGetAndDeleteAre404() throws {
        let api = try api()
        #expect(try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":3}"#).status == 201)
        #expect(try api.send("DELETE", "/api/v1/playlists/wall", body: "").status == 204)
        let gone = try api.get("/api/v1/playlists/wall")
        #expect(gone.status == 404 && gone.error?.field == "playlist")
        #expect(try api.send("DELETE", "/api/v1/playlists/wall", body: "").status == 404)
    }

    @Test func ifMatch_guardsWrites() throws {
        let api = try api()
        #expect(
            try api.send(
                "PUT", "/api/v1/playlists/wall", headers: ["Content-Type": "application/json", "If-Match": "*"],
                body: #"{"boards":["main"],"seconds":3}"#
            ).status == 412, "If-Match: * needs a playlist to match")
        let created = try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":3}"#)
        let etag = try #require(created.headers["etag"])
        let stale = try api.send(
            "PUT", "/api/v1/playlists/wall", headers: ["Content-Type": "application/json", "If-Match": #""p-0""#],
            body: #"{"boards":["ci"],"seconds":3}"#)
        #expect(stale.status == 412 && stale.error?.field == "If-Match")
        #expect(try api.get("/api/v1/playlists/wall").headers["etag"] == etag, "a refused write changes nothing")
        let matching = try api.send(
            "PUT", "/api/v1/playlists/wall", headers: ["Content-Type": "application/json", "If-Match": etag],
            body: #"{"boards":["ci"],"seconds":3}"#)
        #expect(matching.status == 200)
        let deleting = try api.send("DELETE", "/api/v1/playlists/wall", headers: ["If-Match": etag], body: "")
        #expect(deleting.status == 412, "the ETag of the replaced definition no longer matches")
    }

    @Test func writesNeedTheWriteToken() throws {
        let api = try TestApplication { $0.writeToken = "secret" }
        let refused = try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["main"],"seconds":3}"#)
        #expect(refused.status == 401)
        let allowed = try api.send(
            "PUT", "/api/v1/playlists/wall",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer secret"],
            body: #"{"boards":["main"],"seconds":3}"#)
        #expect(allowed.status == 201)
    }

    @Test func aServerHoldsAtMostTheLimit() throws {
        let api = try api()
        for index in 0..<Limits.maximumPlaylists {
            let created = try api.send("PUT", "/api/v1/playlists/p\(index)", body: #"{"boards":["main"],"seconds":3}"#)
            #expect(created.status == 201, "\(created.text)")
        }
        let refused = try api.send("PUT", "/api/v1/playlists/one-more", body: #"{"boards":["main"],"seconds":3}"#)
        #expect(refused.status == 422 && refused.error?.code == "limit_exceeded", "\(refused.text)")
        // Replacing one that exists is not a new one.
        #expect(try api.send("PUT", "/api/v1/playlists/p0", body: #"{"boards":["ci"],"seconds":3}"#).status == 200)
    }

    @Test func aBoardDeletedSince_isSkipped() throws {
        let api = try api()
        #expect(try api.send("PUT", "/api/v1/playlists/wall", body: #"{"boards":["ci","main"],"seconds":3}"#).status == 201)
        #expect(try api.send("DELETE", "/api/v1/boards/ci", body: "").status == 204)
        let reading = try api.get("/api/v1/playlists/wall").decode(Reading.self)
        #expect(reading.boards == ["ci", "main"] && reading.current?.board == "main" && reading.next == nil)
    }
}
