internal import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Reads an `HTTPRequest` out of the header table lws keeps while a request is being handled
/// (in `LWS_CALLBACK_HTTP` and `LWS_CALLBACK_FILTER_*`; lws frees it afterwards).
/// Service thread only.
enum RequestReader {
    /// The method and the path lws already percent-decoded and normalised, or nil when lws
    /// cannot tell (no header table).
    static func methodAndPath(of wsi: OpaquePointer) -> (method: String, path: String)? {
        var uri: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        let index = lws_http_get_uri_and_method(wsi, &uri, &length)
        guard index >= 0, let uri else { return nil }
        let path = String(decoding: UnsafeRawBufferPointer(start: uri, count: Int(length)), as: UTF8.self)
        let method: String
        switch Int(index) {
        case LWSHUMETH_GET: method = "GET"
        case LWSHUMETH_POST: method = "POST"
        case LWSHUMETH_OPTIONS: method = "OPTIONS"
        case LWSHUMETH_PUT: method = "PUT"
        case LWSHUMETH_PATCH: method = "PATCH"
        case LWSHUMETH_DELETE: method = "DELETE"
        case LWSHUMETH_CONNECT: method = "CONNECT"
        case LWSHUMETH_HEAD: method = "HEAD"
        default: method = header(WSI_TOKEN_HTTP_COLON_METHOD, of: wsi)?.uppercased() ?? "GET"  // HTTP/2
        }
        return (method, path)
    }

    static func request(of wsi: OpaquePointer, customHeaderNames: [String]) -> HTTPRequest? {
        guard let (method, path) = methodAndPath(of: wsi) else { return nil }
        return HTTPRequest(
            method: method,
            path: path,
            query: query(of: wsi),
            headers: headers(of: wsi, customHeaderNames: customHeaderNames),
            peer: peer(of: wsi)
        )
    }

    /// lws stores each `name=value` argument decoded, as one fragment of the URI_ARGS token.
    static func query(of wsi: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        var index: Int32 = 0
        while true {
            let length = Int(lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, index))
            var buffer = [CChar](repeating: 0, count: length + 1)
            let copied = lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, index)
            guard copied >= 0 else { break }
            let argument = String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !argument.isEmpty {
                let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                if result[name] == nil {
                    result[name] = parts.count > 1 ? String(parts[1]) : ""
                }
            }
            index += 1
        }
        return result
    }

    /// Every real header lws parsed by name (its token strings end in ":"; method, URI and HTTP/2
    /// pseudo-header tokens do not), plus the listed custom headers.
    static func headers(of wsi: OpaquePointer, customHeaderNames: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for raw in 0..<WSI_TOKEN_COUNT.rawValue {
            let token = lws_token_indexes(rawValue: raw)
            guard lws_hdr_total_length(wsi, token) > 0, let name = headerName(of: token) else { continue }
            // Empty: a value lws stores but we blanked (an ignored `Upgrade: h2c`).
            if let value = header(token, of: wsi), !value.isEmpty {
                result[name] = value
            }
        }
        for name in customHeaderNames {
            let key = Array((name + ":").utf8CString)
            let length = key.withUnsafeBufferPointer { lws_hdr_custom_length(wsi, $0.baseAddress, Int32($0.count - 1)) }
            guard length >= 0 else { continue }
            var buffer = [CChar](repeating: 0, count: Int(length) + 1)
            let copied = key.withUnsafeBufferPointer {
                lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), $0.baseAddress, Int32($0.count - 1))
            }
            guard copied >= 0 else { continue }
            result[name] = trimmed(buffer.prefix(Int(copied)))
        }
        return result
    }

    /// The value of one known header, all its occurrences joined as lws joins them.
    static func header(_ token: lws_token_indexes, of wsi: OpaquePointer) -> String? {
        let total = Int(lws_hdr_total_length(wsi, token))
        guard total > 0 else { return nil }
        // lws_hdr_copy adds a separator between repeated headers; leave room for them.
        var buffer = [CChar](repeating: 0, count: total * 2 + 16)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return trimmed(buffer.prefix { $0 != 0 })
    }

    /// The client address as text; IPv4 peers of a dual-stack socket lose their "::ffff:" prefix.
    static func peer(of wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasPrefix("::ffff:") && text.contains(".") ? String(text.dropFirst(7)) : text
    }

    /// Lowercase header name for a token whose lws string is "name:", nil for the others.
    static func headerName(of token: lws_token_indexes) -> String? {
        guard let string = lws_token_to_string(token) else { return nil }
        let name = String(cString: string)
        guard name.hasSuffix(":"), !name.hasPrefix(":"), name.count > 1 else { return nil }
        return String(name.dropLast())
    }

    private static func trimmed(_ characters: some Collection<CChar>) -> String {
        let text = String(decoding: characters.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.trimmingWhitespace()
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (Foundation-free).
    func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
