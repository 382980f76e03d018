import ArgumentParser

/// `ringcast board delete`.
struct DeleteBoard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a board, its rings and their values.",
        discussion: """
            Sends DELETE /api/v1/boards/NAME; pages showing the board say it is gone. A board the \
            server's configuration defines (such as main) is deleted for good: the configuration \
            does not bring it back, only wiping the data directory does; that needs --force. \
            Example: ringcast board delete ci
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var name: String

    @Flag(help: "Delete it even if the server's configuration defines it (it does not come back).")
    var force = false

    @OptionGroup var server: ServerOptions

    func run() throws {
        let connection = try server.connection()
        if !force {
            let listing = try connection.decode(BoardListing.self, from: connection.request("GET", api: ["boards"]))
            if let board = listing.boards.first(where: { $0.name == name }), let refusal = Self.refusal(of: board) {
                throw CommandFailure(refusal)
            }
        }
        _ = try connection.send(request())
        print("deleted board \(name)")
    }

    /// Why deleting `board` needs `--force`, naming what goes; nil when it does not.
    static func refusal(of board: BoardListing.Board) -> String? {
        guard board.configured == true else { return nil }
        let rings = board.rings.count == 1 ? "its 1 ring and its value" : "its \(board.rings.count) rings and their values"
        return "board \(board.name) comes from the server's configuration; deleting it removes it for good "
            + "(until the data directory is wiped) with \(rings); pass --force to delete it"
    }

    func request() -> APIRequest {
        APIRequest("DELETE", ["boards", name])
    }
}
