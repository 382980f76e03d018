import ArgumentParser

/// `ringcast playlist delete`.
struct DeletePlaylist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a playlist; pages showing it say it is gone.",
        discussion: "Sends DELETE /api/v1/playlists/NAME. Example: ringcast playlist delete wall"
    )

    @Argument(help: "Playlist name, e.g. wall.")
    var name: String

    @OptionGroup var server: ServerOptions

    func run() throws {
        _ = try server.connection().send(request())
        print("deleted playlist \(name)")
    }

    func request() -> APIRequest {
        APIRequest("DELETE", ["playlists", name])
    }
}
