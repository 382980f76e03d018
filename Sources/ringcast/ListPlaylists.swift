import ArgumentParser

/// `ringcast playlist list`.
struct ListPlaylists: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the playlists: boards, seconds, the board shown now and viewers.",
        discussion: """
            Reads GET /api/v1/playlists. --json prints the server's JSON instead. Example: ringcast playlist list
            """
    )

    @Flag(help: "Print the server's JSON as it came.")
    var json = false

    @OptionGroup var server: ServerOptions

    func run() throws {
        try server.connection().show(request(), json: json, as: PlaylistReading.List.self, \.table)
    }

    func request() -> APIRequest {
        APIRequest("GET", ["playlists"])
    }
}
