import ArgumentParser
import RingCastCore

/// `ringcast playlist set`.
struct SetPlaylist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Create a playlist, or replace the playlist of that name.",
        discussion: """
            Sends PUT /api/v1/playlists/NAME with {"boards":[…],"seconds":S,"transition":T}. The boards \
            (1 to 16, each served by the server) are shown in this order, --seconds whole seconds each \
            (1 to 86400). --transition: \(SetPlaylist.transitions.joined(separator: ", ")) (the \
            default), an angle in degrees (e.g. 45 or -30), or none to change board at once. A replacement \
            takes effect at the next whole second. Example: ringcast playlist set wall --boards ci,sales --seconds 30
            """
    )

    @Argument(help: "Playlist name, e.g. wall.")
    var name: String

    @Option(help: "The boards to show in turn, comma-separated, e.g. ci,sales.")
    var boards: String

    // The numbers are read `.unconditional`ly: a negative one (`--transition -30`) is a value, not an option.
    @Option(parsing: .unconditional, help: "Whole seconds each board is shown, 1 to 86400.")
    var seconds: Double

    @Option(
        parsing: .unconditional,
        help: """
            The splash between boards: \(SetPlaylist.transitions.joined(separator: ", ")), an angle in degrees \
            (e.g. 45), or none (default: circle).
            """)
    var transition: String?

    /// The named transitions `--transition` takes, as the API spells them (`SplashStyle`).
    static let transitions = ["leftToRight", "rightToLeft", "topToBottom", "bottomToTop", "circle"]

    @OptionGroup var server: ServerOptions

    func run() throws {
        let connection = try server.connection()
        let response = try connection.send(try request())
        let playlist = try connection.decode(PlaylistReading.self, from: response)
        print("\(response.status == 201 ? "created" : "replaced") playlist \(name): \(playlist.summary)")
    }

    /// `PUT /api/v1/playlists/NAME`, checked by the server's own decoder of the body.
    func request() throws(CommandFailure) -> APIRequest {
        let body = Body(
            boards: boards.split(separator: ",", omittingEmptySubsequences: false).map {
                String($0).trimmingCharacters(in: .whitespaces)
            },
            seconds: seconds,
            transition: try transition.map { text throws(CommandFailure) in try Self.transition(text) })
        return try APIRequest("PUT", ["playlists", name], json: body, checkedAs: PlaylistDefinition.self)
    }

    /// `--transition`'s argument: a number is an angle in degrees (the API's `{"angle":deg}`), else a name or
    /// `none`; another word is refused in the CLI's terms, not the API's JSON.
    private static func transition(_ text: String) throws(CommandFailure) -> Body.Transition {
        if let degrees = Double(text) { return .angle(degrees) }
        guard text == "none" || transitions.contains(text) else {
            throw CommandFailure(
                "unknown --transition \"\(text)\"; use \(transitions.joined(separator: ", ")), an angle in degrees "
                    + "(e.g. 45) or none")
        }
        return .name(text)
    }

    /// The body of `PUT …/playlists/NAME`.
    private struct Body: Encodable {
        enum Transition: Encodable {
            case name(String)
            case angle(Double)

            private enum AngleKeys: String, CodingKey { case angle }

            func encode(to encoder: any Encoder) throws {
                switch self {
                case .name(let name):
                    var container = encoder.singleValueContainer()
                    try container.encode(name)
                case .angle(let degrees):
                    var container = encoder.container(keyedBy: AngleKeys.self)
                    try container.encode(degrees, forKey: .angle)
                }
            }
        }

        var boards: [String]
        var seconds: Double
        var transition: Transition?
    }
}
