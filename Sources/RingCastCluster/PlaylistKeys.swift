/// The Redis keys and channel of the cluster's playlists. Playlists are small and few
/// (`Limits.maximumPlaylists`), so they live in one hash that every node reads whole.
///
/// | name | type | content |
/// | --- | --- | --- |
/// | `rc:playlists` | hash | playlist name → its stored definition (`Playlist.stored`, JSON with its anchor) |
/// | `rc:playlists:changed` | pub/sub channel | the name of each playlist written or deleted |
/// | `rc:playlists:idem:KEY` | hash, expires after 300 s or sooner (the budget, `BoardKeys.idempotencyBudget`) | `digest` and `answer`, as a board's |
/// | `rc:playlists:rate:CLIENT` | hash, expires 61 s after its last write | the client's token bucket for playlist writes, as a board's |
public enum PlaylistKeys {
    public static let hash = "rc:playlists"
    public static let channel = "rc:playlists:changed"
    public static func idempotency(_ key: String) -> String { "rc:playlists:idem:" + key }
    public static func rate(_ client: String) -> String { "rc:playlists:rate:" + client }
}

/// What `RedisConnection.writePlaylist` did.
public enum PlaylistWriteOutcome: Sendable, Equatable {
    /// Stored (or deleted) and announced on `PlaylistKeys.channel`.
    case written
    /// `If-Match` no longer holds: the playlist is not the one expected (or is gone).
    case preconditionFailed
    /// A deletion of a playlist Redis does not hold.
    case notFound
    /// A new playlist beyond the most the cluster holds.
    case limitExceeded
    /// The client's bucket is empty; a token is back after `retryAfter` seconds (≥ 1).
    case rateLimited(retryAfter: Int)
    /// The Idempotency-Key was used before with the same request: its first answer, nothing changed.
    case replay(answer: [UInt8])
    /// The Idempotency-Key was used before with another request; nothing changed.
    case keyReused
}

/// Who sent a playlist write and its Idempotency-Key, checked in the write's script as a board write's are
/// (`BoardWrite`): the rate limit first, then the key, then the write.
public struct PlaylistWriteAdmission: Sendable, Equatable {
    /// Whose rate bucket the write counts against.
    public var client: String
    /// Writes per minute per client (all playlists together); 0 for no limit.
    public var rateLimitPerMinute: Int
    public var idempotency: BoardWrite.Idempotency?
    /// The answer to keep for replays of the same Idempotency-Key (ignored without one).
    public var answer: [UInt8]
    /// The bytes every Idempotency-Key answer, boards' and playlists', may take together; 0 keeps none.
    public var idempotencyBytes: Int
    /// How long an answer is kept.
    public var idempotencySeconds: Int

    public init(
        client: String = "", rateLimitPerMinute: Int = 0, idempotency: BoardWrite.Idempotency? = nil,
        answer: [UInt8] = [], idempotencyBytes: Int = 4 << 20, idempotencySeconds: Int = 300
    ) {
        self.client = client
        self.rateLimitPerMinute = rateLimitPerMinute
        self.idempotency = idempotency
        self.answer = answer
        self.idempotencyBytes = idempotencyBytes
        self.idempotencySeconds = idempotencySeconds
    }
}

/// What a playlist write expects of the playlist Redis holds (`If-Match`).
public enum PlaylistExpectation: Sendable, Equatable {
    /// Nothing: no `If-Match`.
    case none
    /// That there is one (`If-Match: *`).
    case exists
    /// That there is none (`If-None-Match: *`): the write only creates.
    case absent
    /// That it is exactly these bytes (the definition the ETag names).
    case definition([UInt8])
}
