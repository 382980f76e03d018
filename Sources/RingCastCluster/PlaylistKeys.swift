/// The Redis keys and channel of the cluster's playlists. Playlists are small and few
/// (`Limits.maximumPlaylists`), so they live in one hash that every node reads whole.
///
/// | name | type | content |
/// | --- | --- | --- |
/// | `rc:playlists` | hash | playlist name → its stored definition (`Playlist.stored`, JSON with its anchor) |
/// | `rc:playlists:changed` | pub/sub channel | the name of each playlist written or deleted |
public enum PlaylistKeys {
    public static let hash = "rc:playlists"
    public static let channel = "rc:playlists:changed"
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
