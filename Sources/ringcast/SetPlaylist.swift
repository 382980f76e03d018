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
            (1 to 86400). --transition: leftToRight, rightToLeft, topToBottom, bottomToTop, circle (the \
            default), an angle in degrees (e.g. 45), or none to change board at once. A replacement \
            takes effect at the next whole second. Example: ringcast playlist set wall --boards ci,sales --seconds 30
            """
    )

    @Argument(help: "Playlist name, e.g. wall.")
    var name: String

    @Option(help: "The boards to show in turn, comma-separated, e.g. ci,sales.")
    var boards: String

    @Option(help: "Whole seconds each board is shown, 1 to 86400.")
    var seconds: Double

    @Option(help: "The splash between boards: a style's name, an angle in degrees, or none (default: circle).")
    var transition: String?

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
            transition: transition.map { Double($0).map(Body.Transition.angle) ?? .name($0) })
        return try APIRequest("PUT", ["playlists", name], json: body, checkedAs: PlaylistDefinition.self)
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
