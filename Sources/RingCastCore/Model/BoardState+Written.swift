extension BoardState {
    /// `{"board":TICK,"rings":{"move":TICK}}`: the ticks (on the state's `fps` grid) of the newest write to the
    /// board and to each ring it touched (`Freshness`). A board never written has no `board`; a ring never
    /// written no entry.
    public struct Written: Codable, Sendable, Equatable {
        public var board: Int64?
        public var rings: [String: Int64]

        public init(board: Int64? = nil, rings: [String: Int64] = [:]) {
            self.board = board
            self.rings = rings
        }
    }
}
