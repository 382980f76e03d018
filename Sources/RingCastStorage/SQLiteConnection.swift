internal import CSQLite

/// Owns one `sqlite3` connection and closes it exactly once (`close()` or `deinit`).
///
/// Thread-confined: the store's read-write connection is opened, used and closed on the writer
/// thread; `loadAll`'s read-only connection lives for one call on the caller's thread. Opened with
/// `SQLITE_OPEN_NOMUTEX` because no connection is ever shared between threads.
final class SQLiteConnection {
    enum Mode {
        case readWrite
        case readOnly
    }

    /// The database file, named in every error.
    let path: String
    private var handle: OpaquePointer?

    init(path: String, mode: Mode) throws(StorageError) {
        self.path = path
        let access = mode == .readWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, access | SQLITE_OPEN_NOMUTEX, nil)
        // SQLite hands back a handle (carrying the message) even when opening fails; deinit closes it.
        self.handle = handle
        try check(code, "opening the database")
        sqlite3_extended_result_codes(handle, 1)
        // Waits instead of failing at once with SQLITE_BUSY if another connection (loadAll's, or a
        // checkpoint) holds a lock for a moment.
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit {
        close()
    }

    /// Closes the connection. `sqlite3_close_v2` defers the close until statements still alive
    /// are finalized, so the order in which owners let go cannot leak the handle.
    func close() {
        guard let handle else { return }
        self.handle = nil
        sqlite3_close_v2(handle)
    }

    /// Asks SQLite to leave the -wal file in place when the connection closes
    /// (`SQLITE_FCNTL_PERSIST_WAL`) instead of deleting it after the last checkpoint.
    func keepWALOnClose() {
        var keep: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
    }

    /// The one place where SQLite result codes become `StorageError`s: returns `code` when
    /// `success` accepts it, else throws with SQLite's message, the code's name, the database path
    /// and what a person can do about it.
    @discardableResult
    func check(
        _ code: Int32,
        _ operation: @autoclosure () -> String,
        success: (Int32) -> Bool = { $0 == SQLITE_OK }
    ) throws(StorageError) -> Int32 {
        guard !success(code) else { return code }
        let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let primary = code & 0xFF
        var name = Self.name(ofPrimaryCode: primary)
        if code != primary { name += ", extended code \(code)" }
        var message = "\(operation()) failed: \(detail) (\(name))"
        if let advice = Self.advice(forPrimaryCode: primary) { message += "; \(advice)" }
        throw StorageError(path: path, message: message)
    }

    /// Compiles one SQL statement.
    func prepare(_ sql: String) throws(StorageError) -> SQLiteStatement {
        var statement: OpaquePointer?
        // On failure SQLite leaves `statement` null, so there is nothing to finalize.
        try check(
            sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), "preparing \(sql)")
        guard let statement else {
            throw StorageError(path: path, message: "preparing \(sql) failed: the text holds no SQL statement")
        }
        return SQLiteStatement(pointer: statement, connection: self)
    }

    /// Runs one statement to its end, ignoring any rows (pragmas that echo their value).
    func execute(_ sql: String) throws(StorageError) {
        try prepare(sql).run(sql)
    }

    /// Runs one statement and returns the first column of its first row as text (nil if no row).
    func queryText(_ sql: String) throws(StorageError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step(sql) else { return nil }
        return statement.text(at: 0)
    }

    private static func name(ofPrimaryCode code: Int32) -> String {
        switch code {
        case SQLITE_ERROR: "SQLITE_ERROR"
        case SQLITE_PERM: "SQLITE_PERM"
        case SQLITE_BUSY: "SQLITE_BUSY"
        case SQLITE_LOCKED: "SQLITE_LOCKED"
        case SQLITE_NOMEM: "SQLITE_NOMEM"
        case SQLITE_READONLY: "SQLITE_READONLY"
        case SQLITE_IOERR: "SQLITE_IOERR"
        case SQLITE_CORRUPT: "SQLITE_CORRUPT"
        case SQLITE_FULL: "SQLITE_FULL"
        case SQLITE_CANTOPEN: "SQLITE_CANTOPEN"
        case SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT"
        case SQLITE_MISUSE: "SQLITE_MISUSE"
        case SQLITE_NOTADB: "SQLITE_NOTADB"
        default: "SQLite code \(code)"
        }
    }

    private static func advice(forPrimaryCode code: Int32) -> String? {
        switch code {
        case SQLITE_FULL:
            "free space on that file system; the store commits again after a successful probe"
        case SQLITE_IOERR:
            "check the disk and the kernel log; the store commits again after a successful probe"
        case SQLITE_READONLY, SQLITE_PERM:
            "make the file, its -wal and -shm files and their directory writable"
        case SQLITE_CANTOPEN:
            "check that the directory exists and that the file can be created and opened there"
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            "it is not a RingCast database or it is damaged: move it aside or restore a backup "
                + "(RingCast never replaces it)"
        case SQLITE_BUSY, SQLITE_LOCKED:
            "another program is holding the database; stop it"
        default:
            nil
        }
    }
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}
