import ArgumentParser

/// `ringcast board delete`.
struct DeleteBoard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a board, its rings and their values.",
        discussion: """
            Sends DELETE /api/v1/boards/NAME; pages showing the board say it is gone. \
            Example: ringcast board delete ci
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var name: String

    @OptionGroup var server: ServerOptions

    func run() throws {
        _ = try server.connection().send(request())
        print("deleted board \(name)")
    }

    func request() -> APIRequest {
        APIRequest("DELETE", ["boards", name])
    }
}
