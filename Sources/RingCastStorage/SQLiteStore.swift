import RingCastThreads
import Synchronization

/// A `BoardStore` in one SQLite file, `directory/ringcast.sqlite3`, in WAL mode with a full fsync
/// per commit, guarded against a second ringcast by exclusive `flock`s on `directory/LOCK` and on
/// the database file itself (`DirectoryLock`).
///
/// Threads: every method may be called from any thread and never waits for the disk, except
/// `init`, `loadAll` and `close`. One writer thread takes the lock, opens the read-write
/// connection, commits and runs every completion; it holds both until `close`. `loadAll` reads through a second, read-only connection of its own on the caller's thread (WAL
/// lets it read while the writer commits), so the writer's connection never changes threads.
///
/// Group commit: while the writer commits one batch, new jobs pile up in the queue; it then
/// takes all of them and commits them as one transaction, with one fsync.
public final class SQLiteStore: BoardStore {
    public static let fileName = "ringcast.sqlite3"

    /// The data directory as given to `init`.
    public let directory: String
    /// `directory/ringcast.sqlite3`.
    public let databasePath: String

    /// How much of each ring's history is kept, and read.
    public let history: HistoryBound
    private let queue: WriteQueue
    private let thread: JoinableThread
    /// True once `close` has run; held while it waits, so a second caller waits too.
    private let closed = Mutex(false)
    /// The connection and prepared query history reads share, opened by the first (opening and preparing was about a
    /// quarter of a 10,000-point read); one read at a time. Dropped after an error and at `close`.
    private let historyReader = Mutex<HistoryReader?>(nil)

    private final class HistoryReader {
        let connection: SQLiteConnection
        let blocks: SQLiteStatement
        let tail: SQLiteStatement

        init(path: String) throws(StorageError) {
            connection = try SQLiteConnection(path: path, mode: .readOnly)
            var prepared: [SQLiteStatement] = []
            do {
                prepared.append(try connection.prepare(StoreSchema.selectBlocks))
                prepared.append(try connection.prepare(StoreSchema.selectTailPoints))
            } catch {
                for statement in prepared { statement.finalize() }
                connection.close()
                throw error
            }
            (blocks, tail) = (prepared[0], prepared[1])
        }

        /// The points of `board`'s ring `ring` from millisecond `oldest` on, in one read transaction (the blocks and
        /// the points waiting for one are read as of one commit), oldest first.
        func points(board: String, ring: String, from oldest: Int64) throws(StorageError) -> [HistoryRow] {
            let operation = "reading the history of ring \(ring) of board \(board)"
            // On an error the caller closes the connection, which ends the transaction; a COMMIT that fails is one.
            try connection.execute("BEGIN")
            var rows: [HistoryRow] = []
            rows.reserveCapacity(4_096)
            do {
                defer { blocks.reset() }
                try blocks.bind(board, at: 1)
                try blocks.bind(ring, at: 2)
                try blocks.bind(oldest, at: 3)
                while try blocks.step(operation) {
                    let decoded = blocks.withBlob(at: 0) { HistoryBlock.decode($0, from: oldest, into: &rows) }
                    guard decoded else {
                        throw StorageError(path: connection.path, message: "\(operation): a block of its points is damaged")
                    }
                }
            }
            do {
                defer { tail.reset() }
                try tail.bind(board, at: 1)
                try tail.bind(ring, at: 2)
                try tail.bind(oldest, at: 3)
                while try tail.step(operation) { rows.append(HistoryRow(columnsOf: tail)) }
            }
            try connection.execute("COMMIT")
            return rows
        }

        func close() {
            blocks.finalize()
            tail.finalize()
            connection.close()
        }
    }

    /// Opens (creating if needed) `directory/ringcast.sqlite3`, first creating the directory and
    /// taking the locks on `directory/LOCK` and the database (see `DirectoryLock`). Throws when the
    /// directory is in use by another ringcast ("data directory DIR is in use by another ringcast
    /// (pid N)"), when the file is not a RingCast database or is damaged (it is never replaced), or
    /// when it is in another format.
    ///
    /// `notify` hears, on the writer thread, what the store carries on despite: a damaged or
    /// missing -wal file at start (before `init` returns), a LOCK file deleted or replaced while it
    /// runs and taken again.
    public convenience init(
        directory: String, notify: @escaping @Sendable (StorageNotice) -> Void = { _ in }
    ) throws(StorageError) {
        try self.init(directory: directory, maxPageCount: nil, notify: notify)
    }

    /// A store whose snapshots leave `retention` of each board's change log, keeping `history` of each ring's.
    public convenience init(
        directory: String, retention: ChangeRetention, history: HistoryBound = .standard,
        notify: @escaping @Sendable (StorageNotice) -> Void = { _ in }
    ) throws(StorageError) {
        try self.init(directory: directory, maxPageCount: nil, retention: retention, history: history, notify: notify)
    }

    /// `maxPageCount` is for tests: the database cannot grow past that many pages, so SQLite
    /// itself fails a commit with SQLITE_FULL.
    init(
        directory: String, maxPageCount: Int?, retention: ChangeRetention = .standard,
        history: HistoryBound = .standard, notify: @escaping @Sendable (StorageNotice) -> Void = { _ in }
    ) throws(StorageError) {
        self.history = history
        let dataDirectory = DataDirectory(path: directory)
        let queue = WriteQueue(maxPageCount: maxPageCount)
        self.directory = directory
        databasePath = dataDirectory.file(Self.fileName)
        self.queue = queue
        do {
            thread = try JoinableThread {
                let writer: StoreWriter
                do throws(StorageError) {
                    writer = try StoreWriter(
                        directory: dataDirectory, queue: queue, maxPageCount: maxPageCount, retention: retention,
                        history: history, notify: notify)
                } catch {
                    queue.reportStarted(error)
                    return
                }
                queue.reportStarted(nil)
                writer.run()
            }
        } catch {
            throw StorageError(path: directory, message: "cannot start the store's writer thread: \(error)")
        }
        if let error = queue.waitUntilStarted() {
            thread.join()
            closed.withLock { $0 = true }
            throw error
        }
    }

    deinit {
        close()
    }

    public func loadAll() throws(StorageError) -> [StoredRecord] {
        try read(StoreSchema.selectBoards, "reading the stored boards") { statement in
            StoredRecord(board: statement.text(at: 0), revision: statement.int64(at: 1), state: statement.blob(at: 2))
        }
    }

    public func loadChanges() throws(StorageError) -> [StoredChange] {
        try read(StoreSchema.selectChanges, "reading the change log") { statement in
            StoredChange(
                board: statement.text(at: 0), revision: statement.int64(at: 1), tick: statement.int64(at: 2),
                fps: Int(statement.int64(at: 3)), change: statement.blob(at: 4))
        }
    }

    public func loadPlaylists() throws(StorageError) -> [StoredPlaylist] {
        try read(StoreSchema.selectPlaylists, "reading the stored playlists") { statement in
            StoredPlaylist(name: statement.text(at: 0), definition: statement.blob(at: 1))
        }
    }

    public func history(_ query: HistoryQuery) throws(StorageError) -> [HistoryRow] {
        let history = query.bound ?? history
        guard !history.isOff else { return [] }
        guard !queue.isClosing else {
            throw StorageError(path: databasePath, message: "the store is closed; open a new one to read")
        }
        let oldest = max(query.since, history.oldestKeptMillisecond)
        let path = databasePath
        return try historyReader.withLock { held throws(StorageError) -> [HistoryRow] in
            let reader: HistoryReader
            if let kept = held {
                reader = kept
            } else {
                reader = try HistoryReader(path: path)
            }
            held = nil
            let rows: [HistoryRow]
            do throws(StorageError) {
                rows = try reader.points(board: query.board, ring: query.ring, from: oldest)
            } catch {
                reader.close()
                throw error
            }
            held = reader
            return Self.kept(rows, points: history.points, until: query.until)
        }
    }

    /// Of `rows` (a ring's blocks then its points waiting for one, each oldest first), the newest `points` in order,
    /// then those through millisecond `until`. Blocks and waiting points follow each other in time unless a point
    /// arrived late; then they are sorted, and of two with one time and revision the later read (waiting) is kept.
    static func kept(_ rows: consuming [HistoryRow], points: Int64, until: Int64) -> [HistoryRow] {
        var rows = rows
        if zip(rows, rows.dropFirst()).contains(where: { !HistoryRow.precedes($0, $1) }) {
            let sorted = rows.enumerated().sorted { left, right in
                HistoryRow.precedes(left.element, right.element)
                    || (!HistoryRow.precedes(right.element, left.element) && left.offset < right.offset)
            }
            rows = []
            for (_, row) in sorted {
                if let last = rows.last, !HistoryRow.precedes(last, row) {
                    rows[rows.count - 1] = row
                } else {
                    rows.append(row)
                }
            }
        }
        let limit = Int(clamping: max(0, points))
        if rows.count > limit { rows.removeFirst(rows.count - limit) }
        if let end = rows.lastIndex(where: { $0.milliseconds <= until }) {
            rows.removeLast(rows.count - end - 1)
        } else {
            rows.removeAll()
        }
        return rows
    }

    /// Every row `query` selects, made into values by `row`, read on a connection of its own (read-only, so it
    /// never waits for the writer).
    private func read<Row>(
        _ query: String, _ operation: String, row: (SQLiteStatement) -> Row
    ) throws(StorageError) -> [Row] {
        guard !queue.isClosing else {
            throw StorageError(path: databasePath, message: "the store is closed; open a new one to read")
        }
        let connection = try SQLiteConnection(path: databasePath, mode: .readOnly)
        let statement = try connection.prepare(query)
        defer {
            statement.finalize()
            connection.close()
        }
        var rows: [Row] = []
        while try statement.step(operation) { rows.append(row(statement)) }
        return rows
    }

    public func write(playlist: StoredPlaylist, completion: @escaping @Sendable (StorageError?) -> Void) {
        submit(.writePlaylist(playlist, completion), completion)
    }

    public func delete(playlist: String, completion: @escaping @Sendable (StorageError?) -> Void) {
        submit(.deletePlaylist(playlist, completion), completion)
    }

    /// After `close`, `completion` runs at once on the caller's thread with an error: there is no
    /// writer thread any more.
    public func write(_ records: [StoredRecord], completion: @escaping @Sendable (StorageError?) -> Void) {
        submit(.write(records, completion), completion)
    }

    public func append(_ change: StoredChange, completion: @escaping @Sendable (StorageError?) -> Void) {
        submit(.append(change, completion), completion)
    }

    public func delete(board: String, completion: @escaping @Sendable (StorageError?) -> Void) {
        submit(.delete(board: board, completion), completion)
    }

    public func probe(completion: @escaping @Sendable (StorageError?) -> Void) {
        submit(.probe(completion), completion)
    }

    /// After `close`, `completion` runs at once with nil: a closed store has nothing left to lose,
    /// and a server that is stopping must not log its store as failing.
    public func check(completion: @escaping @Sendable (StorageError?) -> Void) {
        guard queue.enqueue(.check(completion)) else { return completion(nil) }
    }

    public var isHealthy: Bool { queue.isHealthy }

    public var statistics: StorageStatistics { queue.statistics }

    /// Stops taking jobs, waits until the writer has committed everything queued and run the
    /// completions, then closes the database and releases the lock. Called from a completion
    /// (on the writer thread) it cannot wait for itself: it stops taking jobs and returns, and the
    /// writer closes everything once the jobs queued so far are done.
    public func close() {
        historyReader.withLock { reader in
            reader?.close()
            reader = nil
        }
        queue.requestClose()
        if thread.isCurrent {
            thread.detach()
            return
        }
        closed.withLock { closed in
            guard !closed else { return }
            thread.join()
            closed = true
        }
    }

    private func submit(_ job: WriteQueue.Job, _ completion: @Sendable (StorageError?) -> Void) {
        guard queue.enqueue(job) else {
            completion(StorageError(path: databasePath, message: "the store is closed; nothing was written"))
            return
        }
    }

    // MARK: Test hooks

    /// Holds the writer before it takes the next batch, so a test can queue many jobs first.
    /// `resumeWriter` or `close` lets it go.
    func pauseWriter() {
        queue.pause()
    }

    func resumeWriter() {
        queue.resume()
    }

    /// Changes the page limit `init(directory:maxPageCount:)` set (nil: SQLite's own limit); the
    /// writer applies it before its next batch.
    func setMaxPageCount(_ count: Int?) {
        queue.setMaxPageCount(count)
    }
}
