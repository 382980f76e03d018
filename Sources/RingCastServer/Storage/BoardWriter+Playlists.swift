import RingCastCluster
import RingCastCore
import RingCastStorage
import RingCastTransport

/// Playlists in the embedded store: this server holds the only copy, and the handler commits one playlist write at
/// a time, so `If-Match` and the limit are checked against memory here; the write is answered once its batch is
/// durable. A failed commit stops writes until a probe commits again, as for boards. The rate limit and the
/// Idempotency-Key's answers are the ones board writes use: one bucket per client, one cache.
extension BoardWriter: PlaylistBackend {
    func admitPlaylistWrite(from peer: String, idempotency: WriteIntent.Idempotency?) throws(APIError) -> Admission {
        try admit(from: peer, idempotency: idempotency)
    }

    func finishedPlaylistWrite(_ idempotency: WriteIntent.Idempotency?, with response: HTTPResponse?) {
        finished(idempotency, with: response)
    }

    func commit(
        playlist name: String, _ playlist: Playlist?, expected: PlaylistExpectation, request: PlaylistWriteRequest,
        completion: @escaping (Result<PlaylistWriteOutcome, APIError>) -> Void
    ) {
        guard let queue, problem == nil else {
            return completion(
                .failure(
                    .storageUnavailable(
                        "the store cannot commit writes right now (\(problem ?? "starting")); nothing was changed")))
        }
        let done = ServiceThreadBound(value: completion)
        let writer = ServiceThreadBound(value: self)
        let stored: @Sendable (StorageError?) -> Void = { error in
            queue.async {
                guard let error else { return done.value(.success(.written)) }
                writer.value.playlistNotStored(name, error)
                done.value(
                    .failure(
                        .storageUnavailable("the playlist could not be stored durably and was not changed (\(error.message))")))
            }
        }
        if let playlist {
            let definition: [UInt8]
            do {
                definition = try playlist.stored()
            } catch {
                logger.error("cannot store playlist \(name): \(error)")
                return completion(.failure(.unencodable(error)))
            }
            store.write(playlist: StoredPlaylist(name: name, definition: definition), completion: stored)
        } else {
            store.delete(playlist: name, completion: stored)
        }
    }

    private func playlistNotStored(_ name: String, _ error: StorageError) {
        logger.error("cannot store playlist \(name): \(error)")
        failed(error)
    }
}
