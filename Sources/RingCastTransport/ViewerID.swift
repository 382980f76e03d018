/// Names one WebSocket viewer for as long as its connection lives; never reused by a server.
public struct ViewerID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "viewer-\(rawValue)" }
}

/// The delegate's answer to a WebSocket upgrade.
public enum ViewerAdmission: Sendable {
    /// Upgrade, join `channel`, and send `greeting` first, in order, before any published message.
    case accept(channel: String, greeting: [OutgoingMessage])
    /// Do not upgrade: answer with this plain HTTP response and close the connection.
    case reject(HTTPResponse)
}
