import ArgumentParser

/// `ringcast playlist`: set, show, list and delete playlists through the API.
struct PlaylistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist",
        abstract: "Set, show, list or delete playlists: boards every screen shows in turn, switching together.",
        discussion: """
            A playlist shows its boards in turn, SECONDS each, on every page open at /?playlist=NAME, \
            all switching on the same tick, through a splash of the next board's background.

            Examples:
              ringcast playlist set wall --boards ci,sales --seconds 30
              ringcast playlist set wall --boards ci,sales --seconds 30 --transition none
              ringcast playlist get wall
              ringcast playlist list
              ringcast playlist delete wall
            """,
        subcommands: [SetPlaylist.self, GetPlaylist.self, ListPlaylists.self, DeletePlaylist.self]
    )
}
