import Foundation
import Testing

@testable import ringcast

/// `ringcast playlist …`: the request each subcommand builds, checked without a server by the server's own decoder,
/// and what it prints of the server's answer.
@Suite("ringcast playlist")
struct PlaylistCommandTests {
    private func refusal(_ body: () throws -> APIRequest) -> String? {
        do {
            _ = try body()
            return nil
        } catch let failure as CommandFailure {
            return failure.description
        } catch {
            return "not a CommandFailure: \(error)"
        }
    }

    @Test func set_putsTheBoardsSecondsAndTransition() throws {
        let request = try SetPlaylist.parse(["wall", "--boards", "ci,sales", "--seconds", "30"]).request()
        #expect(request.method == "PUT" && request.path == ["playlists", "wall"])
        #expect(request.bodyText == #"{"boards":["ci","sales"],"seconds":30}"#)

        let none = try SetPlaylist.parse(["wall", "--boards", "ci", "--seconds", "5", "--transition", "none"]).request()
        #expect(none.bodyText == #"{"boards":["ci"],"seconds":5,"transition":"none"}"#)
        let angle = try SetPlaylist.parse(["wall", "--boards", "ci", "--seconds", "5", "--transition", "45"]).request()
        #expect(angle.bodyText == #"{"boards":["ci"],"seconds":5,"transition":{"angle":45}}"#)
    }

    @Test(arguments: [
        (
            ["wall", "--boards", "ci", "--seconds", "2.5"],
            "seconds: seconds must be a whole number of seconds from 1 to 86400 (a day), got 2.5"
        ),
        (
            ["wall", "--boards", "ci,,sales", "--seconds", "5"],
            "boards.1: \"\" is not a board name: use 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter or digit"
        ),
        (
            ["wall", "--boards", "ci,ci", "--seconds", "5"],
            "boards.1: board \"ci\" is listed twice; a playlist shows each board once per cycle"
        ),
        (
            ["wall", "--boards", "ci", "--seconds", "5", "--transition", "fade"],
            "unknown --transition \"fade\"; use leftToRight, rightToLeft, topToBottom, bottomToTop, circle, an angle in degrees (e.g. 45) or none"
        ),
    ])
    func set_refusesWhatTheAPIWouldRefuse(arguments: [String], message: String) throws {
        let command = try SetPlaylist.parse(arguments)
        #expect(refusal { try command.request() } == message)
    }

    @Test func get_list_andDelete_haveNoBody() throws {
        #expect(try GetPlaylist.parse(["wall"]).request() == APIRequest("GET", ["playlists", "wall"]))
        #expect(try ListPlaylists.parse([]).request() == APIRequest("GET", ["playlists"]))
        #expect(try DeletePlaylist.parse(["wall"]).request() == APIRequest("DELETE", ["playlists", "wall"]))
    }

    static let answer = #"""
        {"anchor":1763683200,"boards":["ci","sales"],"current":{"board":"sales","index":1},"name":"wall",
         "next":{"board":"ci","t":1763683260000,"tick":105821000000},"seconds":30,"transition":"circle","viewers":3}
        """#

    @Test func get_printsTheBoardShownNow_andTheNextSwitch() throws {
        let reading = try JSONDecoder().decode(PlaylistReading.self, from: Data(Self.answer.utf8))
        #expect(
            reading.details == """
                playlist wall: ci, sales; 30 s each, circle
                now: sales (2 of 2)
                next: ci at 2025-11-21T00:01:00Z (tick 105821000000)
                viewers: 3

                """)
    }

    @Test func list_printsALinePerPlaylist() throws {
        let json = #"{"playlists":[\#(Self.answer)]}"#
        let listing = try JSONDecoder().decode(PlaylistReading.List.self, from: Data(json.utf8))
        #expect(
            listing.table == """
                playlist  seconds  transition  now    viewers  boards
                wall      30       circle      sales  3        ci,sales

                """)
    }
}
