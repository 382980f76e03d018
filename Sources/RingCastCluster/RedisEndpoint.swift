/// Where Redis is: `redis://HOST:PORT[/DB]`, the form of `--redis`, `cluster.redis` and
/// `RINGCAST_REDIS_URL`.
///
/// - HOST: a name, an IPv4 address, or an IPv6 address in brackets (`redis://[::1]:6379`).
/// - PORT: 1…65535, 6379 when left out (`redis://cache` or `redis://cache/2`).
/// - DB: 0…15 (Redis's default number of databases), 0 when left out; a trailing `/` alone is db 0.
///
/// Refused, each with its own message: other schemes (`rediss://` — TLS is not supported by this
/// client), credentials (`redis://user:pw@host`), query strings and fragments, an empty host, a
/// bad port and a db outside 0…15.
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var database: Int

    public static let defaultPort = 6379

    public init(host: String, port: Int = RedisEndpoint.defaultPort, database: Int = 0) {
        self.host = host
        self.port = port
        self.database = database
    }

    /// Parses `redis://HOST:PORT[/DB]`; the error names the URL and what is wrong with it.
    public init(url: String) throws(RedisError) {
        func fail(_ reason: String) -> RedisError { .invalidEndpoint(url: url, reason: reason) }
        let trimmed = url.trimmingWhitespace
        guard let schemeEnd = trimmed.firstRange(of: "://") else {
            throw fail("expected redis://HOST:PORT[/DB]")
        }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        if scheme == "rediss" { throw fail("TLS (rediss://) is not supported; use redis://") }
        guard scheme == "redis" else { throw fail("the scheme must be redis://, not \(scheme)://") }
        var rest = trimmed[schemeEnd.upperBound...]
        if rest.contains("?") || rest.contains("#") { throw fail("query strings and fragments are not supported") }
        if rest.contains("@") { throw fail("credentials in the URL are not supported") }

        var databaseText: Substring?
        if let slash = rest.firstIndex(of: "/") {
            databaseText = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }

        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("an IPv6 host needs a closing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("expected :PORT after the IPv6 host") }
                portText = after.dropFirst()
            }
        } else {
            if let colon = rest.firstIndex(of: ":") {
                host = rest[..<colon]
                portText = rest[rest.index(after: colon)...]
            } else {
                host = rest
            }
        }
        guard !host.isEmpty else { throw fail("the host is missing") }

        var port = Self.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value), portText.allSatisfy(\.isASCIIDigit) else {
                throw fail("the port must be a number from 1 to 65535, not \"\(portText)\"")
            }
            port = value
        }
        var database = 0
        if let databaseText, !databaseText.isEmpty {
            guard let value = Int(databaseText), (0...15).contains(value), databaseText.allSatisfy(\.isASCIIDigit) else {
                throw fail("the database must be a number from 0 to 15, not \"\(databaseText)\"")
            }
            database = value
        }
        self.init(host: String(host), port: port, database: database)
    }

    /// "host:port" (IPv6 in brackets), as errors and logs name the server.
    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The URL back, `redis://host:port/db` (always with port and db, so it parses to the same value).
    public var description: String { "redis://\(address)/\(database)" }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        var text = self[...]
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
