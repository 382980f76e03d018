#if canImport(Glibc)
    import Glibc
#endif

/// What lws should bind to for a configured host: lws's `iface` takes an interface name or a
/// numeric address, and an IPv4 address only works on an IPv4 socket.
struct ListenAddress {
    /// Numeric address for `iface`, nil for every interface.
    let numeric: String?
    let isIPv6: Bool

    init(host: String) throws(TransportError) {
        switch host {
        case "", "*", "0.0.0.0":
            self.init(numeric: nil, isIPv6: false)
        case "::", "[::]":
            self.init(numeric: nil, isIPv6: true)
        case "localhost":
            self.init(numeric: "127.0.0.1", isIPv6: false)
        default:
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            if Self.parses(bare, family: AF_INET) {
                self.init(numeric: bare, isIPv6: false)
            } else if Self.parses(bare, family: AF_INET6) {
                self.init(numeric: bare, isIPv6: true)
            } else if let resolved = Self.resolve(bare) {
                self = resolved
            } else {
                throw .invalidConfiguration("host \"\(host)\" is neither an IP address nor a name that resolves")
            }
        }
    }

    private init(numeric: String?, isIPv6: Bool) {
        self.numeric = numeric
        self.isIPv6 = isIPv6
    }

    private static func parses(_ text: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &buffer) == 1
    }

    /// The first address of `name`, IPv4 preferred.
    private static func resolve(_ name: String) -> ListenAddress? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var candidates: [ListenAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr, let text = numericText(address) {
                candidates.append(ListenAddress(numeric: text, isIPv6: address.pointee.sa_family == sa_family_t(AF_INET6)))
            }
            cursor = entry.pointee.ai_next
        }
        return candidates.first { !$0.isIPv6 } ?? candidates.first
    }

    private static func numericText(_ address: UnsafeMutablePointer<sockaddr>) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var value = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &value, &text, socklen_t(text.count)) != nil else { return nil }
        case AF_INET6:
            var value = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            guard inet_ntop(AF_INET6, &value, &text, socklen_t(text.count)) != nil else { return nil }
        default:
            return nil
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why binding to `port` fails, found by trying it ourselves (lws only logs the errno).
    func bindFailureReason(port: Int) -> String {
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if bind(fd, port: port) == 0 {
            return "libwebsockets could not open the listening socket (see its log)"
        }
        return Self.bindFailureReason(errno: errno)
    }

    /// Binds `fd` (a socket of this address's family) to this address and `port`; bind's result.
    func bind(_ fd: Int32, port: Int) -> Int32 {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            if let numeric { _ = inet_pton(AF_INET6, numeric, &address.sin6_addr) }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            if let numeric { _ = inet_pton(AF_INET, numeric, &address.sin_addr) }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// The words for a failed bind's errno, the same whoever tried.
    static func bindFailureReason(errno code: Int32) -> String {
        switch code {
        case EADDRINUSE: return "the port is already in use"
        case EADDRNOTAVAIL: return "this machine has no such address"
        case EACCES: return "permission denied (ports below 1024 need privileges)"
        default: return String(cString: strerror(code))
        }
    }
}
