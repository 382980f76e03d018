#if canImport(Glibc)
    import Glibc
#endif

/// Everything the writer thread owns: the directory lock, the read-write connection and its
/// prepared statements, and whether the store is failing. It takes batches from the queue and
/// commits each as one transaction (group commit: one fsync however many writes piled up).
///
/// Before each commit it checks that the directory is still its own (`checkOwnership`), and after
/// it that the file it committed to is still the one a restart reads and nobody else committed in
/// between (`checkWrittenFile`): a write is acknowledged only then.
///
/// Created, used and released on the writer thread only.
final class StoreWriter {
    /// One board's (or playlist's) last change within a transaction.
    private enum Change {
        case upsert(StoredRecord)
        /// Changes appended to a board's log, oldest first, with their bytes made.
        case append([StoredChange])
        case delete(String)
        case upsertPlaylist(StoredPlaylist)
        case deletePlaylist(String)
    }

    /// What a change is to: boards and playlists have names of their own.
    private enum Subject: Hashable {
        case board(String)
        /// A board's log: appended to, never replaced, so apart from its snapshot.
        case log(String)
        case playlist(String)
    }

    private struct Statements {
        let begin: SQLiteStatement
        let commit: SQLiteStatement
        let rollback: SQLiteStatement
        let upsert: SQLiteStatement
        let insertChange: SQLiteStatement
        let compactChanges: SQLiteStatement
        let deleteChanges: SQLiteStatement
        let insertPoint: SQLiteStatement
        let trimPointsByCount: SQLiteStatement
        let trimPointsByTime: SQLiteStatement
        let trimBoardPointsByTime: SQLiteStatement
        let deleteRingPoints: SQLiteStatement
        let deleteBoardPoints: SQLiteStatement
        let insertBlock: SQLiteStatement
        let selectTailPoints: SQLiteStatement
        let deleteTailThrough: SQLiteStatement
        let measureTail: SQLiteStatement
        let selectLongTails: SQLiteStatement
        let selectBlockHeads: SQLiteStatement
        let deleteBlock: SQLiteStatement
        let trimBlocksByTime: SQLiteStatement
        let trimBoardBlocksByTime: SQLiteStatement
        let deleteRingBlocks: SQLiteStatement
        let deleteBoardBlocks: SQLiteStatement
        let delete: SQLiteStatement
        let upsertPlaylist: SQLiteStatement
        let deletePlaylist: SQLiteStatement
        let probe: SQLiteStatement
        let dataVersion: SQLiteStatement

        init(_ connection: SQLiteConnection) throws(StorageError) {
            // IMMEDIATE takes the write lock at BEGIN, so nothing can fail with SQLITE_BUSY halfway.
            begin = try connection.prepare("BEGIN IMMEDIATE")
            commit = try connection.prepare("COMMIT")
            rollback = try connection.prepare("ROLLBACK")
            upsert = try connection.prepare(StoreSchema.upsertBoard)
            insertChange = try connection.prepare(StoreSchema.insertChange)
            compactChanges = try connection.prepare(StoreSchema.compactChanges)
            deleteChanges = try connection.prepare(StoreSchema.deleteChanges)
            insertPoint = try connection.prepare(StoreSchema.insertPoint)
            trimPointsByCount = try connection.prepare(StoreSchema.trimPointsByCount)
            trimPointsByTime = try connection.prepare(StoreSchema.trimPointsByTime)
            trimBoardPointsByTime = try connection.prepare(StoreSchema.trimBoardPointsByTime)
            deleteRingPoints = try connection.prepare(StoreSchema.deleteRingPoints)
            deleteBoardPoints = try connection.prepare(StoreSchema.deleteBoardPoints)
            insertBlock = try connection.prepare(StoreSchema.insertBlock)
            selectTailPoints = try connection.prepare(StoreSchema.selectTailPoints)
            deleteTailThrough = try connection.prepare(StoreSchema.deleteTailThrough)
            measureTail = try connection.prepare(StoreSchema.measureTail)
            selectLongTails = try connection.prepare(StoreSchema.selectLongTails)
            selectBlockHeads = try connection.prepare(StoreSchema.selectBlockHeads)
            deleteBlock = try connection.prepare(StoreSchema.deleteBlock)
            trimBlocksByTime = try connection.prepare(StoreSchema.trimBlocksByTime)
            trimBoardBlocksByTime = try connection.prepare(StoreSchema.trimBoardBlocksByTime)
            deleteRingBlocks = try connection.prepare(StoreSchema.deleteRingBlocks)
            deleteBoardBlocks = try connection.prepare(StoreSchema.deleteBoardBlocks)
            delete = try connection.prepare(StoreSchema.deleteBoard)
            upsertPlaylist = try connection.prepare(StoreSchema.upsertPlaylist)
            deletePlaylist = try connection.prepare(StoreSchema.deletePlaylist)
            probe = try connection.prepare(StoreSchema.countProbe)
            dataVersion = try connection.prepare(StoreSchema.dataVersion)
        }

        /// Before the connection closes (SQLite closes a connection only once its statements are gone).
        func finalize() {
            for statement in [
                begin, commit, rollback, upsert, insertChange, compactChanges, deleteChanges, insertPoint,
                trimPointsByCount, trimPointsByTime, trimBoardPointsByTime, deleteRingPoints, deleteBoardPoints, insertBlock,
                selectTailPoints, deleteTailThrough, measureTail, selectLongTails, selectBlockHeads, deleteBlock,
                trimBlocksByTime,
                trimBoardBlocksByTime, deleteRingBlocks, deleteBoardBlocks, delete, upsertPlaylist, deletePlaylist, probe,
                dataVersion,
            ] {
                statement.finalize()
            }
        }
    }

    private let queue: WriteQueue
    private let lock: DirectoryLock
    private let connection: SQLiteConnection
    private let statements: Statements
    private let notify: @Sendable (StorageNotice) -> Void
    /// `PRAGMA data_version` once the store opened. It changes only when another connection
    /// commits, never for this connection's own commits.
    private let dataVersion: Int64
    /// The error of the last failed commit, probe or check. While set, writes fail with it untried.
    private var failure: StorageError?
    /// SQLite's own limit, restored when a test lifts its `maxPageCount`.
    private let defaultMaxPageCount: Int
    private var maxPageCount: Int?
    /// What a snapshot leaves of its board's log.
    private let retention: ChangeRetention
    /// How much of each ring's history is kept.
    private let history: HistoryBound
    /// Points stored per ring since its history was last trimmed: a ring is trimmed once it holds its bound's slack
    /// more. Not trimmed as the store opens: each board may keep a bound of its own, which only its writes carry; a
    /// ring's rows shrink to a smaller bound with its next writes, and its board's next snapshot drops what is too old
    /// (reads take the bound they are given, so they hold exactly what is kept meanwhile).
    private var untrimmed: [RingKey: Int64] = [:]

    private struct RingKey: Hashable {
        let board: String
        let ring: String
    }

    /// Takes the directory lock, looks at the -wal and -shm files before SQLite does, opens
    /// (creating if needed) the database, prepares the schema and the statements, and tells
    /// `notify` what is wrong with the side files. Anything that fails releases what was taken so far.
    init(
        directory: DataDirectory, queue: WriteQueue, maxPageCount: Int?, retention: ChangeRetention,
        history: HistoryBound, notify: @escaping @Sendable (StorageNotice) -> Void
    ) throws(StorageError) {
        self.queue = queue
        self.retention = retention
        self.history = history
        self.notify = notify
        lock = try DirectoryLock(directory: directory, databaseName: SQLiteStore.fileName)
        let sideFiles = SideFiles.inspect(database: lock.databasePath)
        connection = try SQLiteConnection(path: lock.databasePath, mode: .readWrite)
        try StoreSchema.prepare(connection)
        let previous = try StoreSchema.markOpen(connection)
        statements = try Statements(connection)
        let limit = try connection.queryText("PRAGMA max_page_count")
        defaultMaxPageCount = limit.flatMap { Int($0) } ?? Int(Int32.max)
        dataVersion = try Self.dataVersion(statements.dataVersion, of: connection.path)
        try applyMaxPageCount(maxPageCount)
        try sealWaitingPoints()
        var notices = sideFiles.notices
        if !sideFiles.walExists && (previous == "1" || sideFiles.sharedMemoryExists) {
            notices.append(
                StorageNotice(
                    level: .warning, path: lock.databasePath + "-wal",
                    message: "is missing, though the last ringcast to use the database stopped without closing it "
                        + "(killed or crashed), which leaves the -wal behind: it was deleted since, and the writes it "
                        + "held that were not yet copied into the database are lost"))
        }
        notices.forEach(notify)
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
        // A clean close clears the open mark, in a file that is still this store's. When it cannot
        // (a full disk), SQLite is told to keep the -wal, so that the next start does not take its
        // absence for a deletion. Never for a file that was replaced: its -wal path is the new file's.
        if (try? lock.checkDatabase()) != nil, (try? StoreSchema.markClosed(connection)) == nil {
            connection.keepWALOnClose()
        }
        statements.finalize()
        connection.close()
        lock.release()
    }

    /// Commits the batch's writes and deletes in one transaction and then runs their completions
    /// in queue order. A probe or a check splits the batch: what came before it commits first, so
    /// queue order decides which writes fail with the old error and which go through after recovery.
    private func process(_ jobs: [WriteQueue.Job]) {
        var pending: [WriteQueue.Job] = []
        for job in jobs {
            switch job {
            case .probe(let completion):
                flush(pending)
                pending.removeAll()
                completion(probe())
            case .check(let completion):
                flush(pending)
                pending.removeAll()
                completion(check())
            case .write, .append, .delete, .writePlaylist, .deletePlaylist:
                pending.append(job)
            }
        }
        flush(pending)
    }

    private func flush(_ jobs: [WriteQueue.Job]) {
        guard !jobs.isEmpty else { return }
        var completions: [WriteQueue.Completion] = []
        // The boards each job writes, beside its completion: a record that cannot be made fails its board's jobs.
        var written: [[String]] = []
        var changes: [Subject: Change] = [:]
        var order: [Subject] = []
        var records = 0
        var batchSize = 0
        for job in jobs {
            switch job {
            case .write(let given, let completion):
                completions.append(completion)
                written.append(given.map(\.board))
                records += given.count
                batchSize += given.count
                for var record in given {
                    // A later snapshot replaces an earlier one of the batch, not the history the earlier one adds.
                    if case .upsert(let earlier) = changes[.board(record.board)], !record.endsLog, !earlier.history.isEmpty {
                        record.history.points = earlier.history.points + record.history.points
                        record.history.removedRings = earlier.history.removedRings + record.history.removedRings
                    }
                    note(.upsert(record), for: .board(record.board), in: &changes, order: &order)
                }
            case .append(let change, let completion):
                completions.append(completion)
                written.append([change.board])
                records += 1
                batchSize += 1
                let subject = Subject.log(change.board)
                // Taken out and put back, so that the list is appended to in place, not copied for each change.
                if case .append(var earlier) = changes.removeValue(forKey: subject) {
                    earlier.append(change)
                    changes[subject] = .append(earlier)
                } else {
                    note(.append([change]), for: subject, in: &changes, order: &order)
                }
            case .delete(let board, let completion):
                completions.append(completion)
                written.append([])
                batchSize += 1
                note(.delete(board), for: .board(board), in: &changes, order: &order)
            case .writePlaylist(let playlist, let completion):
                completions.append(completion)
                written.append([])
                records += 1
                batchSize += 1
                note(.upsertPlaylist(playlist), for: .playlist(playlist.name), in: &changes, order: &order)
            case .deletePlaylist(let name, let completion):
                completions.append(completion)
                written.append([])
                batchSize += 1
                note(.deletePlaylist(name), for: .playlist(name), in: &changes, order: &order)
            case .probe, .check:
                preconditionFailure("process(_:) keeps probes and checks out of a flush")
            }
        }
        let outcome: StorageError?
        var unencodable: [String: StorageError] = [:]
        if let failure {
            outcome = failure
        } else {
            do throws(StorageError) {
                unencodable = try makeBytes(&changes)
                order.removeAll { changes[$0] == nil }
                outcome =
                    changes.isEmpty ? nil : commitChecked(order.map { changes[$0]! }, records: records, batchSize: batchSize)
            } catch {
                failure = error
                queue.recordFailedCommit()
                outcome = error
            }
        }
        for (completion, boards) in zip(completions, written) {
            completion(boards.lazy.compactMap { unencodable[$0] }.first ?? outcome)
        }
    }

    /// Makes the bytes of each board's newest record and of every change now, before the transaction. A record whose
    /// bytes cannot be made is dropped from `changes` (nothing of it is stored) and its error returned by board, so
    /// that only the writes of that board fail as `unencodable` and the rest of the batch commits. A change that
    /// cannot be made fails the store as a failed commit does (the error, thrown): every write from it on fails until
    /// a probe, so that no later change of its board is logged after a gap, and the server reverts its boards to what
    /// is durable.
    private func makeBytes(_ changes: inout [Subject: Change]) throws(StorageError) -> [String: StorageError] {
        var unencodable: [String: StorageError] = [:]
        for (subject, change) in changes {
            switch change {
            case .upsert(let record):
                do throws(StorageError) {
                    changes[subject] = .upsert(
                        StoredRecord(
                            board: record.board, revision: record.revision, endsLog: record.endsLog,
                            history: record.history, state: try record.state))
                } catch {
                    changes[subject] = nil
                    unencodable[record.board] = error
                }
            case .append(let appended):
                do throws(StorageError) {
                    changes[subject] = .append(
                        try appended.map { change throws(StorageError) in
                            StoredChange(
                                board: change.board, revision: change.revision, tick: change.tick, fps: change.fps,
                                history: change.history, change: try change.change)
                        })
                } catch {
                    throw StorageError(
                        path: error.path, message: error.message + "; writes are refused until the store is probed")
                }
            case .delete, .upsertPlaylist, .deletePlaylist: continue
            }
        }
        return unencodable
    }

    /// Commits `changes` if the directory is still this store's, and reports success only if, once
    /// fsynced, they are in the file a restart reads with nobody else's commits in between. Else
    /// the store fails until a probe succeeds.
    private func commitChecked(_ changes: [Change], records: Int, batchSize: Int) -> StorageError? {
        do throws(StorageError) {
            try checkOwnership()
        } catch {
            failure = error
            queue.recordUnhealthy()
            return error
        }
        do throws(StorageError) {
            try commit(changes, batchSize: batchSize)
            try checkWrittenFile()
        } catch {
            failure = error
            queue.recordFailedCommit()
            return error
        }
        queue.recordCommit(records: records, batchSize: batchSize)
        return nil
    }

    /// Keeps only each board's (and playlist's) last change: later writes replace earlier ones, so the
    /// rows end up the same with one statement per board. A replaced subject moves to the end, after the log appended
    /// since its earlier write: a tombstone then deletes the history of changes queued before it in the batch.
    private func note(_ change: Change, for subject: Subject, in changes: inout [Subject: Change], order: inout [Subject]) {
        if changes.updateValue(change, forKey: subject) != nil { order.removeAll { $0 == subject } }
        order.append(subject)
    }

    private func commit(_ changes: [Change], batchSize: Int) throws(StorageError) {
        try transaction("committing a batch of \(batchSize) record\(batchSize == 1 ? "" : "s")") { () throws(StorageError) in
            for change in changes {
                switch change {
                case .upsert(let record):
                    try statements.upsert.bind(record.board, at: 1)
                    try statements.upsert.bind(record.revision, at: 2)
                    try statements.upsert.bind(try record.state, at: 3)
                    try statements.upsert.run("writing board \(record.board)")
                    if record.endsLog {
                        try statements.deleteChanges.bind(record.board, at: 1)
                        try statements.deleteChanges.run("deleting the change log of board \(record.board)")
                        try deleteHistory(of: record.board)
                        continue
                    }
                    // What is too old goes with the snapshot, by the bound the server says the board keeps (a record
                    // without one, written as the server starts, leaves it to the board's next).
                    if let bound = record.history.bound {
                        try statements.trimBoardPointsByTime.bind(record.board, at: 1)
                        try statements.trimBoardPointsByTime.bind(bound.oldestKeptMillisecond, at: 2)
                        try statements.trimBoardPointsByTime.run("trimming the history of board \(record.board)")
                        try statements.trimBoardBlocksByTime.bind(record.board, at: 1)
                        try statements.trimBoardBlocksByTime.bind(bound.oldestKeptMillisecond, at: 2)
                        try statements.trimBoardBlocksByTime.run("trimming the history of board \(record.board)")
                    }
                    try store(record.history, of: record.board)
                    try statements.compactChanges.bind(record.board, at: 1)
                    try statements.compactChanges.bind(record.revision, at: 2)
                    try statements.compactChanges.bind(Self.wallClockSeconds() - retention.seconds, at: 3)
                    try statements.compactChanges.bind(retention.changes, at: 4)
                    try statements.compactChanges.run("compacting the change log of board \(record.board)")
                case .append(let appended):
                    for change in appended {
                        try statements.insertChange.bind(change.board, at: 1)
                        try statements.insertChange.bind(change.revision, at: 2)
                        try statements.insertChange.bind(change.tick, at: 3)
                        try statements.insertChange.bind(Int64(change.fps), at: 4)
                        try statements.insertChange.bind(try change.change, at: 5)
                        try statements.insertChange.run("logging revision \(change.revision) of board \(change.board)")
                        try store(change.history, of: change.board)
                    }
                case .delete(let board):
                    try statements.delete.bind(board, at: 1)
                    try statements.delete.run("deleting board \(board)")
                    try statements.deleteChanges.bind(board, at: 1)
                    try statements.deleteChanges.run("deleting the change log of board \(board)")
                    try deleteHistory(of: board)
                case .upsertPlaylist(let playlist):
                    try statements.upsertPlaylist.bind(playlist.name, at: 1)
                    try statements.upsertPlaylist.bind(playlist.definition, at: 2)
                    try statements.upsertPlaylist.run("writing playlist \(playlist.name)")
                case .deletePlaylist(let name):
                    try statements.deletePlaylist.bind(name, at: 1)
                    try statements.deletePlaylist.run("deleting playlist \(name)")
                }
            }
        }
    }

    // MARK: History

    /// Stores the points a write adds (unless its board's bound, else the store's, is off) and deletes the history of
    /// the rings it removed; trims a ring once it holds the bound's slack of points more than it keeps.
    private func store(_ points: StoredHistory, of board: String) throws(StorageError) {
        for ring in points.removedRings {
            try statements.deleteRingPoints.bind(board, at: 1)
            try statements.deleteRingPoints.bind(ring, at: 2)
            try statements.deleteRingPoints.run("deleting the history of ring \(ring) of board \(board)")
            try statements.deleteRingBlocks.bind(board, at: 1)
            try statements.deleteRingBlocks.bind(ring, at: 2)
            try statements.deleteRingBlocks.run("deleting the history of ring \(ring) of board \(board)")
            untrimmed[RingKey(board: board, ring: ring)] = nil
        }
        let bound = points.bound ?? history
        guard !bound.isOff else { return }
        for point in points.points {
            try statements.insertPoint.bind(board, at: 1)
            try statements.insertPoint.bind(point.ring, at: 2)
            try statements.insertPoint.bind(point.milliseconds, at: 3)
            try statements.insertPoint.bind(point.revision, at: 4)
            try statements.insertPoint.bind(point.value, at: 5)
            try statements.insertPoint.bind(optional: point.status, at: 6)
            try statements.insertPoint.run("storing the history of ring \(point.ring) of board \(board)")
            let key = RingKey(board: board, ring: point.ring)
            let count = untrimmed[key, default: 0] + 1
            if count >= bound.slack {
                try trim(key, to: bound)
                untrimmed[key] = nil
            } else {
                untrimmed[key] = count
            }
        }
    }

    /// Deletes what `bound` no longer keeps of one ring: points (and blocks) older than the window, points beyond the
    /// count; then packs its oldest waiting points into blocks (`seal`) and deletes the blocks that hold only points
    /// beyond the count.
    private func trim(_ key: RingKey, to bound: HistoryBound) throws(StorageError) {
        let operation = "trimming the history of ring \(key.ring) of board \(key.board)"
        let oldest = bound.oldestKeptMillisecond
        for statement in [statements.trimPointsByTime, statements.trimBlocksByTime] {
            try statement.bind(key.board, at: 1)
            try statement.bind(key.ring, at: 2)
            try statement.bind(oldest, at: 3)
            try statement.run(operation)
        }
        try statements.trimPointsByCount.bind(key.board, at: 1)
        try statements.trimPointsByCount.bind(key.ring, at: 2)
        try statements.trimPointsByCount.bind(bound.points, at: 3)
        try statements.trimPointsByCount.run(operation)
        try seal(key)
        try trimBlocks(key, keeping: bound.points)
    }

    /// Packs a ring's oldest waiting points into blocks of `HistoryBlock.size`, as many whole blocks as they fill;
    /// fewer than a block's worth stay as they are.
    private func seal(_ key: RingKey) throws(StorageError) {
        let operation = "packing the history of ring \(key.ring) of board \(key.board)"
        var rows: [HistoryRow] = []
        do {
            defer { statements.selectTailPoints.reset() }
            try statements.selectTailPoints.bind(key.board, at: 1)
            try statements.selectTailPoints.bind(key.ring, at: 2)
            try statements.selectTailPoints.bind(Int64.min, at: 3)
            while try statements.selectTailPoints.step(operation) {
                rows.append(HistoryRow(columnsOf: statements.selectTailPoints))
            }
        }
        let sealed = rows.count / HistoryBlock.size * HistoryBlock.size
        guard sealed > 0 else { return }
        for start in stride(from: 0, to: sealed, by: HistoryBlock.size) {
            let block = rows[start..<start + HistoryBlock.size]
            let insert = statements.insertBlock
            try insert.bind(key.board, at: 1)
            try insert.bind(key.ring, at: 2)
            try insert.bind(block.first!.milliseconds, at: 3)
            try insert.bind(block.first!.revision, at: 4)
            try insert.bind(block.last!.milliseconds, at: 5)
            try insert.bind(Int64(block.count), at: 6)
            try insert.bind(HistoryBlock.encode(block), at: 7)
            try insert.run(operation)
        }
        let through = rows[sealed - 1]
        try statements.deleteTailThrough.bind(key.board, at: 1)
        try statements.deleteTailThrough.bind(key.ring, at: 2)
        try statements.deleteTailThrough.bind(through.milliseconds, at: 3)
        try statements.deleteTailThrough.bind(through.revision, at: 4)
        try statements.deleteTailThrough.run(operation)
    }

    /// Deletes a ring's blocks that at least `points` points are newer than (every one of theirs older than each of
    /// those): what a read keeps never is in one. Counted from above, a block of points that arrived late counts
    /// nothing newer, so it stays until the window passes it.
    private func trimBlocks(_ key: RingKey, keeping points: Int64) throws(StorageError) {
        let operation = "trimming the history of ring \(key.ring) of board \(key.board)"
        var waiting: (count: Int64, oldest: Int64) = (0, .max)
        do {
            defer { statements.measureTail.reset() }
            try statements.measureTail.bind(key.board, at: 1)
            try statements.measureTail.bind(key.ring, at: 2)
            if try statements.measureTail.step(operation), statements.measureTail.int64(at: 0) > 0 {
                waiting = (statements.measureTail.int64(at: 0), statements.measureTail.int64(at: 1))
            }
        }
        var heads: [(first: Int64, revision: Int64, last: Int64, count: Int64)] = []
        do {
            defer { statements.selectBlockHeads.reset() }
            try statements.selectBlockHeads.bind(key.board, at: 1)
            try statements.selectBlockHeads.bind(key.ring, at: 2)
            while try statements.selectBlockHeads.step(operation) {
                let head = statements.selectBlockHeads
                heads.append((head.int64(at: 0), head.int64(at: 1), head.int64(at: 2), head.int64(at: 3)))
            }
        }
        for (index, head) in heads.enumerated() {
            let newer =
                (waiting.oldest > head.last ? waiting.count : 0)
                + heads[..<index].reduce(0) { $0 + ($1.first > head.last ? $1.count : 0) }
            guard newer >= points else { continue }
            try statements.deleteBlock.bind(key.board, at: 1)
            try statements.deleteBlock.bind(key.ring, at: 2)
            try statements.deleteBlock.bind(head.first, at: 3)
            try statements.deleteBlock.bind(head.revision, at: 4)
            try statements.deleteBlock.run(operation)
        }
    }

    /// As the store opens, packs into blocks the points of every ring that has a block's worth waiting: a format 3
    /// file's history, or a ring whose writes stopped before its next trim.
    private func sealWaitingPoints() throws(StorageError) {
        var keys: [RingKey] = []
        do {
            defer { statements.selectLongTails.reset() }
            try statements.selectLongTails.bind(Int64(HistoryBlock.size), at: 1)
            while try statements.selectLongTails.step("finding the history to pack into blocks") {
                keys.append(RingKey(board: statements.selectLongTails.text(at: 0), ring: statements.selectLongTails.text(at: 1)))
            }
        }
        guard !keys.isEmpty else { return }
        try transaction("packing the history of \(keys.count) ring\(keys.count == 1 ? "" : "s") into blocks") {
            () throws(StorageError) in
            for key in keys { try seal(key) }
        }
    }

    private func deleteHistory(of board: String) throws(StorageError) {
        try statements.deleteBoardPoints.bind(board, at: 1)
        try statements.deleteBoardPoints.run("deleting the history of board \(board)")
        try statements.deleteBoardBlocks.bind(board, at: 1)
        try statements.deleteBoardBlocks.run("deleting the history of board \(board)")
        untrimmed = untrimmed.filter { $0.key.board != board }
    }

    /// Seconds since the Unix epoch, now: a change's tick divided by its fps is on the same scale.
    private static func wallClockSeconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// A committed one-row update: succeeds only when the store owns its directory (taking a lost
    /// LOCK again if it can) and can append and fsync again.
    private func probe() -> StorageError? {
        do throws(StorageError) {
            try checkOwnership()
            try transaction("probing with a one-row write") { () throws(StorageError) in
                try statements.probe.run("updating the probe counter")
            }
            try checkWrittenFile()
            failure = nil
            queue.recordProbe(succeeded: true)
            return nil
        } catch {
            failure = error
            queue.recordProbe(succeeded: false)
            return error
        }
    }

    /// The periodic check while idle: the error the store fails with, already or now because it no
    /// longer owns its directory, or nil.
    private func check() -> StorageError? {
        if let failure { return failure }
        do throws(StorageError) {
            try checkOwnership()
            return nil
        } catch {
            failure = error
            queue.recordUnhealthy()
            return error
        }
    }

    /// Throws unless the data directory is still this store's: the database path names the file it
    /// locked, no other connection has committed to that file, and the LOCK file is its own. A LOCK
    /// file deleted or replaced meanwhile is taken again if nobody else holds it (told to `notify`):
    /// after the first two checks, nobody else can have used the directory. Else the error says why
    /// writes are refused.
    private func checkOwnership() throws(StorageError) {
        try checkWrittenFile()
        guard let problem = lock.lockFileProblem() else { return }
        do throws(StorageError) {
            try lock.retakeLockFile()
        } catch {
            throw StorageError(
                path: lock.path,
                message: "\(problem), and \(error.message); writes are refused until this ringcast holds it again")
        }
        notify(
            StorageNotice(
                level: .error, path: lock.path,
                message: "\(problem); no other process held it, the database was untouched, and this ringcast has "
                    + "locked it again"))
    }

    /// Throws unless the database path still names the file this store writes to and no other
    /// connection has committed to it since the store opened.
    private func checkWrittenFile() throws(StorageError) {
        try lock.checkDatabase()
        guard try Self.dataVersion(statements.dataVersion, of: connection.path) == dataVersion else {
            throw StorageError(
                path: connection.path,
                message: "another program committed to the database \(connection.path) while this ringcast ran (an "
                    + "older ringcast started after the LOCK file was deleted, or a tool such as sqlite3); writes are "
                    + "refused so that neither overwrites the other: stop that program and restart ringcast")
        }
    }

    /// What `PRAGMA data_version` (the statement) answers now.
    private static func dataVersion(_ statement: SQLiteStatement, of path: String) throws(StorageError) -> Int64 {
        defer { statement.reset() }
        guard try statement.step("reading PRAGMA data_version") else {
            throw StorageError(path: path, message: "PRAGMA data_version returned no row")
        }
        return statement.int64(at: 0)
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
