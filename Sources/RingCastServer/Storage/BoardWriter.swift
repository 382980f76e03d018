import Logging
import RingCastCore
import RingCastStorage

/// The last steps of every write: the change is queued on its board's animator (it starts at the
/// next tick), handed to the store, and reported once the store's batch holding it is durable.
/// Ticks and other requests never wait for the disk. A write the store could not commit is
/// reported as 503 and its board reverts to the last committed state; until a probe commits again
/// (once a second) writes are refused and /readyz answers 503.
///
/// Touched only on the service thread.
final class BoardWriter {
    private let store: any BoardStore
    private let boards: Boards
    private let clock: TickClock
    /// The way back to the service thread: the event loop's inbox, set once it exists.
    var queue: (any ServiceQueue)?
    private let logger: Logger
    private let metrics: ServerMetrics
    /// Told of every accepted change and revert (the broadcaster); nil in process tests.
    weak var observer: (any BoardObserver)?
    /// Why the store cannot commit, from a failed commit until a probe commits again.
    private(set) var problem: String?
    private var probing = false
    /// Writes handed to the store, by id, until their batch is durable (or failed).
    private var pending: [UInt64: PendingWrite] = [:]
    private var nextID: UInt64 = 0

    init(
        store: any BoardStore, boards: Boards, clock: TickClock, queue: (any ServiceQueue)?, metrics: ServerMetrics,
        logger: Logger
    ) {
        self.store = store
        self.boards = boards
        self.clock = clock
        self.queue = queue
        self.metrics = metrics
        self.logger = logger
    }

    /// False while the store cannot commit.
    var isHealthy: Bool { problem == nil }

    /// The figures of the store, for /metrics.
    var statistics: StorageStatistics { store.statistics }

    /// Checks `change` against `board` and queues it; `completion` is called on the service thread
    /// once it is durable (nil) or could not be stored (503, and the board reverted). Throws, with
    /// nothing changed, when the change does not fit the board (404 no such ring, 422 read-only or
    /// out of range) or, after that, when the store is failing (503).
    func apply(_ change: Animator.Change, to board: LiveBoard, completion: @escaping (APIError?) -> Void) throws(APIError) {
        var animator = board.animator
        let now = board.now(clock.currentTick())
        let start = try animator.accept(change, at: now + 1, now: now)
        guard let queue, problem == nil else { throw Self.unavailable(problem) }
        let state = animator.state
        board.animator = animator
        board.etag = boards.etag(revision: state.revision)
        observer?.changeAccepted(board, at: start)
        store(state, of: board, on: queue, completion: completion)
    }

    /// Hands `state` of `board` to the store; `finished` reports it back on the service thread.
    private func store(
        _ state: BoardState, of board: LiveBoard, on queue: any ServiceQueue, completion: @escaping (APIError?) -> Void
    ) {
        nextID += 1
        let id = nextID
        pending[id] = PendingWrite(board: board, state: state, completion: completion)
        let writer = ServiceThreadBound(value: self)
        // Encoded on the store's writer thread, and only if it is the board's newest in its batch.
        let record = StoredRecord(board: board.name, revision: state.revision) { (try? StateCodec.encode(state)) ?? [] }
        store.write([record]) { error in
            queue.async { writer.value.finished(id, error: error) }
        }
    }

    /// Creates a board with `spec` (`PUT /api/v1/boards/{board}` for a new name): served at once,
    /// its first state stored like every write; `completion` as for `apply`. If the store cannot
    /// commit it, the board goes away again. Throws 422 beyond `limits.maxBoards` and 503 while
    /// the store is failing, with nothing changed.
    func create(_ spec: BoardSpec, completion: @escaping (LiveBoard, APIError?) -> Void) throws(APIError) {
        guard problem == nil, queue != nil else { throw Self.unavailable(problem) }
        let (board, change) = try boards.create(spec, tick: clock.currentTick())
        observer?.boardAdded(board)
        do {
            try apply(change, to: board) { completion(board, $0) }
        } catch {
            boards.discard(board)
            observer?.boardRemoved(board, reason: "board could not be created")
            throw error
        }
    }

    /// Deletes `board` (`DELETE /api/v1/boards/{board}`): no longer served from now on, its
    /// viewers closed with 4404, and a tombstone stored so that it stays deleted across restarts,
    /// whatever the configuration says. If the store cannot commit it, the board is served again
    /// at its durable state. Throws 503 while the store is failing, with nothing changed.
    func delete(_ board: LiveBoard, completion: @escaping (APIError?) -> Void) throws(APIError) {
        guard let queue, problem == nil else { throw Self.unavailable(problem) }
        let revision = boards.delete(board)
        observer?.boardRemoved(board, reason: "board deleted")
        store(
            BoardState.tombstone(of: board.name, revision: revision, fps: board.animator.fps), of: board, on: queue,
            completion: completion)
    }

    private static func unavailable(_ problem: String?) -> APIError {
        .storageUnavailable("the store cannot commit writes right now (\(problem ?? "starting")); nothing was changed")
    }

    /// A write's batch was committed (or failed): report it, keep what is durable, or revert.
    private func finished(_ id: UInt64, error: StorageError?) {
        guard let write = pending.removeValue(forKey: id) else { return }
        let board = write.board
        let deletion = write.state.deleted == true
        guard let error else {
            if !deletion {
                board.durable = write.state
                board.isNew = false
            }
            metrics.pushed(board: board.name)
            write.completion(nil)
            return
        }
        logger.error("cannot store board \(board.name): \(error)")
        failed(error)
        if deletion {
            boards.reinstate(board, tick: clock.currentTick())
            observer?.boardAdded(board)
        } else if board.isNew {
            // A board whose creation is not durable is not served.
            if boards[board.name] === board {
                boards.discard(board)
                observer?.boardRemoved(board, reason: "board could not be stored")
            }
        } else {
            // Everything accepted since the last commit goes: the board shows what is durable.
            boards.revert(board, tick: clock.currentTick())
            observer?.stateReplaced(board)
        }
        write.completion(
            .storageUnavailable("the change could not be stored durably and was not applied (\(error.message))"))
    }

    private func failed(_ error: StorageError) {
        problem = error.message
        scheduleProbe()
    }

    private func scheduleProbe() {
        guard !probing, let queue else { return }
        probing = true
        let writer = ServiceThreadBound(value: self)
        queue.async(after: 1) { [store] in
            store.probe { error in
                queue.async { writer.value.probed(error) }
            }
        }
    }

    private func probed(_ error: StorageError?) {
        probing = false
        if let error {
            problem = error.message
            scheduleProbe()
        } else {
            logger.notice("the store commits again; accepting writes")
            problem = nil
        }
    }
}

@available(*, unavailable)
extension BoardWriter: Sendable {}

/// A write the store has not answered yet, and whom to tell once it has.
private struct PendingWrite {
    var board: LiveBoard
    /// The board's state with this write, durable once the store says so.
    var state: BoardState
    var completion: (APIError?) -> Void
}
