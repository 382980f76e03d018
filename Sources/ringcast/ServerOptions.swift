import ArgumentParser
import Foundation

/// `--server` and `--token`: which server the client commands (`push`, `get`) talk to, and as whom.
struct ServerOptions: ParsableArguments {
    @Option(help: "Server URL, plain http:// (default: $RINGCAST_URL or http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "Token sent as Authorization: Bearer; writes need the write token (default: $RINGCAST_TOKEN).")
    var token: String?

    /// Refuses a URL that is not plain `http://` before the command runs.
    func validate() throws {
        _ = try url(environment: ProcessInfo.processInfo.environment)
    }

    /// The server these options name, with `environment` filling in what they leave out; resolves
    /// its host (`CommandFailure` when that fails).
    func connection(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerConnection {
        let (base, url) = try url(environment: environment)
        return try ServerConnection(
            url: base,
            host: (url.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]")),
            port: url.port ?? 80,
            // A reverse proxy's prefix, e.g. /ringcast in http://host/ringcast/.
            pathPrefix: url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path,
            token: token ?? environment["RINGCAST_TOKEN"]
        )
    }

    /// `--server`, else `RINGCAST_URL`, else the default: as given, and parsed.
    private func url(environment: [String: String]) throws(ValidationError) -> (String, URL) {
        let base = server ?? environment["RINGCAST_URL"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: base), let scheme = url.scheme, let host = url.host, !host.isEmpty, url.query == nil
        else {
            throw ValidationError("--server must be an http:// URL such as http://127.0.0.1:8080, got \(base)")
        }
        guard scheme == "http" else {
            throw ValidationError(
                "--server: ringcast speaks plain HTTP, as ringcast serve does; got \(base) (for an https proxy, use curl)")
        }
        return (base, url)
    }
}
