import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A server `ringcast` talks to: for `bench` an `http://` URL whose host is a loopback address
/// (the benchmark opens thousands of connections and pushes several times a second, so it refuses
/// to aim that at another machine); for `push` any host, resolved by name.
struct ServerAddress: Sendable, CustomStringConvertible {
    /// A numeric host, as lws and getaddrinfo take it (`localhost` becomes 127.0.0.1).
    let host: String
    let port: Int
    /// The Host header: the name as given, with the port.
    let authority: String
    /// The socket address, for connect(2).
    let family: Int32
    let socketAddress: [UInt8]

    /// Any host, looked up with getaddrinfo (the first address it gives is used).
    init(resolving name: String, port: Int) throws(BenchFailure) {
        (family, socketAddress, host) = try Self.lookUp(name, port: port, numericOnly: false)
        self.port = port
        authority = (name.contains(":") ? "[\(name)]" : name) + ":\(port)"
    }

    init(url text: String) throws(BenchFailure) {
        guard let url = URL(string: text), url.scheme == "http", let name = url.host, !name.isEmpty else {
            throw BenchFailure("--server must be an http:// URL such as http://127.0.0.1:8080, got \(text)")
        }
        guard url.path.isEmpty || url.path == "/", url.query == nil else {
            throw BenchFailure("--server takes only scheme, host and port, got \(text)")
        }
        let unbracketed = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        host = unbracketed == "localhost" ? "127.0.0.1" : unbracketed
        port = url.port ?? 80
        authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"

        guard let found = try? Self.lookUp(host, port: port, numericOnly: true) else {
            throw BenchFailure("--server host must be a loopback address (127.0.0.1, ::1 or localhost), got \(name)")
        }
        (family, socketAddress, _) = found
        guard Self.isLoopback(family: family, socketAddress) else {
            throw BenchFailure("--server host must be a loopback address (127.0.0.1, ::1 or localhost), got \(name)")
        }
    }

    var description: String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }

    /// getaddrinfo's first TCP address for `name`: family, socket address and numeric host.
    /// `numericOnly` refuses names (no DNS lookup).
    private static func lookUp(_ name: String, port: Int, numericOnly: Bool) throws(BenchFailure) -> (Int32, [UInt8], String) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, String(port), &hints, &found)
        guard status == 0, let first = found, let address = first.pointee.ai_addr else {
            throw BenchFailure("cannot resolve \(name): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        getnameinfo(address, first.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
        return (
            first.pointee.ai_family,
            Array(UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen))),
            String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        )
    }

    private static func isLoopback(family: Int32, _ address: [UInt8]) -> Bool {
        address.withUnsafeBytes { bytes in
            switch family {
            case AF_INET:
                // 127.0.0.0/8; s_addr is in network byte order, so its first byte is the 127.
                let ipv4 = bytes.loadUnaligned(as: sockaddr_in.self)
                return withUnsafeBytes(of: ipv4.sin_addr) { $0[0] } == 127
            case AF_INET6:
                let ipv6 = bytes.loadUnaligned(as: sockaddr_in6.self)
                return withUnsafeBytes(of: ipv6.sin6_addr) { Array($0) } == Array(repeating: 0, count: 15) + [1]
            default:
                return false
            }
        }
    }
}
