import ArgumentParser
import Foundation
import RingCastClient

#if canImport(Glibc)
    import Glibc
#endif

/// `--server`, `--token` and `--cacert`: which server the client commands (`push`, `get`) talk to,
/// as whom, and whom they trust for https.
struct ServerOptions: ParsableArguments {
    @Option(help: "Server URL, http:// or https:// (default: $RINGCAST_URL or http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "Token sent as Authorization: Bearer; a write needs one that may write the board (default: $RINGCAST_TOKEN).")
    var token: String?

    @Option(help: "PEM CA certificates to trust for https (default: $RINGCAST_CACERT, else the system's store).")
    var cacert: String?

    /// Refuses a URL that is not `http://` or `https://` before the command runs.
    func validate() throws {
        _ = try url(environment: ProcessInfo.processInfo.environment)
    }

    /// The server these options name, with `environment` filling in what they leave out; resolves
    /// its host (`CommandFailure` when that fails).
    func connection(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerConnection {
        let (base, url) = try url(environment: environment)
        let secure = url.scheme == "https"
        if secure {
            // OpenSSL writes with write(2), which raises SIGPIPE when the server has gone.
            signal(SIGPIPE, SIG_IGN)
        }
        return try ServerConnection(
            url: base,
            host: (url.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]")),
            port: url.port ?? (secure ? 443 : 80),
            // A reverse proxy's prefix, e.g. /ringcast in http://host/ringcast/.
            pathPrefix: url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path,
            tls: secure ? TLSOptions(caFile: cacert ?? environment["RINGCAST_CACERT"]) : nil,
            token: token ?? environment["RINGCAST_TOKEN"],
            tokenSource: token != nil ? "--token" : "RINGCAST_TOKEN"
        )
    }

    /// `--server`, else `RINGCAST_URL`, else the default: as given, and parsed.
    private func url(environment: [String: String]) throws(ValidationError) -> (String, URL) {
        let base = server ?? environment["RINGCAST_URL"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: base), let scheme = url.scheme, let host = url.host, !host.isEmpty, url.query == nil
        else {
            throw ValidationError("--server must be an http:// or https:// URL such as http://127.0.0.1:8080, got \(base)")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ValidationError("--server must be an http:// or https:// URL, got \(base)")
        }
        if scheme == "http", cacert != nil {
            throw ValidationError("--cacert needs an https:// server, got \(base)")
        }
        return (base, url)
    }
}
