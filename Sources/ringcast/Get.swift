import ArgumentParser

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the progress and label of a board's rings, or of one ring.",
        discussion: """
            Reads GET /api/v1/boards/BOARD, or GET /api/v1/boards/BOARD/rings/RING, and prints a line \
            per ring: the progress the dashboard shows now (1 = one full turn), its label, and the \
            pushed target. --json prints the server's JSON instead. Example: ringcast get main move
            """
    )

    @Argument(help: "Board name, e.g. main.")
    var board: String

    @Argument(help: "Ring id, e.g. move (default: every ring of the board).")
    var ring: String?

    @Flag(help: "Print the server's JSON as it came.")
    var json = false

    @OptionGroup var server: ServerOptions

    func run() throws {
        let connection = try server.connection()
        let boardPath = ["boards", board]
        guard let ring else {
            let response = try connection.request("GET", api: boardPath)
            if json {
                print(response.text)
            } else {
                let reading = try connection.decode(BoardReading.self, from: response)
                print("board \(reading.board), revision \(reading.revision)")
                print(BoardReading.table(reading.rings, countdown: reading.countdown), terminator: "")
            }
            return
        }
        let response = try connection.request("GET", api: boardPath + ["rings", ring])
        if json {
            print(response.text)
            return
        }
        let reading = try connection.decode(BoardReading.Ring.self, from: response)
        var countdown: BoardReading.Countdown?
        if reading.kind == "countdown" {
            // A countdown's label counts the seconds left, which only the board's answer holds.
            let board = try connection.request("GET", api: boardPath)
            countdown = try connection.decode(BoardReading.self, from: board).countdown
        }
        print(BoardReading.table([reading], countdown: countdown), terminator: "")
    }
}
