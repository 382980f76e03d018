import ArgumentParser

/// `ringcast board`: create (or replace), delete and list boards through the API.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Create, change, delete, list or reset boards on a running server.",
        discussion: """
            Examples:
              ringcast board create ci --template tasks --count 5 --title 'CI pipeline'
              ringcast board set ci --title 'CI' --background '#101020'
              ringcast board list
              ringcast board delete ci
              ringcast board reset main
            """,
        subcommands: [CreateBoard.self, SetBoard.self, DeleteBoard.self, ListBoards.self, ResetBoard.self]
    )
}
