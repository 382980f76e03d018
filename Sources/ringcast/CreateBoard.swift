import ArgumentParser

/// `ringcast board create`: a board from one of the server's templates.
struct CreateBoard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a board from a template, or replace the board of that name.",
        discussion: """
            Sends PUT /api/v1/boards/NAME with {"template":T,…}. The templates:

              activity   Move, Exercise and Stand, drawn concentric
              tasks      --count task rings (1 to 23, default 4) and their Overall
              countdown  a countdown ring
              single     one ring
              main       the shipped default board

            A board of that name is replaced, rings, values and all. Add rings of your own \
            with ringcast ring add. Names are 1 to 64 of a-z, 0-9, _ and -, starting with a \
            letter or digit.

            Examples:
              ringcast board create ci --template tasks --count 5 --title 'CI pipeline'
              ringcast board create launch --template countdown --background '#101020'
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var name: String

    @Option(help: "The board's shape: \(BoardTemplate.names.joined(separator: ", ")).")
    var template: String

    @Option(help: "Task rings of the tasks template, 1 to 23 (default 4).")
    var count: Int?

    @Option(help: "Shown in the board list and the page's title, 1 to 64 characters (default: the name).")
    var title: String?

    @Option(help: "Background colour: '#rrggbb' (default: the server's).")
    var background: String?

    @OptionGroup var server: ServerOptions

    func run() throws {
        let request = try request()
        let connection = try server.connection()
        let response = try connection.send(request)
        let board = try connection.decode(BoardReading.self, from: response)
        let rings = board.rings.count == 1 ? "1 ring" : "\(board.rings.count) rings"
        print("\(response.status == 201 ? "created" : "replaced") board \(name) (\(template), \(rings))")
    }

    /// `PUT /api/v1/boards/NAME` with the template, checked.
    func request() throws(CommandFailure) -> APIRequest {
        guard BoardTemplate.names.contains(template) else {
            throw CommandFailure(
                "unknown template \"\(template)\"; use \(BoardTemplate.names.joined(separator: ", "))")
        }
        if let count {
            guard template == "tasks" else {
                throw CommandFailure("--count applies to --template tasks, not \(template)")
            }
            guard BoardTemplate.taskCounts.contains(count) else {
                throw CommandFailure("--count must be 1 to 23 task rings, got \(count)")
            }
        }
        try RingDefinition.check(title: title)
        let background = try background.map { text throws(CommandFailure) in
            try ColorArgument.color(text, flag: "--background")
        }
        let body = BoardTemplate(template: template, count: count, title: title, background: background)
        return try APIRequest("PUT", ["boards", name], json: body)
    }
}
