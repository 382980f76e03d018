import Synchronization

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

extension TransportStatistics {
    /// Both sets of totals, added (a server of several loops sums its loops').
    public static func + (left: TransportStatistics, right: TransportStatistics) -> TransportStatistics {
        var sum = left
        sum.messagesSent += right.messagesSent
        sum.bytesSent += right.bytesSent
        sum.messagesSkipped += right.messagesSkipped
        sum.viewersAdmitted += right.viewersAdmitted
        sum.viewersClosedWhileStalled += right.viewersClosedWhileStalled
        sum.viewersHeld += right.viewersHeld
        return sum
    }
}

/// One loop's statistics as other threads may read them: the loop stores, the group loads. Thread-safe.
final class StatisticsSlot: Sendable {
    private let value = Mutex(TransportStatistics())

    func store(_ statistics: TransportStatistics) {
        value.withLock { $0 = statistics }
    }

    func load() -> TransportStatistics {
        value.withLock { $0 }
    }
}
