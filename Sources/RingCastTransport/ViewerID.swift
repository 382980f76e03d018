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
    /// `sequence` is the number of the published message the greeting shows (a keyframe of it):
    /// the viewer is then sent only newer ones, a delta if it is against that number. nil: the
    /// channel's newest.
    case accept(channel: any ChannelKey, greeting: [OutgoingMessage], sequence: UInt64? = nil)
    /// Do not upgrade: answer with this plain HTTP response and close the connection.
    case reject(HTTPResponse)
    /// Upgrade, send `message`, then close with `closeCode` and `reason`: a refusal for a client
    /// that asked to hear why in-band. A browser's WebSocket cannot read the status or body of a
    /// refused upgrade, only a message and a close code.
    case refuseAfterUpgrade(message: OutgoingMessage, closeCode: Int, reason: String)
}
