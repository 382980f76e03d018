import RingCastCluster
import RingCastCore
import RingCastTransport

/// Where playlist writes are committed: the embedded store (`BoardWriter`) or Redis (`ClusterNode`). A playlist
/// write takes the same steps as a board's (`Pipeline`), with the same answers: the client's rate and its
/// `Idempotency-Key` are checked where the backend keeps them (`admitPlaylistWrite` here, or Redis's script with the
/// write), `If-Match` and `If-None-Match` against the playlists as they are, then the commit. Touched only on the
/// service thread.
protocol PlaylistBackend: AnyObject {
    /// The earliest tick a write accepted when the grid is at `now` may take effect at (`BoardBackend`).
    func earliestStart(now: Int64) -> Int64

    /// Steps 4 and 5 of a playlist write from `peer`, as `BoardBackend.admit` for a board's: 429 past the rate, and a
    /// repeated `idempotency` key (its first answer again, 422 for another request under it, 409 while it is being
    /// applied). A backend that checks both in its commit (Redis's script) proceeds here.
    func admitPlaylistWrite(from peer: String, idempotency: WriteIntent.Idempotency?) throws(APIError) -> Admission

    /// The playlist write admitted with `idempotency` was answered with `response` (nil: refused before its commit,
    /// which frees the key), for `admitPlaylistWrite`'s replays.
    func finishedPlaylistWrite(_ idempotency: WriteIntent.Idempotency?, with response: HTTPResponse?)

    /// Makes `playlist` (nil: the deletion of the playlist `name`) durable if `expected` holds (`If-Match`,
    /// `If-None-Match`) and, for a new one, fewer than `Limits.maximumPlaylists` are held, then calls `completion` on
    /// the service thread with what happened — or the 503 that says why it could not be stored. Applying it is the
    /// caller's. `request` says who sent it, its key and the answer it gets if written (`PlaylistWriteRequest`).
    func commit(
        playlist name: String, _ playlist: Playlist?, expected: PlaylistExpectation, request: PlaylistWriteRequest,
        completion: @escaping (Result<PlaylistWriteOutcome, APIError>) -> Void)
}

/// What a playlist write brings to its commit besides the playlist: a backend that checks the rate and the
/// `Idempotency-Key` with the write (Redis's script) needs the client, the key and the answer to keep for a retry.
struct PlaylistWriteRequest {
    let client: String
    let idempotency: WriteIntent.Idempotency?
    /// The answer if the write is stored, computed before (as `PreparedWrite.preview` for a board).
    let preview: HTTPResponse
}
