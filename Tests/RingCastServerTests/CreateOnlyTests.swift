import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// `If-None-Match: *` on a write (RFC 9110 §13.1.2) in process, through the pipeline and store the server runs: it
/// creates a board or a playlist only if none has the name, 412 otherwise with nothing changed; any other value is
/// 400. Cluster mode's Redis script is checked in `CreateOnlyClusterTests`.
@Suite("If-None-Match")
struct CreateOnlyTests {
    private static let createOnly = ["Content-Type": "application/json", "If-None-Match": "*"]
    private static let single = #"{"template":"single","title":"First"}"#

    @Test func boardPut_createsWhatIsAbsent_andRefusesOverOneThatExists_changingNothing() throws {
        let api = try TestApplication()
        let created = try api.send("PUT", "/api/v1/boards/ci", headers: Self.createOnly, body: Self.single)
        #expect(created.status == 201, "\(created.text)")
        let etag = try #require(created.headers["etag"])

        let again = try api.send(
            "PUT", "/api/v1/boards/ci", headers: Self.createOnly, body: #"{"template":"tasks","title":"Second"}"#)
        #expect(again.status == 412 && again.error?.code == "precondition_failed", "\(again.text)")
        #expect(again.error?.field == "If-None-Match")
        #expect(again.error?.message.contains(#"board "ci" exists"#) == true, "\(again.text)")
        let shown = try api.get("/api/v1/boards/ci")
        #expect(shown.headers["etag"] == etag && shown.text.contains(#""title":"First""#), "a refusal changes nothing")

        // Even the same definition again: the board exists.
        #expect(try api.send("PUT", "/api/v1/boards/ci", headers: Self.createOnly, body: Self.single).status == 412)
        // A configured board exists too.
        #expect(try api.send("PUT", "/api/v1/boards/main", headers: Self.createOnly, body: Self.single).status == 412)
        // Without the header the same PUT replaces it.
        #expect(try api.send("PUT", "/api/v1/boards/ci", body: #"{"template":"tasks"}"#).status == 200)
    }

    @Test func boardPut_createsAgainOnceTheBoardIsDeleted() throws {
        let api = try TestApplication()
        #expect(try api.send("PUT", "/api/v1/boards/ci", headers: Self.createOnly, body: Self.single).status == 201)
        #expect(try api.send("DELETE", "/api/v1/boards/ci", headers: [:]).status == 204)
        #expect(try api.send("PUT", "/api/v1/boards/ci", headers: Self.createOnly, body: Self.single).status == 201)
    }

    @Test func aWriteToABoardThatExists_isRefusedWhateverTheMethod() throws {
        let api = try TestApplication()
        let patch = try api.send("PATCH", "/api/v1/boards/main", headers: Self.createOnly, body: #"{"rings":{"move":0.5}}"#)
        #expect(patch.status == 412 && patch.error?.field == "If-None-Match", "\(patch.text)")
        #expect(try api.send("DELETE", "/api/v1/boards/main", headers: ["If-None-Match": "*"]).status == 412)
        #expect(try api.get("/api/v1/boards/main").status == 200)
    }

    @Test(arguments: [#""1-abc""#, "W/\"x\"", "* ", "*, \"1-a\""])
    func anyValueButStar_is400_andChangesNothing(value: String) throws {
        let api = try TestApplication()
        let board = try api.send(
            "PUT", "/api/v1/boards/ci", headers: ["Content-Type": "application/json", "If-None-Match": value],
            body: Self.single)
        #expect(board.status == 400 && board.error?.field == "If-None-Match", "\(board.text)")
        #expect(try api.get("/api/v1/boards/ci").status == 404)
        let playlist = try api.send(
            "PUT", "/api/v1/playlists/wall", headers: ["Content-Type": "application/json", "If-None-Match": value],
            body: #"{"boards":["main"],"seconds":3}"#)
        #expect(playlist.status == 400 && playlist.error?.field == "If-None-Match", "\(playlist.text)")
        #expect(try api.get("/api/v1/playlists/wall").status == 404)
    }

    @Test func playlistPut_createsWhatIsAbsent_andRefusesOverOneThatExists_changingNothing() throws {
        let api = try TestApplication()
        let created = try api.send(
            "PUT", "/api/v1/playlists/wall", headers: Self.createOnly, body: #"{"boards":["main"],"seconds":3}"#)
        #expect(created.status == 201, "\(created.text)")
        let etag = try #require(created.headers["etag"])
        let again = try api.send(
            "PUT", "/api/v1/playlists/wall", headers: Self.createOnly, body: #"{"boards":["main"],"seconds":9}"#)
        #expect(again.status == 412 && again.error?.field == "If-None-Match", "\(again.text)")
        #expect(again.error?.message.contains(#"playlist "wall" exists"#) == true, "\(again.text)")
        let shown = try api.get("/api/v1/playlists/wall")
        #expect(shown.headers["etag"] == etag && shown.text.contains(#""seconds":3"#), "a refusal changes nothing")
        // With If-Match too, the two cannot both hold.
        let both = try api.send(
            "PUT", "/api/v1/playlists/wall",
            headers: ["Content-Type": "application/json", "If-None-Match": "*", "If-Match": etag],
            body: #"{"boards":["main"],"seconds":9}"#)
        #expect(both.status == 412)
        let deleting = try api.send("DELETE", "/api/v1/playlists/wall", headers: ["If-None-Match": "*"])
        #expect(deleting.status == 412)
        #expect(try api.get("/api/v1/playlists/wall").status == 200)
    }
}
