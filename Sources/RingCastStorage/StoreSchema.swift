/// The database layout, format 1, and the connection settings every store uses.
///
/// ```
/// boards(name TEXT PRIMARY KEY, revision INTEGER NOT NULL, state BLOB NOT NULL)
/// meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)   -- 'format' = '1', 'probes' = count
/// ```
enum StoreSchema {
    /// Bumped when the layout changes; a file of another format is refused, never rewritten.
    static let format = "1"

    static let upsertBoard = """
        INSERT INTO boards (name, revision, state) VALUES (?1, ?2, ?3)
        ON CONFLICT (name) DO UPDATE SET revision = excluded.revision, state = excluded.state
        """
    static let deleteBoard = "DELETE FROM boards WHERE name = ?1"
    static let selectBoards = "SELECT name, revision, state FROM boards ORDER BY name"
    /// The probe's tiny durable write: one row changes, so the commit appends to the WAL and fsyncs.
    static let countProbe = "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'probes'"
    /// Whether another connection committed since this one last asked (SQLite's own counter).
    static let dataVersion = "PRAGMA data_version"

    /// Switches the file to WAL with a full fsync per commit, then creates the tables if missing
    /// and checks the format, in one transaction. A file that is not SQLite fails here, on its
    /// first read, and is left as it was.
    static func prepare(_ connection: SQLiteConnection) throws(StorageError) {
        let mode = try connection.queryText("PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw StorageError(
                path: connection.path,
                message: "cannot switch the database to WAL journal mode (it stays in \(mode ?? "an unknown") mode); "
                    + "put the data directory on a local file system")
        }
        // In WAL mode, FULL syncs the WAL on every commit: a commit survives power loss.
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StorageError) {
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS boards (name TEXT PRIMARY KEY, revision INTEGER NOT NULL, state BLOB NOT NULL)")
            try connection.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            try connection.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('format', '\(format)'), ('probes', '0')")
            let found = try connection.queryText("SELECT value FROM meta WHERE key = 'format'")
            guard found == format else {
                throw StorageError(
                    path: connection.path,
                    message: "the database is in format \(found.map { "'\($0)'" } ?? "(none)"), "
                        + "this ringcast reads only format '\(format)'; "
                        + "run the ringcast version that wrote it, or use another data directory")
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
