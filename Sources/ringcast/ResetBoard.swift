import ArgumentParser

/// `ringcast board reset`.
struct ResetBoard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Give a board the server's configuration defines its configured shape again.",
        discussion: """
            Sends DELETE /api/v1/boards/NAME/shape: the board gets the rings, places, title, background \
            and staleAfter its configuration gives it, keeping the values of the rings that stay, and \
            follows the configuration again (a reload included). A board the configuration does not \
            define has no shape to go back to. Example: ringcast board reset main
            """
    )

    @Argument(help: "Board name, e.g. main.")
    var name: String

    @OptionGroup var server: ServerOptions

    func run() throws {
        _ = try server.connection().send(request().minimal)
        print("board \(name) has its configured shape again")
    }

    func request() -> APIRequest {
        APIRequest("DELETE", ["boards", name, "shape"])
    }
}
