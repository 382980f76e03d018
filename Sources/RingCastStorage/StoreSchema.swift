/// The database layout, format 4, and the connection settings every store uses.
///
/// ```
/// boards(name TEXT PRIMARY KEY, revision INTEGER NOT NULL, state BLOB NOT NULL)   -- each board's newest snapshot
/// changes(board TEXT, revision INTEGER, tick INTEGER, fps INTEGER, change BLOB, PRIMARY KEY (board, revision))
///                                          -- since format 2: every accepted write, appended in its commit; a start
///                                          -- replays those after the snapshot's revision (`StoredChange`)
/// history(board TEXT, ring TEXT, time INTEGER, revision INTEGER, value REAL, status TEXT,
///         PRIMARY KEY (board, ring, time, revision))   -- since format 3: each ring's newest targets (issue 33), a
///                                                        -- row each, written in the transaction of the change that
///                                                        -- set them; `time` in milliseconds since the Unix epoch
///                                                        -- (`HistoryBound`)
/// history_blocks(board TEXT, ring TEXT, first INTEGER, revision INTEGER, last INTEGER, count INTEGER, points BLOB,
///         PRIMARY KEY (board, ring, first, revision))   -- since format 4: a ring's older targets, `HistoryBlock.size`
///                                                         -- a row (`HistoryBlock`), from the time and revision of the
///                                                         -- first to the time of the last
/// playlists(name TEXT PRIMARY KEY, definition BLOB NOT NULL)   -- since playlists; created when missing, so a
///                                                                -- format 1 file without it opens (and an older
///                                                                -- ringcast ignores it)
/// meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)   -- 'format' = '3', 'probes' = count,
///                                                     -- 'open' = '1' from start to clean close, then '0'
/// ```
///
/// A format 1 file (snapshots only, written on every write) is taken as it is and becomes format 4 when it opens: the
/// change log and the history are added, empty; a format 2 file likewise gains the history, empty; a format 3 file
/// gains the blocks, and its rings' points move into them as it opens. A ringcast that reads only an older format
/// then refuses it, rather than miss what it does not know.
enum StoreSchema {
    /// Bumped when the layout changes; a file of another format is refused, never rewritten (formats 1 to 3 excepted,
    /// which are upgraded in place).
    static let format = "4"

    static let upsertBoard = """
        INSERT INTO boards (name, revision, state) VALUES (?1, ?2, ?3)
        ON CONFLICT (name) DO UPDATE SET revision = excluded.revision, state = excluded.state
        """
    static let deleteBoard = "DELETE FROM boards WHERE name = ?1"
    static let insertChange = "INSERT INTO changes (board, revision, tick, fps, change) VALUES (?1, ?2, ?3, ?4, ?5)"
    /// What a board's snapshot of revision ?2 leaves of its log (`ChangeRetention`): the changes it covers go once
    /// they started before second ?3 of the Unix epoch or are not among the newest ?4.
    static let compactChanges = """
        DELETE FROM changes WHERE board = ?1 AND revision <= ?2 AND (tick < ?3 * fps OR revision <= ?2 - ?4)
        """
    /// A board deleted without a tombstone (`BoardStore.delete(board:)`) takes its log along.
    static let deleteChanges = "DELETE FROM changes WHERE board = ?1"
    static let selectChanges = """
        SELECT c.board, c.revision, c.tick, c.fps, c.change FROM changes c
        WHERE c.revision > coalesce((SELECT b.revision FROM boards b WHERE b.name = c.board), -1)
        ORDER BY c.board, c.revision
        """
    static let insertPoint =
        "INSERT OR REPLACE INTO history (board, ring, time, revision, value, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    /// A ring's points waiting for a block through time ?3 and revision ?4 go (into a block).
    static let deleteTailThrough = "DELETE FROM history WHERE board = ?1 AND ring = ?2 AND (time, revision) <= (?3, ?4)"
    /// How many points of a ring wait for a block, and the oldest one's time.
    static let measureTail = "SELECT count(*), min(time) FROM history WHERE board = ?1 AND ring = ?2"
    /// Every ring with ?1 or more points waiting for a block (sealed as the store opens).
    static let selectLongTails = "SELECT board, ring FROM history GROUP BY board, ring HAVING count(*) >= ?1"
    static let insertBlock = """
        INSERT OR REPLACE INTO history_blocks (board, ring, first, revision, last, count, points)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        """
    /// A ring's blocks, newest last time first.
    static let selectBlockHeads = """
        SELECT first, revision, last, count FROM history_blocks WHERE board = ?1 AND ring = ?2 ORDER BY last DESC, first DESC
        """
    static let deleteBlock = "DELETE FROM history_blocks WHERE board = ?1 AND ring = ?2 AND first = ?3 AND revision = ?4"
    /// A ring's blocks whose points are all before millisecond ?3 go.
    static let trimBlocksByTime = "DELETE FROM history_blocks WHERE board = ?1 AND ring = ?2 AND last < ?3"
    /// A board's blocks whose points are all before millisecond ?2 go, whatever the ring.
    static let trimBoardBlocksByTime = "DELETE FROM history_blocks WHERE board = ?1 AND last < ?2"
    static let deleteRingBlocks = "DELETE FROM history_blocks WHERE board = ?1 AND ring = ?2"
    static let deleteBoardBlocks = "DELETE FROM history_blocks WHERE board = ?1"
    /// A ring's blocks holding points from millisecond ?3 on, oldest first.
    static let selectBlocks = """
        SELECT points FROM history_blocks WHERE board = ?1 AND ring = ?2 AND last >= ?3 ORDER BY first, revision
        """
    /// A ring's points waiting for a block from millisecond ?3 on, oldest first (the writer packs them all: ?3 the
    /// earliest).
    static let selectTailPoints = """
        SELECT time, revision, value, status FROM history WHERE board = ?1 AND ring = ?2 AND time >= ?3
        ORDER BY time, revision
        """
    /// A ring's points beyond the newest ?3 go (`HistoryBound`).
    static let trimPointsByCount = """
        DELETE FROM history WHERE board = ?1 AND ring = ?2 AND (time, revision) <= (
            SELECT time, revision FROM history WHERE board = ?1 AND ring = ?2 ORDER BY time DESC, revision DESC LIMIT 1 OFFSET ?3)
        """
    /// A ring's points before millisecond ?3 go.
    static let trimPointsByTime = "DELETE FROM history WHERE board = ?1 AND ring = ?2 AND time < ?3"
    /// A board's points before millisecond ?2 go, whatever the ring (with each snapshot of the board).
    static let trimBoardPointsByTime = "DELETE FROM history WHERE board = ?1 AND time < ?2"
    static let deleteRingPoints = "DELETE FROM history WHERE board = ?1 AND ring = ?2"
    static let deleteBoardPoints = "DELETE FROM history WHERE board = ?1"
    static let selectBoards = "SELECT name, revision, state FROM boards ORDER BY name"
    static let upsertPlaylist = """
        INSERT INTO playlists (name, definition) VALUES (?1, ?2)
        ON CONFLICT (name) DO UPDATE SET definition = excluded.definition
        """
    static let deletePlaylist = "DELETE FROM playlists WHERE name = ?1"
    static let selectPlaylists = "SELECT name, definition FROM playlists ORDER BY name"
    /// The probe's tiny durable write: one row changes, so the commit appends to the WAL and fsyncs.
    static let countProbe = "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'probes'"
    /// Whether another connection committed since this one last asked (SQLite's own counter).
    static let dataVersion = "PRAGMA data_version"

    /// Marks the database open (`open` = '1') and checkpoints, so that the mark is in the database
    /// file itself and not only in the -wal; returns the mark found before: '1' when the last
    /// ringcast to open the database did not close it (it was killed), '0' after a clean close,
    /// nil for a database from before the mark.
    static func markOpen(_ connection: SQLiteConnection) throws(StorageError) -> String? {
        let previous = try connection.queryText("SELECT value FROM meta WHERE key = 'open'")
        try connection.execute("INSERT INTO meta (key, value) VALUES ('open', '1') ON CONFLICT (key) DO UPDATE SET value = '1'")
        // TRUNCATE also empties the -wal, so the WAL after this start holds only this run's writes.
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return previous
    }

    /// The clean close's mark: SQLite copies the -wal into the database and deletes it next.
    static func markClosed(_ connection: SQLiteConnection) throws(StorageError) {
        try connection.execute("UPDATE meta SET value = '0' WHERE key = 'open'")
    }

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
            try connection.execute("CREATE TABLE IF NOT EXISTS playlists (name TEXT PRIMARY KEY, definition BLOB NOT NULL)")
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS changes (board TEXT NOT NULL, revision INTEGER NOT NULL, tick INTEGER NOT NULL,
                fps INTEGER NOT NULL, change BLOB NOT NULL, PRIMARY KEY (board, revision)) WITHOUT ROWID
                """)
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS history (board TEXT NOT NULL, ring TEXT NOT NULL, time INTEGER NOT NULL,
                revision INTEGER NOT NULL, value REAL NOT NULL, status TEXT, PRIMARY KEY (board, ring, time, revision))
                WITHOUT ROWID
                """)
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS history_blocks (board TEXT NOT NULL, ring TEXT NOT NULL, first INTEGER NOT NULL,
                revision INTEGER NOT NULL, last INTEGER NOT NULL, count INTEGER NOT NULL, points BLOB NOT NULL,
                PRIMARY KEY (board, ring, first, revision)) WITHOUT ROWID
                """)
            try connection.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('format', '\(format)'), ('probes', '0')")
            // Format 1 held snapshots only, format 2 no history, format 3 no blocks: with what they lack added
            // (empty) they are format 4 (a format 3 file's points move into blocks as the writer opens).
            try connection.execute("UPDATE meta SET value = '\(format)' WHERE key = 'format' AND value IN ('1', '2', '3')")
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
