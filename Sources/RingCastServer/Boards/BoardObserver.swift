/// Who must hear of a board's changes beyond the request that made them: the broadcaster, which
/// schedules the frames that show them.
protocol BoardObserver: AnyObject {
    /// A change was queued on `board` to start at `tick`.
    func changeAccepted(_ board: LiveBoard, at tick: Int64)
    /// The board's state was replaced (a failed write reverted).
    func stateReplaced(_ board: LiveBoard)
    /// The board is served from now on (created through the API, or back after the store refused
    /// its deletion).
    func boardAdded(_ board: LiveBoard)
    /// The board is no longer served (deleted through the API, or its creation refused by the
    /// store): its viewers are closed with 4404 and `reason`.
    func boardRemoved(_ board: LiveBoard, reason: String)
}
