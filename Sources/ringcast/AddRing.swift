import ArgumentParser
import Foundation
import RingCastCore

/// `ringcast ring add`.
struct AddRing: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a ring to a board.",
        discussion: """
            Sends POST /api/v1/boards/BOARD/rings with the ring's definition. The server lays the \
            board out again and every page showing it redraws. A plain ring takes pushes; a \
            derived ring shows the mean of its --sources; a countdown ring runs with ringcast \
            countdown. --group puts the new ring inside an existing ring's concentric group, \
            innermost. Ids are 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit. On a \
            board the server's configuration defines (such as main) it needs --force: the board then \
            keeps its new shape until ringcast board reset.

            Examples:
              ringcast ring add ci deploy --title Deploy --colors '#2ecc71,#27ae60'
              ringcast ring add ci build --status running
              ringcast ring add ci tests --max 20 --label fraction
              ringcast ring add ci overall --kind derived --sources build,tests,deploy
              ringcast ring add main lint --group move --label text:lint --force
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var board: String

    @Argument(help: "The new ring's id, e.g. deploy.")
    var id: String

    @Option(help: "Shown under the ring, 1 to 64 characters (default: the id).")
    var title: String?

    @Option(help: "\(DefinitionFlags.ringKinds.joined(separator: ", ")) (default plain).")
    var kind: String?

    @Option(help: "A derived ring's source ring ids, comma separated: 'build,tests'.")
    var sources: String?

    @Option(help: "Gradient colours, start and end: '#rrggbb,#rrggbb' (default: the palette's next).")
    var colors: String?

    @Option(help: "Colour the ring by a status instead: \(RingStatus.allCases.map(\.rawValue).joined(separator: ", ")).")
    var status: String?

    @Option(help: "A ring whose concentric group the new ring joins, innermost.")
    var group: String?

    @Option(help: "What the label shows: \(LabelFormat.choices) (default percent).")
    var label: String?

    @Option(
        parsing: .unconditional,
        help: "The value that is 100 %, \(Push.range(Limits.ringMaximums)) (default 100), for pushes with a value.")
    var max: Double?

    @OptionGroup var reshape: ReshapeOption

    @OptionGroup var server: ServerOptions

    func run() throws {
        let request = try request()
        let connection = try server.connection()
        let ring = try connection.decode(BoardReading.Ring.self, from: connection.send(request))
        print("added ring \(ring.id) to board \(board) (\(ring.kind))")
    }

    /// `POST /api/v1/boards/BOARD/rings` with the ring's definition, checked.
    func request() throws(CommandFailure) -> APIRequest {
        let kindName = kind ?? RingKind.Name.plain.rawValue
        guard let kind = RingKind.Name(rawValue: kindName), kind.isRing else {
            let widget = DefinitionFlags.widgetKinds.contains(kindName) ? " (widgets are added with ringcast widget add)" : ""
            throw CommandFailure(
                "unknown --kind \"\(kindName)\"; use \(DefinitionFlags.ringKinds.joined(separator: ", "))\(widget)")
        }
        if self.sources != nil { try DefinitionFlags.check([("sources", "--sources")], for: kind) }
        let sources = self.sources.map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if kind == .derived {
            guard let sources else {
                throw CommandFailure("a derived ring needs --sources, the ring ids it averages, e.g. --sources build,tests")
            }
            if sources.contains("") {
                throw CommandFailure("--sources takes ring ids separated by commas, got \"\(self.sources ?? "")\"")
            }
        }
        try DefinitionFlags.check(title: title)
        try DefinitionFlags.check(max: max)
        let look = RingLook(
            colors: DefinitionFlags.colors(
                try colors.map { text throws(CommandFailure) in try ColorArgument.pair(text, flag: "--colors") }),
            label: try label.map { text throws(CommandFailure) in try LabelFormat(argument: text) },
            maximum: max,
            status: try DefinitionFlags.status(status))
        let ringKind: RingKind =
            switch kind {
            case .derived: .derived(DerivedRing(sources: sources ?? [], look: look))
            case .countdown: .countdown(CountdownRing(look: look))
            default: .plain(look)
            }
        return reshape.applied(
            to: try DefinitionFlags.request(board: board, ring: RingSpec(id: id, title: title, kind: ringKind), group: group))
    }
}
