/// One applied write as the stream keeps it and as `rc:{BOARD}:updates` publishes it.
///
/// The published payload (`payload`, parsed back by `init(payload:)`) is one ASCII header line and
/// then the update's bytes, unchanged:
///
/// ```
/// RC1 <revision> <base> <tick> <digest-hex>\n<update bytes…>
/// ```
///
/// `RC1` names this format; `revision`, `base` and `tick` are decimal integers (`base` is the
/// revision the update applies to, always `revision - 1`; `tick` the grid tick it starts at);
/// `digest-hex` is the lowercase hex of the digest of the board's state after the update (empty
/// digest: nothing between the last space and the newline). Everything after the first `\n` is
/// the update, which may hold any byte.
public struct BoardUpdate: Sendable, Equatable {
    public var revision: Int64
    public var base: Int64
    public var tick: Int64
    public var digest: [UInt8]
    public var update: [UInt8]

    public init(revision: Int64, base: Int64, tick: Int64, digest: [UInt8], update: [UInt8]) {
        self.revision = revision
        self.base = base
        self.tick = tick
        self.digest = digest
        self.update = update
    }

    /// The published encoding (see the type's documentation).
    public var payload: [UInt8] {
        Array("RC1 \(revision) \(base) \(tick) \(Hex.encode(digest))\n".utf8) + update
    }

    /// Parses a published payload; `.unexpectedReply` names what is wrong.
    public init(payload: [UInt8]) throws(RedisError) {
        guard let newline = payload.firstIndex(of: UInt8(ascii: "\n")) else {
            throw RedisError.unexpectedReply("an update payload without a header line")
        }
        let header = String(decoding: payload[..<newline], as: UTF8.self)
        let fields = header.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0] == "RC1", let revision = Int64(fields[1]), let base = Int64(fields[2]),
            let tick = Int64(fields[3]), let digest = Hex.decode(fields[4])
        else {
            throw RedisError.unexpectedReply("an update payload with the header \"\(header)\"")
        }
        self.init(revision: revision, base: base, tick: tick, digest: digest, update: Array(payload[(newline + 1)...]))
    }
}

/// Lowercase hex, as digests are kept in Redis (readable in redis-cli, no separator in the header), and as the nodes
/// write them in their logs.
public enum Hex {
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
