#if canImport(Glibc)
    import Glibc
#endif

/// `host[:port]` as a `Host` header, an origin or an `allowedHosts` entry writes it: the host lowercased and
/// without a trailing dot (`LocalHost.` is `localhost`), an IPv6 literal in brackets.
struct Authority: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int?

    init?(_ text: some StringProtocol) {
        var text = text.lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[...close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return }
            guard rest.hasPrefix(":"), let port = Self.port(rest.dropFirst()) else { return nil }
            self.port = port
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let first = parts.first, !first.isEmpty else { return nil }
            if parts.count == 2 {
                guard let port = Self.port(parts[1]) else { return nil }
                self.port = port
            }
            text = String(first)
            if text.hasSuffix("."), text.count > 1 { text.removeLast() }
            host = text
        }
    }

    init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }

    /// Whether the host is an IP address: four decimal octets (as a browser writes any IPv4 address), or an
    /// IPv6 address in brackets.
    var isAddress: Bool {
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return false }
            return Self.isIPv6(host.dropFirst().dropLast())
        }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4
            && octets.allSatisfy { octet in
                (1...3).contains(octet.count) && octet.allSatisfy(\.isASCIIDigit) && (octet == "0" || octet.first != "0")
                    && Int(octet)! <= 255
            }
    }

    /// Whether the host is a DNS name: labels of letters, digits, `-` and `_`, separated by dots.
    var isName: Bool {
        !host.isEmpty && host.utf8.count <= 253
            && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
                (1...63).contains(label.count)
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            }
    }

    /// Whether `text` is an IPv6 address (without brackets), as libc reads one.
    static func isIPv6(_ text: some StringProtocol) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, String(text), &address) == 1
    }

    /// A port, 1–65535, in decimal digits only (`Int` would take `+80`).
    private static func port(_ text: some StringProtocol) -> Int? {
        guard (1...5).contains(text.count), text.allSatisfy(\.isASCIIDigit), let port = Int(text), (1...65_535).contains(port)
        else { return nil }
        return port
    }

    var description: String {
        port.map { "\(host):\($0)" } ?? host
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
