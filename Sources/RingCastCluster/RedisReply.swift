/// One Redis reply, copied out of hiredis's reply tree (so it outlives `freeReplyObject`).
///
/// hiredis 0.14 reports both a nil bulk string and a nil array as `REDIS_REPLY_NIL`, so a missing
/// value is always `.nil` and `.bulk`/`.array` always carry a value.
public enum RedisReply: Sendable, Equatable, CustomStringConvertible {
    /// A status reply such as "OK" or "QUEUED".
    case status(String)
    /// An error reply, kept as a value only inside arrays (EXEC, script results); a top-level
    /// error reply is thrown as `RedisError.server`.
    case error(String)
    case integer(Int64)
    /// A bulk string: binary-safe bytes.
    case bulk([UInt8])
    case array([RedisReply])
    case `nil`

    /// The bytes of a bulk or status reply.
    public var bytes: [UInt8]? {
        switch self {
        case .bulk(let bytes): bytes
        case .status(let text): Array(text.utf8)
        default: nil
        }
    }

    /// A bulk or status reply as UTF-8 text (invalid sequences repaired).
    public var string: String? {
        switch self {
        case .bulk(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        default: nil
        }
    }

    /// An integer reply, or a bulk string holding a decimal integer (as HGET returns counters).
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .bulk(let bytes): Int64(String(decoding: bytes, as: UTF8.self))
        default: nil
        }
    }

    public var array: [RedisReply]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    public var isNil: Bool { self == .nil }

    public var errorMessage: String? {
        if case .error(let message) = self { message } else { nil }
    }

    public var description: String {
        switch self {
        case .status(let text): "status(\(text))"
        case .error(let text): "error(\(text))"
        case .integer(let value): "integer(\(value))"
        case .bulk(let bytes): "bulk(\(bytes.count) bytes: \(String(decoding: bytes.prefix(64), as: UTF8.self).debugDescription))"
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .nil: "nil"
        }
    }
}
