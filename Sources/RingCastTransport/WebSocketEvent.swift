/// What a `WebSocketClient` connection reports, in order: `open`, then messages, then exactly one
/// of `closed` or `failed` (or only `failed`, when it never opened).
public enum WebSocketEvent: Sendable {
    case open
    /// One whole message (fragments reassembled).
    case text([UInt8])
    case binary([UInt8])
    /// The connection ended. `code` is the close code the server sent when it started the close
    /// handshake; nil when it ended without one, or when this client started the close.
    case closed(code: Int?)
    /// The connection could not be opened (refused, or the server answered the upgrade with an
    /// HTTP status instead of 101, e.g. "HTTP 404: …").
    case failed(String)
}

/// Names one connection of a `WebSocketClient`.
public struct WebSocketConnectionID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt64

    public var description: String { "connection-\(rawValue)" }
}
