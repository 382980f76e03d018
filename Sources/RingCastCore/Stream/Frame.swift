/// One `frame` message: the picture of one board at one instant (contract: protocol-json.md).
public struct Frame: Sendable, Equatable, Encodable {
    public var board: String
    /// Per-board sequence number.
    public var seq: UInt64
    /// Server wall-clock time the frame was computed for, milliseconds since the Unix epoch.
    public var t: Double
    public var rings: [RingFrame]
    public var background: BackgroundFrame

    public init(board: String, seq: UInt64, t: Double, rings: [RingFrame], background: BackgroundFrame) {
        self.board = board
        self.seq = seq
        self.t = t
        self.rings = rings
        self.background = background
    }

    private enum CodingKeys: String, CodingKey {
        case type, board, seq, t, rings, background
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("frame", forKey: .type)
        try container.encode(board, forKey: .board)
        try container.encode(seq, forKey: .seq)
        try container.encode(t, forKey: .t)
        try container.encode(rings, forKey: .rings)
        try container.encode(background, forKey: .background)
    }
}
