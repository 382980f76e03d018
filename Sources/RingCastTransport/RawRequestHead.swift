/// A request head parsed from raw bytes, for the requests lws's parser gives up on.
///
/// lws 4.1.6 knows GET, POST, OPTIONS, PUT, PATCH, DELETE, HEAD and CONNECT. On any other method
/// (TRACE, PROPFIND, a typo) it would answer its own HTML 403; with
/// `LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG` it instead hands the connection over
/// as a raw socket, with the bytes it was parsing. CONNECT arrives the same way once its head is
/// complete. Pure: no lws, no sockets.
struct RawRequestHead: Equatable {
    var method: String
    /// As sent: origin-form (`/path?query`), absolute-form (`http://host/path`), authority-form or `*`.
    var target: String
    var version: String
    /// Lowercase names; a repeated header's values joined with ", ".
    var headers: [String: String]

    enum Parse: Equatable {
        /// No blank line yet.
        case incomplete
        /// Not HTTP: the reason, for a 400.
        case malformed(String)
        case complete(RawRequestHead)
    }

    /// Parses the head at the start of `bytes` (what follows the blank line is ignored).
    static func parse(_ bytes: [UInt8]) -> Parse {
        guard let end = headEnd(in: bytes) else {
            // A request line already broken is worth saying so before the rest arrives.
            if let lineEnd = bytes.firstIndex(of: 10), case .malformed(let reason) = requestLine(bytes[..<lineEnd]) {
                return .malformed(reason)
            }
            return .incomplete
        }
        var lines = split(bytes[..<end])
        guard !lines.isEmpty else { return .malformed("the request is empty") }
        let first = lines.removeFirst()
        guard case .complete(var head) = requestLine(first) else {
            if case .malformed(let reason) = requestLine(first) { return .malformed(reason) }
            return .malformed("the request line is not method, target and version")
        }
        for line in lines {
            guard let colon = line.firstIndex(of: 58) else {  // ":"
                return .malformed("the header line \"\(text(line.prefix(40)))\" has no colon")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
                return .malformed("\"\(text(name.prefix(40)))\" is not a header name")
            }
            let value = line[line.index(after: colon)...]
            guard !value.contains(0) else { return .malformed("the \(text(name)) header contains a NUL byte") }
            let key = text(name).lowercased()
            let trimmed = text(value).trimmingWhitespace()
            head.headers[key] = head.headers[key].map { $0 + ", " + trimmed } ?? trimmed
        }
        return .complete(head)
    }

    /// The path and query a request in origin- or absolute-form names, decoded and normalised as
    /// lws does it (percent escapes, `+` as space, no `.`/`..` segments or repeated slashes); nil
    /// for other forms or a broken escape.
    var pathAndQuery: (path: String, query: [String: String])? {
        var rest = Substring(target)
        if !rest.hasPrefix("/") {
            // absolute-form: scheme "://" authority path
            guard let scheme = rest.indices.first(where: { rest[$0...].hasPrefix("://") }) else { return nil }
            rest = rest[rest.index(scheme, offsetBy: 3)...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let rawPath = Self.decoded(parts[0]) else { return nil }
        var segments: [Substring] = []
        for segment in rawPath.split(separator: "/") where segment != "." {
            if segment == ".." {
                _ = segments.popLast()
            } else {
                segments.append(segment)
            }
        }
        let path = "/" + segments.joined(separator: "/") + (rawPath.hasSuffix("/") && !segments.isEmpty ? "/" : "")
        var query: [String: String] = [:]
        if parts.count > 1 {
            for argument in parts[1].split(whereSeparator: { $0 == "&" || $0 == ";" }) {
                let pair = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = Self.decoded(pair[0]) else { return nil }
                guard let value = pair.count > 1 ? Self.decoded(pair[1]) : "" else { return nil }
                if query[name] == nil { query[name] = value }
            }
        }
        return (path, query)
    }

    // MARK: - Pieces

    private static func requestLine(_ line: ArraySlice<UInt8>) -> Parse {
        let trimmed = line.last == 13 ? line.dropLast() : line
        let parts = trimmed.split(separator: 32, omittingEmptySubsequences: false)  // " "
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .malformed("the request line is not method, target and version")
        }
        guard parts[0].allSatisfy(isTokenCharacter) else {
            return .malformed("\"\(text(parts[0].prefix(40)))\" is not a method")
        }
        guard parts[1].allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .malformed("the request target holds bytes a URL cannot")
        }
        return .complete(RawRequestHead(method: text(parts[0]), target: text(parts[1]), version: text(parts[2]), headers: [:]))
    }

    /// The index of the first byte of the blank line that ends the head ("\r\n\r\n" or "\n\n").
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 10 {
                if index + 1 < bytes.count, bytes[index + 1] == 10 { return index }
                if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 { return index }
            }
            index += 1
        }
        return nil
    }

    /// Lines without their CR LF (or bare LF).
    private static func split(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        head.split(separator: 10, omittingEmptySubsequences: false).map { $0.last == 13 ? $0.dropLast() : $0 }
    }

    /// RFC 9110 §5.6.2 tchar.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func text(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Percent-decoded (and `+` as space), or nil for a broken escape.
    private static func decoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"):
                bytes.append(32)
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
