internal import CLibWebSockets

/// The checks on a request head that lws leaves to the application. Service thread only, while
/// lws holds the head (FILTER_HTTP_CONNECTION, HTTP_CONFIRM_UPGRADE).
///
/// lws stores a header it does not know by name without any way to list it (4.1.6 can only look
/// one up by name), so the size and NUL checks cover the headers lws knows and the configured
/// `customHeaderNames`; everything else only counts against lws's own buffer.
extension RequestReader {
    /// The first thing wrong with the head, or nil.
    static func problem(of wsi: OpaquePointer, configuration: TransportConfiguration) -> RequestProblem? {
        let limit = configuration.maxHeaderBytes
        let minorVersion: Int
        switch version(of: wsi) {
        case .missing:
            return RequestProblem(status: 400, message: "the request line has no HTTP version; send HTTP/1.1")
        case .malformed(let text):
            return RequestProblem(status: 400, message: "the request line ends in \"\(text)\", which is not an HTTP version")
        case .unsupported(let text):
            return RequestProblem(status: 505, message: "\(text) is not supported here; send HTTP/1.1")
        case .http1(let minor):
            minorVersion = minor
        }

        let target = targetLength(of: wsi)
        if target > limit {
            return RequestProblem(
                status: 414, message: "the request target is \(target) bytes after percent-decoding; the limit is \(limit)")
        }

        for raw in 0..<WSI_TOKEN_COUNT.rawValue {
            let token = lws_token_indexes(rawValue: raw)
            let total = Int(lws_hdr_total_length(wsi, token))
            guard total > 0, let name = headerName(of: token) else { continue }
            let nameBytes = name.utf8.count + 2  // "name: "
            if total + nameBytes > limit, let longest = longestLine(of: token, wsi: wsi), longest + nameBytes > limit {
                return RequestProblem(
                    status: 431, message: "the \(name) header is \(longest + nameBytes) bytes; the limit is \(limit)")
            }
            if let value = rawValue(of: token, wsi: wsi), value.contains(0) {
                return RequestProblem(status: 400, message: "the \(name) header contains a NUL byte")
            }
        }
        for name in configuration.customHeaderNames {
            guard let value = rawCustomValue(named: name, wsi: wsi) else { continue }
            let lineBytes = name.utf8.count + 2 + value.count
            if lineBytes > limit {
                return RequestProblem(status: 431, message: "the \(name) header is \(lineBytes) bytes; the limit is \(limit)")
            }
            if value.contains(0) {
                return RequestProblem(status: 400, message: "the \(name) header contains a NUL byte")
            }
        }

        // RFC 9112 §3.2: exactly one Host in an HTTP/1.1 request. (lws also reads a line without a
        // colon as the start of an unknown header's name, swallowing the next line: a Host after
        // such a line disappears, and this is how that request is answered.)
        if minorVersion >= 1 {
            if lws_hdr_total_length(wsi, WSI_TOKEN_HOST) == 0 {
                return RequestProblem(status: 400, message: "an HTTP/1.1 request needs a Host header")
            }
            if lws_hdr_fragment_length(wsi, WSI_TOKEN_HOST, 1) > 0 {
                return RequestProblem(status: 400, message: "the request has more than one Host header")
            }
        }
        return nil
    }

    enum Version: Equatable {
        case missing
        case malformed(String)
        case unsupported(String)
        case http1(minor: Int)
    }

    /// The version at the end of the request line (lws keeps it as the WSI_TOKEN_HTTP token).
    static func version(of wsi: OpaquePointer) -> Version {
        guard let bytes = rawValue(of: WSI_TOKEN_HTTP, wsi: wsi), !bytes.isEmpty else { return .missing }
        return version(String(decoding: bytes, as: UTF8.self))
    }

    /// "HTTP/1.1" and "HTTP/1.0" (any 1.x) are served; "HTTP/2.0" and the like are 505.
    static func version(_ text: String) -> Version {
        guard text.hasPrefix("HTTP/") else { return .malformed(text) }
        let numbers = text.dropFirst(5).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(numbers.count), numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            return .malformed(text)
        }
        guard numbers[0] == "1", numbers.count == 2, let minor = Int(numbers[1]) else { return .unsupported(text) }
        return .http1(minor: minor)
    }

    /// Path plus "?" and query as lws stored them (decoded, so at most the bytes on the wire).
    private static func targetLength(of wsi: OpaquePointer) -> Int {
        var uri: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        let path = lws_http_get_uri_and_method(wsi, &uri, &length) >= 0 ? Int(length) : 0
        let query = Int(lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS))
        return path + (query > 0 ? query + 1 : 0)
    }

    /// The longest of a header's lines (lws keeps a repeated header as one fragment per line).
    private static func longestLine(of token: lws_token_indexes, wsi: OpaquePointer) -> Int? {
        var longest: Int?
        var index: Int32 = 0
        while true {
            let length = Int(lws_hdr_fragment_length(wsi, token, index))
            guard length > 0 else { break }
            longest = max(longest ?? 0, length)
            index += 1
        }
        return longest
    }

    /// A known header's bytes as lws copies them. lws does not count a NUL in the length, and
    /// copies with `strncpy`, so a NUL shows up as a zero inside the returned length.
    static func rawValue(of token: lws_token_indexes, wsi: OpaquePointer) -> [UInt8]? {
        let total = Int(lws_hdr_total_length(wsi, token))
        guard total > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: total + 1)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }
    }

    /// A custom header's bytes (its length counts a NUL; `strncpy` turns what follows into zeros).
    private static func rawCustomValue(named name: String, wsi: OpaquePointer) -> [UInt8]? {
        let key = Array((name + ":").utf8CString)
        let length = key.withUnsafeBufferPointer { lws_hdr_custom_length(wsi, $0.baseAddress, Int32($0.count - 1)) }
        guard length >= 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        let copied = key.withUnsafeBufferPointer {
            lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), $0.baseAddress, Int32($0.count - 1))
        }
        guard copied >= 0 else { return nil }
        return buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
