import ArgumentParser

/// `ringcast board list`.
struct ListBoards: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the boards: title, rings and viewers.",
        discussion: """
            Reads GET /api/v1/boards and prints a line per board: its name, title, how many rings \
            it has, how many pages show it now, and its ring ids. --json prints the server's JSON \
            instead. Example: ringcast board list
            """
    )

    @Flag(help: "Print the server's JSON as it came.")
    var json = false

    @OptionGroup var server: ServerOptions

    func run() throws {
        try server.connection().show(request(), json: json, as: BoardListing.self, \.table)
    }

    func request() -> APIRequest {
        APIRequest("GET", ["boards"])
    }
}
