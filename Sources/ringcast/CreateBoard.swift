import ArgumentParser
import RingCastCore

/// `ringcast board create`: a board from one of the server's templates.
struct CreateBoard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a board from a template, or with --replace replace the board of that name.",
        discussion: """
            Sends PUT /api/v1/boards/NAME with {"template":T,…}. The templates:

              activity   Move, Exercise and Stand, drawn concentric
              tasks      --count task rings (default 4) and their Overall, at most the
                         server's limits.maxRingsPerBoard (24 unless configured) in all
              countdown  a countdown ring
              single     one ring
              main       the shipped default board

            A board of that name is replaced, rings, values and all, only with --replace; \
            without it the PUT carries If-None-Match: *, so an existing board (even one made a moment \
            before by someone else) is left as it is and the command fails. Add rings of your own \
            with ringcast ring add. Replacing a board the server's configuration defines (such as \
            main) needs --force as well; ringcast board reset gives it its configured shape again. Names are 1 to 64 of a-z, 0-9, _ and -, starting with a \
            letter or digit. With --stale-after S, the board's rings dim and say how long \
            ago the last update came once no write arrived for S seconds.

            Examples:
              ringcast board create ci --template tasks --count 5 --title 'CI pipeline'
              ringcast board create launch --template countdown --background '#101020'
              ringcast board create nightly --template single --stale-after 90000
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var name: String

    @Option(help: "The board's shape: \(BoardTemplate.names.joined(separator: ", ")).")
    var template: String

    @Option(
        parsing: .unconditional,
        help: "Task rings of the tasks template (default 4); with their Overall at most the server's limit.")
    var count: Int?

    @Option(help: "Shown in the board list and the page's title, 1 to 64 characters (default: the name).")
    var title: String?

    @Option(help: "Background colour: '#rrggbb' (default: the server's).")
    var background: String?

    @Option(parsing: .unconditional, help: "Seconds without a write before the board shows stale, 1 to 604800 (a week).")
    var staleAfter: Int?

    @Flag(help: "Replace the board of that name if there is one: its rings and their values are lost.")
    var replace = false

    @OptionGroup var reshape: ReshapeOption

    @OptionGroup var server: ServerOptions

    func run() throws {
        let request = try request()
        let connection = try server.connection()
        let sent = Result { () throws(CommandFailure) in try connection.send(request) }
        if !replace, case .failure(let failure) = sent, failure.status == 412 {
            // The server refused to create over a board that exists (If-None-Match: *): nothing changed. Say what
            // is there, if it still is.
            guard let existing = try connection.find(api: ["boards", name]) else {
                throw CommandFailure("board \(name) exists; --replace replaces it, values gone")
            }
            throw CommandFailure(Self.refusal(of: try connection.decode(BoardReading.self, from: existing)))
        }
        let response = try sent.get()
        let board = try connection.decode(BoardReading.self, from: response)
        let rings = board.rings.count == 1 ? "1 ring" : "\(board.rings.count) rings"
        print("\(response.status == 201 ? "created" : "replaced") board \(name) (\(template), \(rings))")
    }

    /// Why creating over `board` needs `--replace`, naming what it would lose.
    static func refusal(of board: BoardReading) -> String {
        let rings = board.rings.count == 1 ? "1 ring" : "\(board.rings.count) rings"
        return "board \(board.board) exists with \(rings); --replace replaces it, values gone"
    }

    /// `PUT /api/v1/boards/NAME` with the template, checked; without `--replace` with `If-None-Match: *`, so the
    /// server creates it only if no board has the name (atomically, in a cluster too).
    func request() throws(CommandFailure) -> APIRequest {
        guard let shape = RingCastCore.BoardTemplate(rawValue: template) else {
            throw CommandFailure(
                "unknown template \"\(template)\"; use \(BoardTemplate.names.joined(separator: ", "))")
        }
        // The server's own check of a template and its count, against the most rings any server allows; the
        // server checks its configured limit.
        do {
            _ = try shape.rings(count: count, maximumRings: Limits.maximumRingsPerBoard)
        } catch {
            throw CommandFailure("--\(error.field ?? "template"): \(error.message)")
        }
        try DefinitionFlags.check(title: title)
        let background = try background.map { text throws(CommandFailure) in
            try ColorArgument.color(text, flag: "--background")
        }
        if let staleAfter {
            do {
                try Limits.check(staleAfter: staleAfter, field: nil)
            } catch {
                throw CommandFailure("--stale-after: \(error.message)")
            }
        }
        let body = BoardTemplate(
            template: template, count: count, title: title, background: background, staleAfter: staleAfter)
        var request = try APIRequest("PUT", ["boards", name], json: body, checkedAs: BoardDefinition.self)
        if !replace { request.headers["If-None-Match"] = "*" }
        return reshape.applied(to: request)
    }
}
