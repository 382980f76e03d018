import ArgumentParser

/// `ringcast playlist get`.
struct GetPlaylist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Show a playlist: its boards, the board shown now and the next switch.",
        discussion: """
            Reads GET /api/v1/playlists/NAME. --json prints the server's JSON instead. \
            Example: ringcast playlist get wall
            """
    )

    @Argument(help: "Playlist name, e.g. wall.")
    var name: String

    @Flag(help: "Print the server's JSON as it came.")
    var json = false

    @OptionGroup var server: ServerOptions

    func run() throws {
        try server.connection().show(request(), json: json, as: PlaylistReading.self, \.details)
    }

    func request() -> APIRequest {
        APIRequest("GET", ["playlists", name])
    }
}
