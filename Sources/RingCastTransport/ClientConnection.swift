/// One outgoing WebSocket connection and what it owes its listener. Client service thread only.
final class ClientConnection {
    let id: WebSocketConnectionID
    let onEvent: @Sendable (WebSocketConnectionID, WebSocketEvent) -> Void
    /// Set once lws hands the connection back (NULL-checked by lws until ESTABLISHED).
    var wsi: OpaquePointer?
    var isOpen = false
    var closeRequested = false
    /// The code from the server's close frame, if it sent one first.
    var peerCloseCode: Int?
    /// Fragments of the message being received.
    var incoming: [UInt8] = []
    var incomingIsBinary = false
    var isInsideMessage = false
    var outgoing: [(binary: Bool, bytes: [UInt8])] = []

    init(id: WebSocketConnectionID, onEvent: @escaping @Sendable (WebSocketConnectionID, WebSocketEvent) -> Void) {
        self.id = id
        self.onEvent = onEvent
    }
}

@available(*, unavailable)
extension ClientConnection: Sendable {}
