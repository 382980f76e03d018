import RingCastCluster
import RingCastCore

/// Where playlist writes are committed: the embedded store (`BoardWriter`) or Redis (`ClusterNode`). Touched only
/// on the service thread.
protocol PlaylistBackend: AnyObject {
    /// The earliest tick a write accepted when the grid is at `now` may take effect at (`BoardBackend`).
    func earliestStart(now: Int64) -> Int64

    /// Makes `playlist` (nil: the deletion of the playlist `name`) durable if `expected` holds (`If-Match`) and, for
    /// a new one, fewer than `Limits.maximumPlaylists` are held, then calls `completion` on the service thread
    /// with what happened — or the 503 that says why it could not be stored. Applying it is the caller's.
    func commit(
        playlist name: String, _ playlist: Playlist?, expected: PlaylistExpectation,
        completion: @escaping (Result<PlaylistWriteOutcome, APIError>) -> Void)
}
