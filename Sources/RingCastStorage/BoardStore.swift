/// The protocol the server talks to, so that a Redis implementation can be added later.
public protocol BoardStore: AnyObject, Sendable {
    /// Every stored record (each board's newest snapshot), read at start (synchronously, before the event loop runs).
    func loadAll() throws(StorageError) -> [StoredRecord]

    /// Every logged change after its board's snapshot, by board and then revision, read at start after `loadAll` (a
    /// start replays them onto the snapshots).
    func loadChanges() throws(StorageError) -> [StoredChange]

    /// Queues snapshots to be written durably (an upsert per board; a later record for the same
    /// board replaces the earlier); each leaves of its board's change log what the store's
    /// `ChangeRetention` keeps. `completion` runs exactly once, on the store's writer thread,
    /// after the transaction holding these records has been committed and fsynced (nil) or has
    /// failed (the error). Never blocks the caller: it only appends to a queue.
    func write(_ records: [StoredRecord], completion: @escaping @Sendable (StorageError?) -> Void)

    /// Appends a change to its board's log, durably, in the order given; same completion rules as write. A change
    /// whose bytes cannot be made fails the store as a failed commit does (its batch and every write after it fail
    /// until a probe succeeds), so a log never has a gap.
    func append(_ change: StoredChange, completion: @escaping @Sendable (StorageError?) -> Void)

    /// Removes a board's record and its change log (used later for deleted boards); same completion rules as write.
    func delete(board: String, completion: @escaping @Sendable (StorageError?) -> Void)

    /// The points of one ring's history that the store keeps now (`HistoryBound`) within the query's times, oldest
    /// first, read synchronously on the caller's thread through a read-only connection of its own.
    func history(_ query: HistoryQuery) throws(StorageError) -> [HistoryRow]

    /// Every stored playlist, read at start (synchronously, before the event loop runs).
    func loadPlaylists() throws(StorageError) -> [StoredPlaylist]

    /// Queues a playlist to be written durably (an upsert by name); same completion rules as write.
    func write(playlist: StoredPlaylist, completion: @escaping @Sendable (StorageError?) -> Void)

    /// Removes a playlist; same completion rules as write.
    func delete(playlist: String, completion: @escaping @Sendable (StorageError?) -> Void)

    /// Whether the last commit (or probe) succeeded. After a failed commit every write queued
    /// behind it fails too, with the same error, until a probe succeeds: the server reverts its
    /// memory on the first failure and needs nothing of that era to land afterwards.
    var isHealthy: Bool { get }

    /// Tries a tiny durable write off the caller's thread; completion on the writer thread with
    /// nil when the store can commit again (then isHealthy is true again and writes are
    /// accepted), else the error.
    func probe(completion: @escaping @Sendable (StorageError?) -> Void)

    /// Checks, off the caller's thread and without writing, that the store still owns its data
    /// directory (nobody deleted or replaced its database, nobody else committed to it, and it holds
    /// its LOCK file, taken again if it was lost and nobody else holds it). Completion on the writer
    /// thread with nil, or the error the store now fails with, as after a failed commit: writes fail
    /// with it until a probe succeeds.
    func check(completion: @escaping @Sendable (StorageError?) -> Void)

    /// Waits for every queued write to finish, then closes the database and releases the lock.
    /// Idempotent.
    func close()
    /// Commits, records written, the largest batch and failed commits since the store opened.
    var statistics: StorageStatistics { get }
}
