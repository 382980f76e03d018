/// Everything the writer thread owns: the directory lock, the read-write connection and its
/// prepared statements, and whether the store is failing. It takes batches from the queue and
/// commits each as one transaction (group commit: one fsync however many writes piled up).
///
/// Created, used and released on the writer thread only.
final class StoreWriter {
    /// One board's last change within a transaction.
    private enum Change {
        case upsert(StoredRecord)
        case delete(String)
    }

    private struct Statements {
        let begin: SQLiteStatement
        let commit: SQLiteStatement
        let rollback: SQLiteStatement
        let upsert: SQLiteStatement
        let delete: SQLiteStatement
        let probe: SQLiteStatement

        init(_ connection: SQLiteConnection) throws(StorageError) {
            // IMMEDIATE takes the write lock at BEGIN, so nothing can fail with SQLITE_BUSY halfway.
            begin = try connection.prepare("BEGIN IMMEDIATE")
            commit = try connection.prepare("COMMIT")
            rollback = try connection.prepare("ROLLBACK")
            upsert = try connection.prepare(StoreSchema.upsertBoard)
            delete = try connection.prepare(StoreSchema.deleteBoard)
            probe = try connection.prepare(StoreSchema.countProbe)
        }

        /// Before the connection closes (SQLite closes a connection only once its statements are gone).
        func finalize() {
            for statement in [begin, commit, rollback, upsert, delete, probe] { statement.finalize() }
        }
    }

    private let queue: WriteQueue
    private let lock: DirectoryLock
    private let connection: SQLiteConnection
    private let statements: Statements
    /// The error of the last failed commit or probe. While set, writes fail with it untried.
    private var failure: StorageError?
    /// SQLite's own limit, restored when a test lifts its `maxPageCount`.
    private let defaultMaxPageCount: Int
    private var maxPageCount: Int?

    /// Takes the directory lock, opens (creating if needed) the database, prepares the schema
    /// and the statements. Anything that fails releases what was taken so far.
    init(directory: DataDirectory, queue: WriteQueue, maxPageCount: Int?) throws(StorageError) {
        self.queue = queue
        lock = try DirectoryLock(directory: directory)
        connection = try SQLiteConnection(path: directory.file(SQLiteStore.fileName), mode: .readWrite)
        try StoreSchema.prepare(connection)
        statements = try Statements(connection)
        let limit = try connection.queryText("PRAGMA max_page_count")
        defaultMaxPageCount = limit.flatMap { Int($0) } ?? Int(Int32.max)
        try applyMaxPageCount(maxPageCount)
    }

    /// The writer thread's loop: returns when the store is closed and the queue drained, with
    /// the database closed and the lock released.
    func run() {
        while let batch = queue.nextBatch() {
            if batch.maxPageCount != maxPageCount {
                try? applyMaxPageCount(batch.maxPageCount)
            }
            process(batch.jobs)
        }
        statements.finalize()
        connection.close()
        lock.release()
    }

    /// Commits the batch's writes and deletes in one transaction and then runs their completions
    /// in queue order. A probe splits the batch: what came before it commits first, so queue
    /// order decides which writes fail with the old error and which go through after recovery.
    private func process(_ jobs: [WriteQueue.Job]) {
        var pending: [WriteQueue.Job] = []
        for job in jobs {
            if case .probe(let completion) = job {
                flush(pending)
                pending.removeAll()
                completion(probe())
            } else {
                pending.append(job)
            }
        }
        flush(pending)
    }

    private func flush(_ jobs: [WriteQueue.Job]) {
        guard !jobs.isEmpty else { return }
        var completions: [WriteQueue.Completion] = []
        var changes: [String: Change] = [:]
        var order: [String] = []
        var records = 0
        var batchSize = 0
        for job in jobs {
            switch job {
            case .write(let written, let completion):
                completions.append(completion)
                records += written.count
                batchSize += written.count
                for record in written { note(.upsert(record), for: record.board, in: &changes, order: &order) }
            case .delete(let board, let completion):
                completions.append(completion)
                batchSize += 1
                note(.delete(board), for: board, in: &changes, order: &order)
            case .probe:
                preconditionFailure("process(_:) keeps probes out of a flush")
            }
        }
        let outcome: StorageError?
        if let failure {
            outcome = failure
        } else if changes.isEmpty {
            outcome = nil
        } else {
            do throws(StorageError) {
                try commit(order.map { changes[$0]! }, batchSize: batchSize)
                queue.recordCommit(records: records, batchSize: batchSize)
                outcome = nil
            } catch {
                failure = error
                queue.recordFailedCommit()
                outcome = error
            }
        }
        for completion in completions { completion(outcome) }
    }

    /// Keeps only each board's last change: later writes replace earlier ones, so the rows end
    /// up the same with one statement per board.
    private func note(_ change: Change, for board: String, in changes: inout [String: Change], order: inout [String]) {
        if changes.updateValue(change, forKey: board) == nil { order.append(board) }
    }

    private func commit(_ changes: [Change], batchSize: Int) throws(StorageError) {
        try transaction("committing a batch of \(batchSize) record\(batchSize == 1 ? "" : "s")") { () throws(StorageError) in
            for change in changes {
                switch change {
                case .upsert(let record):
                    try statements.upsert.bind(record.board, at: 1)
                    try statements.upsert.bind(record.revision, at: 2)
                    try statements.upsert.bind(record.state, at: 3)
                    try statements.upsert.run("writing board \(record.board)")
                case .delete(let board):
                    try statements.delete.bind(board, at: 1)
                    try statements.delete.run("deleting board \(board)")
                }
            }
        }
    }

    /// A committed one-row update: succeeds only when the store can append and fsync again.
    private func probe() -> StorageError? {
        do throws(StorageError) {
            try transaction("probing with a one-row write") { () throws(StorageError) in
                try statements.probe.run("updating the probe counter")
            }
            failure = nil
            queue.recordProbe(succeeded: true)
            return nil
        } catch {
            failure = error
            queue.recordProbe(succeeded: false)
            return error
        }
    }

    /// BEGIN IMMEDIATE, `body`, COMMIT; on any failure ROLLBACK, whose own error is ignored (SQLite
    /// may already have rolled back, and the first error is the one worth reporting). The error's
    /// message starts with `operation`.
    private func transaction(_ operation: String, _ body: () throws(StorageError) -> Void) throws(StorageError) {
        do throws(StorageError) {
            try statements.begin.run("BEGIN IMMEDIATE")
            try body()
            try statements.commit.run("COMMIT")
        } catch {
            try? statements.rollback.run("ROLLBACK")
            var error = error
            error.message = "\(operation): \(error.message)"
            throw error
        }
    }

    /// Test hook behind `SQLiteStore(maxPageCount:)`: SQLite refuses to grow the file past this
    /// many pages with SQLITE_FULL, a real full database without filling a disk.
    private func applyMaxPageCount(_ count: Int?) throws(StorageError) {
        maxPageCount = count
        try connection.execute("PRAGMA max_page_count = \(count ?? defaultMaxPageCount)")
    }
}

@available(*, unavailable)
extension StoreWriter: Sendable {}
