/// The `event` message: something that happened on a board on one tick, sent once to each viewer watching
/// then (never to viewers that join later), just before the frame of that tick (docs/PROTOCOL.md). The only
/// event is `countdownEnded`: a countdown ring reached 0 (DESIGN §12).
public struct BoardEvent: Sendable, Equatable, Encodable {
    public enum Name: String, Sendable, Equatable, Encodable {
        case countdownEnded
    }

    public var event: Name
    public var board: String
    public var ring: String
    /// The tick, which is the `seq` of the frame that first shows it.
    public var seq: UInt64
    /// Milliseconds since the Unix epoch of that tick, as the frame's `t`.
    public var t: Double

    public init(event: Name, board: String, ring: String, seq: UInt64, t: Double) {
        self.event = event
        self.board = board
        self.ring = ring
        self.seq = seq
        self.t = t
    }

    /// The event of `end`, on the grid `animator` runs on.
    public init(_ end: CountdownEnd, on animator: Animator) {
        self.init(
            event: .countdownEnded, board: end.board, ring: end.ring, seq: UInt64(clamping: end.tick),
            t: animator.wallClockMilliseconds(at: end.tick))
    }

    private enum CodingKeys: String, CodingKey {
        case type, event, board, ring, seq, t
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("event", forKey: .type)
        try container.encode(event, forKey: .event)
        try container.encode(board, forKey: .board)
        try container.encode(ring, forKey: .ring)
        try container.encode(seq, forKey: .seq)
        try container.encode(t, forKey: .t)
    }
}
