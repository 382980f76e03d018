import RingCastCluster
import RingCastCore
import RingCastTransport

/// Playlists in a cluster: written through Redis's playlist script (the rate limit, the Idempotency-Key, If-Match,
/// If-None-Match and the limit checked there, atomically, as a board's write script does), served here at once and
/// on every other node once the notification's reading brings them (`PlaylistSync`).
extension ClusterNode: PlaylistBackend {
    /// Both are checked in the write's script, atomically with the write.
    func admitPlaylistWrite(from peer: String, idempotency: WriteIntent.Idempotency?) throws(APIError) -> Admission {
        .proceed
    }

    /// The script keeps the first answer under the key.
    func finishedPlaylistWrite(_ idempotency: WriteIntent.Idempotency?, with response: HTTPResponse?) {}

    func commit(
        playlist name: String, _ playlist: Playlist?, expected: PlaylistExpectation, request: PlaylistWriteRequest,
        completion: @escaping (Result<PlaylistWriteOutcome, APIError>) -> Void
    ) {
        if let problem {
            return completion(.failure(.storageUnavailable("writes are refused right now (\(problem)); nothing was changed")))
        }
        guard let queue else {
            return completion(.failure(.storageUnavailable("the node is starting; nothing was changed")))
        }
        let stored: [UInt8]?
        do {
            stored = try playlist?.stored()
        } catch {
            return completion(.failure(.unencodable(error)))
        }
        let admission = PlaylistWriteAdmission(
            client: request.client, rateLimitPerMinute: writesPerMinute,
            idempotency: request.idempotency.map { .init(key: $0.key, requestDigest: $0.digest.bytes) },
            answer: ClusterAnswer.encode(request.preview), idempotencyBytes: idempotencyBytes)
        let replicas = replicas
        let node = ServiceThreadBound(value: self)
        let done = ServiceThreadBound(value: completion)
        worker.submit { session in
            let result: Result<PlaylistWriteOutcome, RedisError>
            do throws(RedisError) {
                let outcome = try session.connection.writePlaylist(
                    name, definition: stored, expected: expected, maximum: Limits.maximumPlaylists, admission: admission)
                if outcome == .written, replicas > 0 {
                    _ = try session.connection.wait(replicas: replicas, timeoutMilliseconds: 1000)
                }
                result = .success(outcome)
            } catch {
                result = .failure(error)
            }
            queue.async { node.value.playlistWritten(name, stored: stored, result, completion: done.value) }
        }
    }

    private func playlistWritten(
        _ name: String, stored: [UInt8]?, _ result: Result<PlaylistWriteOutcome, RedisError>,
        completion: (Result<PlaylistWriteOutcome, APIError>) -> Void
    ) {
        switch result {
        case .success(let outcome):
            commandAnswered(nil, write: outcome == .written)
            if outcome == .written { playlistSync.wrote(name, stored: stored) }
            completion(.success(outcome))
        case .failure(let error):
            commandAnswered(error, write: true)
            completion(
                .failure(
                    .storageUnavailable(
                        "the playlist may not have been stored (Redis at \(endpoint.address): \(error)); GET it to see")))
        }
    }

    /// Carries out what the playlist state machine decided.
    func perform(_ actions: [PlaylistSync.Action]) {
        for action in actions {
            switch action {
            case .readAll: readPlaylists()
            case .serve(let playlist):
                do {
                    try playlists?.set(playlist)
                } catch {
                    log(.error, "playlist \(playlist.name) from Redis cannot be encoded (\(error)); not serving it")
                }
            case .remove(let name): playlists?.remove(name)
            case .log(let level, let text):
                log(level, text)
            case .unexpected(let text):
                log(.error, "playlist sync: unexpected event, ignored: \(text)")
            }
        }
    }

    private func readPlaylists() {
        guard let queue else { return }
        let node = ServiceThreadBound(value: self)
        worker.submit { session in
            let result = Result { () throws(RedisError) in try session.connection.readPlaylists() }
            queue.async {
                switch result {
                case .success(let found): node.value.perform(node.value.playlistSync.allRead(found))
                case .failure(let error): node.value.perform(node.value.playlistSync.allReadFailed("\(error)"))
                }
            }
        }
    }
}
