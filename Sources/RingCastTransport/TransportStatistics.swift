/// Running totals of what the transport sent to viewers since the server started.
public struct TransportStatistics: Sendable, Equatable {
    /// WebSocket messages written to viewers (greetings included).
    public var messagesSent: UInt64 = 0
    /// Payload bytes of those messages.
    public var bytesSent: UInt64 = 0
    /// Published messages a slow viewer never got because a newer one replaced them (latest wins).
    public var messagesSkipped: UInt64 = 0
    /// Viewers admitted since start.
    public var viewersAdmitted: UInt64 = 0
    /// Viewers whose connection ended while a write was still pending: dropped by the stall
    /// timeout, or gone while they were not reading.
    public var viewersClosedWhileStalled: UInt64 = 0
    /// Times a viewer was held back because its peer's window had no room for its next message
    /// (it stopped reading, or reads slower than the frames come: `SendPacing`).
    public var viewersHeld: UInt64 = 0

    public init() {}
}
