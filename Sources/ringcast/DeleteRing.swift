import ArgumentParser

/// `ringcast ring delete`.
struct DeleteRing: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a ring from a board.",
        discussion: """
            Sends DELETE /api/v1/boards/BOARD/rings/RING; the server lays the board out again. A \
            board's last ring, or the last source of a derived ring, cannot be deleted. On a board \
            the server's configuration defines (such as main) it needs --force: the board then keeps \
            its new shape until ringcast board reset. Example: ringcast ring delete ci deploy
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var board: String

    @Argument(help: "Ring id, e.g. deploy.")
    var id: String

    @OptionGroup var reshape: ReshapeOption

    @OptionGroup var server: ServerOptions

    func run() throws {
        _ = try server.connection().send(request())
        print("deleted ring \(id) from board \(board)")
    }

    func request() -> APIRequest {
        reshape.applied(to: APIRequest("DELETE", ["boards", board, "rings", id]))
    }
}
