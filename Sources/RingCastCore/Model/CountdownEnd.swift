/// One countdown ring reaching 0 on a tick (DESIGN §12): the event viewers of the board are sent once, and
/// the ring's webhook, if it has one, is POSTed once. Each cycle of a restarting countdown ends once.
public struct CountdownEnd: Sendable, Hashable {
    public var board: String
    public var ring: String
    /// The tick of the first frame that shows the end (`seq` of that frame).
    public var tick: Int64
    /// The ring's webhook URL, if it has one.
    public var webhook: String?

    public init(board: String, ring: String, tick: Int64, webhook: String? = nil) {
        self.board = board
        self.ring = ring
        self.tick = tick
        self.webhook = webhook
    }
}
