/// Counters for metrics and the benchmark, as of the last finished transaction.
public struct StorageStatistics: Sendable, Equatable {
    /// Write/delete transactions committed (probes are not counted).
    public var commits: Int
    /// Records handed to `write` whose transaction committed (a board written twice counts twice).
    public var recordsWritten: Int
    /// The most records and deletions queued into one committed transaction.
    public var largestBatch: Int
    /// Write/delete transactions that failed and were rolled back (the writes failed behind
    /// them without a transaction are not counted).
    public var failedCommits: Int

    public init(commits: Int = 0, recordsWritten: Int = 0, largestBatch: Int = 0, failedCommits: Int = 0) {
        self.commits = commits
        self.recordsWritten = recordsWritten
        self.largestBatch = largestBatch
        self.failedCommits = failedCommits
    }
}
