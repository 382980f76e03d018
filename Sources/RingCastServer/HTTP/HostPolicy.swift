import RingCastCore
import RingCastTransport

#if canImport(Glibc)
    import Glibc
#endif

/// Which names the server answers to, from the `Host` header of every REST request and viewer upgrade: the
/// defence against DNS rebinding. A page on `http://evil.example:8080` whose name the attacker points at
/// 127.0.0.1 is same-origin with everything "evil.example:8080" answers, so a browser lets it write and read
/// the server's API and stream; the only trace is the `Host` header, which says "evil.example:8080". A request
/// whose Host is not allowed is answered 421 `host_not_allowed` before anything else, and changes nothing.
///
/// Allowed, always: `localhost`, and any IP address (`127.0.0.1`, `[::1]`, `192.168.1.20`): a rebinding page
/// reaches the server only under a DNS name, so an address in `Host` means the browser was pointed at the
/// address itself. Then the names of `allowedHosts` (`rings.example.com`, or `rings.example.com:8443` for that
/// port only; a Host without a port means 80, or 443 when the server serves TLS); without the setting, the
/// bind address and the machine's host name (`gethostname`). `["*"]` allows every Host.
///
/// A request without a Host passes: the transport answers HTTP/1.1 without one 400 itself, and an HTTP/1.0
/// client that sends none is not a browser (every browser sends Host). Static files (the page) are not
/// checked: they hold nothing the public repository does not, and the page's stream and API calls are.
struct HostPolicy: Sendable, CustomStringConvertible {
    /// The names allowed besides `localhost` and IP addresses; nil for every host (`["*"]`).
    let names: [Authority]?
    /// The port of a Host that names none.
    let defaultPort: Int

    /// The policy of `configuration`; `machineName` is the host name the default list takes.
    init(configuration: RingCastConfiguration, machineName: String? = Self.machineName()) {
        defaultPort = configuration.tlsCertificate == nil ? 80 : 443
        guard let configured = configuration.allowedHosts else {
            names = [configuration.host, machineName].compactMap { $0.flatMap(Self.entry) }
            return
        }
        names = configured == ["*"] ? nil : configured.compactMap(Self.entry)
    }

    /// Throws 421 `host_not_allowed` for a Host the server does not answer to.
    func check(_ request: HTTPRequest) throws(APIError) {
        guard let header = request.headers["host"], !allows(header) else { return }
        throw APIError(
            status: 421, code: "host_not_allowed",
            message:
                "this server does not answer to the name \(Self.quoted(header)); if it should, add it to allowedHosts "
                + "(a page under a name the server does not know may be a DNS-rebinding attack)",
            field: "Host")
    }

    /// Whether a request with `Host: header` is answered.
    func allows(_ header: String) -> Bool {
        guard let names else { return true }
        guard let authority = Authority(header) else { return false }
        if authority.isAddress || authority.host == "localhost" { return true }
        return names.contains { name in
            name.host == authority.host && (name.port == nil || name.port == (authority.port ?? defaultPort))
        }
    }

    /// An `allowedHosts` entry read: a name or address, optionally with a port, or an IPv6 address without
    /// brackets (`::1`); nil when it is none of these (a URL, a path, a space, a name outside ASCII).
    static func entry(_ text: String) -> Authority? {
        if Authority.isIPv6(text) { return Authority(host: "[\(text.lowercased())]", port: nil) }
        guard let authority = Authority(text), authority.isAddress || authority.isName else { return nil }
        return authority
    }

    /// The machine's host name, lowercased; nil when there is none.
    static func machineName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name.lowercased()
    }

    /// What the server answers to, for its log: `localhost, IP addresses, wallboard`.
    var description: String {
        guard let names else { return "every host name (allowedHosts [\"*\"])" }
        let listed = names.filter { !$0.isAddress && $0.host != "localhost" }.map(\.description)
        return (["localhost", "IP addresses"] + listed).joined(separator: ", ")
    }

    /// A client's text for a message: quoted, and cut short.
    private static func quoted(_ text: String) -> String {
        "\"" + (text.count > 60 ? text.prefix(60) + "…" : text) + "\""
    }
}
