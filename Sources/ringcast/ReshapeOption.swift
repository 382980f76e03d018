import ArgumentParser
import Foundation

/// `--force` of the commands that reshape a board (a ring or widget added or deleted, a board replaced). The server
/// refuses to reshape a board its configuration defines without it (409, `?force=true` otherwise): the board would
/// no longer follow the configuration until `ringcast board reset NAME`.
struct ReshapeOption: ParsableArguments {
    @Flag(help: "Do it even on a board the server's configuration defines (until ringcast board reset NAME).")
    var force = false

    /// `request` with `?force=true` when `--force` was given.
    func applied(to request: APIRequest) -> APIRequest {
        guard force else { return request }
        var request = request
        request.query.append(URLQueryItem(name: "force", value: "true"))
        return request
    }
}
