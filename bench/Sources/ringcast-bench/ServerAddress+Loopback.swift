import Foundation
import RingCastClient

extension ServerAddress {
    /// The bench's `--server`: an `http://` URL whose host is a loopback address (`localhost`
    /// becomes 127.0.0.1). The bench opens thousands of connections and pushes several times a
    /// second, so it refuses to aim that at another machine.
    init(loopbackURL text: String) throws(BenchFailure) {
        guard let url = URL(string: text), url.scheme == "http", let name = url.host, !name.isEmpty else {
            throw BenchFailure("--server must be an http:// URL such as http://127.0.0.1:8080, got \(text)")
        }
        guard url.path.isEmpty || url.path == "/", url.query == nil else {
            throw BenchFailure("--server takes only scheme, host and port, got \(text)")
        }
        let unbracketed = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let host = unbracketed == "localhost" ? "127.0.0.1" : unbracketed
        guard let address = try? ServerAddress(numericHost: host, port: url.port ?? 80), address.isLoopback else {
            throw BenchFailure("--server host must be a loopback address (127.0.0.1, ::1 or localhost), got \(name)")
        }
        self = address
    }
}
