/// Who must hear of a board's changes beyond the request that made them: the broadcaster, which
/// schedules the frames that show them.
protocol BoardObserver: AnyObject {
    /// A change was queued on `board` to start at `tick`.
    func changeAccepted(_ board: LiveBoard, at tick: Int64)
    /// The board's state was replaced (a failed write reverted).
    func stateReplaced(_ board: LiveBoard)
}
