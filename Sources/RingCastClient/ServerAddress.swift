import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a RingCast server listens, resolved once into the socket address connect(2) takes.
/// `ringcast push` and `get` reach any host by name; ringcast-bench takes numeric loopback
/// addresses only (`isLoopback`).
public struct ServerAddress: Sendable, CustomStringConvertible {
    /// A numeric host, as lws and getaddrinfo take it.
    public let host: String
    /// The host as given (a name or a numeric address): what https checks the certificate against.
    public let name: String
    public let port: Int
    /// The Host header: the name as given, with the port.
    public let authority: String
    /// The address family and socket address, for socket(2) and connect(2).
    public let family: Int32
    public let socketAddress: [UInt8]

    /// Any host, looked up with getaddrinfo (the first address it gives is used).
    public init(resolving name: String, port: Int) throws(ClientError) {
        (family, socketAddress, host) = try Self.lookUp(name, port: port, numericOnly: false)
        self.name = name
        self.port = port
        authority = (name.contains(":") ? "[\(name)]" : name) + ":\(port)"
    }

    /// A numeric IPv4 or IPv6 address, without a name lookup; a name throws `cannotResolve`.
    public init(numericHost: String, port: Int) throws(ClientError) {
        (family, socketAddress, host) = try Self.lookUp(numericHost, port: port, numericOnly: true)
        self.name = numericHost
        self.port = port
        authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    public var description: String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }

    /// Whether this is a loopback address: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        socketAddress.withUnsafeBytes { bytes in
            switch family {
            case AF_INET:
                // s_addr is in network byte order, so its first byte is the 127.
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

    /// getaddrinfo's first TCP address for `name`: family, socket address and numeric host.
    /// `numericOnly` refuses names (no DNS lookup).
    private static func lookUp(_ name: String, port: Int, numericOnly: Bool) throws(ClientError) -> (Int32, [UInt8], String) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, String(port), &hints, &found)
        guard status == 0, let first = found, let address = first.pointee.ai_addr else {
            throw .cannotResolve(host: name, reason: String(cString: gai_strerror(status)))
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
}
