import ArgumentParser
import RingCastCore

/// `ringcast board set`: a board's title, background or staleAfter, without touching any ring's values.
struct SetBoard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change a board's title, background or stale time; rings and their values stay.",
        discussion: """
            Sends PATCH /api/v1/boards/NAME with the options given, at least one of them. The \
            background animates to the new colour as PUT …/background does; --stale-after none \
            removes the board's stale time.

            Examples:
              ringcast board set ci --title 'CI pipeline'
              ringcast board set launch --background '#101020' --stale-after 600
              ringcast board set nightly --stale-after none
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var name: String

    @Option(help: "Shown in the board list and the page's title, 1 to 64 characters.")
    var title: String?

    @Option(help: "Background colour: '#rrggbb' or '#rrggbbaa'.")
    var background: String?

    @Option(
        parsing: .unconditional,
        help: "Seconds without a write before the board shows stale, 1 to 604800 (a week), or none to remove it.")
    var staleAfter: String?

    @OptionGroup var server: ServerOptions

    func run() throws {
        let request = try request()
        let connection = try server.connection()
        _ = try connection.send(request)
        print("changed board \(name)")
    }

    /// `PATCH /api/v1/boards/NAME` with the given keys, checked by the server's own decoder of the body; the minimal
    /// answer is all it needs.
    func request() throws(CommandFailure) -> APIRequest {
        guard title != nil || background != nil || staleAfter != nil else {
            throw CommandFailure("nothing to change: give --title, --background or --stale-after")
        }
        try DefinitionFlags.check(title: title)
        let background = try background.map { text throws(CommandFailure) in
            try ColorArgument.color(text, flag: "--background")
        }
        let body = BoardSettings(title: title, background: background, staleAfter: try staleAfterValue())
        return try APIRequest("PATCH", ["boards", name], json: body, checkedAs: BoardPatch.self).minimal
    }

    /// `--stale-after`: nil when not given, `.some(nil)` for `none`, else the checked seconds.
    private func staleAfterValue() throws(CommandFailure) -> Int?? {
        guard let staleAfter else { return nil }
        if staleAfter == "none" { return .some(nil) }
        guard let seconds = Int(staleAfter) else {
            throw CommandFailure(
                "--stale-after takes whole seconds from 1 to 604800 (a week), or none to remove it, got \"\(staleAfter)\"")
        }
        do {
            try Limits.check(staleAfter: seconds, field: nil)
        } catch {
            throw CommandFailure("--stale-after: \(error.message)")
        }
        return .some(seconds)
    }
}

/// The body of `PATCH /api/v1/boards/{board}` as `ringcast board set` sends it: only the keys given, and
/// `"staleAfter":null` to remove the board's stale time.
struct BoardSettings: Encodable {
    var title: String?
    var background: String?
    var staleAfter: Int??

    private enum CodingKeys: String, CodingKey { case title, background, staleAfter }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(background, forKey: .background)
        switch staleAfter {
        case .none: break
        case .some(.none): try container.encodeNil(forKey: .staleAfter)
        case .some(.some(let seconds)): try container.encode(seconds, forKey: .staleAfter)
        }
    }
}
