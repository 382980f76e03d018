import RingCastTransport

/// A write's answer as Redis keeps it for replays of its Idempotency-Key, so that any node answers a retry
/// exactly as the first node did: the status on the first line, then one `name: value` line per header, an
/// empty line, and the body.
enum ClusterAnswer {
    static func encode(_ response: HTTPResponse) -> [UInt8] {
        var text = "\(response.status)\n"
        for header in response.headers {
            text += "\(header.name): \(header.value)\n"
        }
        text += "\n"
        return Array(text.utf8) + response.body
    }

    /// The answer `encode` made, or nil for other bytes.
    static func decode(_ bytes: [UInt8]) -> HTTPResponse? {
        var lines: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                let line = String(decoding: bytes[start..<index], as: UTF8.self)
                start = index + 1
                if line.isEmpty {
                    guard let status = lines.first.flatMap({ Int($0) }) else { return nil }
                    var headers: [(name: String, value: String)] = []
                    for line in lines.dropFirst() {
                        guard let colon = line.firstIndex(of: ":") else { return nil }
                        headers.append(
                            (name: String(line[..<colon]), value: String(line[line.index(after: colon)...].dropFirst())))
                    }
                    return HTTPResponse(status: status, headers: headers, body: Array(bytes[start...]))
                }
                lines.append(line)
            }
            index += 1
        }
        return nil
    }

    /// `ClusterUpdate.digest`'s 16 hex digits as the 8 bytes Redis's stream and channel carry.
    static func digestBytes(_ digest: String) -> [UInt8] {
        let value = UInt64(digest, radix: 16) ?? 0
        return (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
