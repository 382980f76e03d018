import ArgumentParser

/// `ringcast ring`: add rings to a board and delete them through the API.
struct RingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ring",
        abstract: "Add a ring to a board, or delete one, on a running server.",
        discussion: """
            Examples:
              ringcast ring add ci deploy --title Deploy --colors '#2ecc71,#27ae60'
              ringcast ring delete ci deploy
            """,
        subcommands: [AddRing.self, DeleteRing.self]
    )
}
