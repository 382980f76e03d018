import Foundation

/// A playlist as `GET /api/v1/playlists/NAME` answers it (docs/openapi.yaml, `Playlist`), as the playlist
/// commands print it.
struct PlaylistReading: Decodable {
    struct Current: Decodable {
        var board: String
        var index: Int
    }

    struct Next: Decodable {
        var board: String
        var tick: Int64
        /// Milliseconds since the Unix epoch.
        var t: Double
    }

    /// `{"angle":deg}` or a name (`none` included).
    enum Transition: Decodable, CustomStringConvertible {
        case name(String)
        case angle(Double)

        private enum AngleKeys: String, CodingKey { case angle }

        init(from decoder: any Decoder) throws {
            if let name = try? decoder.singleValueContainer().decode(String.self) {
                self = .name(name)
            } else {
                self = .angle(try decoder.container(keyedBy: AngleKeys.self).decode(Double.self, forKey: .angle))
            }
        }

        var description: String {
            switch self {
            case .name(let name): name
            case .angle(let degrees): "\(degrees.rounded() == degrees ? String(Int(degrees)) : String(degrees))°"
            }
        }
    }

    /// `GET /api/v1/playlists`.
    struct List: Decodable {
        var playlists: [PlaylistReading]

        /// A header, then a line per playlist: name, seconds, transition, the board shown now, viewers and boards.
        var table: String {
            let rows = playlists.map { playlist in
                [
                    playlist.name, String(playlist.seconds), playlist.transition.description,
                    playlist.current?.board ?? "-", String(playlist.viewers), playlist.boards.joined(separator: ","),
                ]
            }
            return TextTable(rows: [["playlist", "seconds", "transition", "now", "viewers", "boards"]] + rows).description
        }
    }

    var name: String
    var boards: [String]
    var seconds: Int
    var transition: Transition
    var anchor: Int64
    var current: Current?
    var next: Next?
    var viewers: Int

    /// `ci, sales; 30 s each, circle`.
    var summary: String {
        "\(boards.joined(separator: ", ")); \(seconds) s each, \(transition)"
    }

    /// What `ringcast playlist get` prints: the summary, the board shown now, the next switch and the viewers.
    var details: String {
        var lines = ["playlist \(name): \(summary)"]
        if let current {
            lines.append("now: \(current.board) (\(current.index + 1) of \(boards.count))")
        } else {
            lines.append("now: none of its boards is served")
        }
        if let next {
            let date = Date(timeIntervalSince1970: next.t / 1000)
            lines.append("next: \(next.board) at \(date.formatted(.iso8601)) (tick \(next.tick))")
        }
        lines.append("viewers: \(viewers)")
        return lines.joined(separator: "\n") + "\n"
    }
}
