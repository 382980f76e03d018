import Foundation
import RingCastCluster
import RingCastCore
import RingCastStorage
import RingCastTransport

/// A cluster node as the pipeline's backend (docs/CLUSTER.md): the rate limit, the Idempotency-Key, If-Match
/// and the revision's compare-and-set all run in Redis, in the one script that also stores the board's new
/// state and publishes the update; the pipeline computes the update, its start tick (now + the lead) and the
/// answer beforehand, and the node applies the update once the script says it was applied.
extension ClusterNode: BoardBackend {
    /// How many times a write is computed again after another node's write to the board got in first.
    private static let conflictRetries = 16

    var storeStatistics: StorageStatistics? { nil }

    var nodeName: String? { name }

    func name(_ name: String) {
        self.name = name
    }

    func earliestStart(now: Int64) -> Int64 { now + leadTicks }

    /// Both are checked in the write's script, atomically with the write.
    func admit(_ write: WriteIntent) throws(APIError) -> Admission { .proceed }

    /// The script keeps the first answer under the key.
    func finished(_ write: WriteIntent, with response: HTTPResponse?) {}

    func attach(queue: any ServiceQueue, broadcaster: Broadcaster) {
        self.broadcaster = broadcaster
        start(queue: queue)
    }

    /// The configured boards change; those a reload adds start from what Redis holds of them.
    func apply(_ configuration: RingCastConfiguration, added: [LiveBoard]) {
        writesPerMinute = configuration.writesPerMinute
        idempotencyBytes = configuration.idempotencyCacheBytes
        configured = Dictionary(configuration.boards.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        if !added.isEmpty { catchUpAll() }
    }

    func commit(
        _ prepared: PreparedWrite, of write: WriteIntent, attempt: Int, completion: @escaping (CommitOutcome) -> Void
    ) {
        if let problem {
            return completion(
                .answered(.error(.storageUnavailable("writes are refused right now (\(problem)); nothing was changed"))))
        }
        let name = prepared.name
        let update: ClusterUpdate.Prepared
        do throws(EncodingFailure) {
            update = try ClusterUpdate.Prepared(prepared)
        } catch {
            // Nothing was sent to Redis: no node stores, publishes or applies it.
            logger.error("write to board \(name) not published: \(error)")
            return completion(.answered(.error(.unencodable(error))))
        }
        // The answer is made once the write landed; before, only when Redis keeps it for the Idempotency-Key. A write
        // that meets a conflict is computed again, answer and all, so one made before would often be thrown away.
        let kept = write.idempotency == nil ? nil : prepared.preview()
        var script = RingCastCluster.BoardWrite(
            board: name,
            client: write.http.peer,
            // A retry after a conflict has already taken its token.
            rateLimitPerMinute: attempt == 0 ? writesPerMinute : 0,
            idempotency: write.idempotency.map { .init(key: $0.key, requestDigest: $0.digest.bytes) },
            idempotencyBytes: idempotencyBytes,
            ifMatch: write.precondition.revision,
            ifNoneMatch: write.createOnly,
            baseRevision: update.update.base,
            startTick: update.update.tick,
            stateDigest: update.update.digest,
            update: update.update.update,
            answer: kept.map(ClusterAnswer.encode) ?? [],
            clusterID: boards.etagNonce)
        let history = prepared.history
        let milliseconds = StoredHistory.milliseconds(tick: update.update.tick, fps: clock.fps)
        script.history = history.points.map {
            RingHistory.Point(
                ring: $0.ring, milliseconds: milliseconds, revision: update.update.revision, value: $0.value,
                status: $0.status?.rawValue)
        }
        script.removedHistory = history.removed
        script.historyBound = prepared.spec.map { RingHistory.Bound(historyRetention.of($0)) }
        var projection: LiveBoard?
        if case .change(_, _, let after) = prepared.kind {
            projection = LiveBoard(animator: after, etag: boards.etag(revision: update.update.revision))
        }
        let (ticket, id, after) = sending(name, projection: projection)
        script.id = id
        script.after = after
        submit(script, update: update.update) { [self] result in
            // Computed again once caught up, unless the node found Redis behind it and refuses writes until it has
            // reloaded every board.
            let again = { [self] in
                if let problem {
                    return completion(
                        .answered(.error(.storageUnavailable("writes are refused right now (\(problem)); nothing was changed"))))
                }
                completion(.again)
            }
            let answer: HTTPResponse
            switch result {
            case .outcome(.applied):
                answer = kept ?? prepared.preview()
            case .replicasMissing(let acknowledged):
                answer = .error(
                    .storageUnavailable(
                        "the write is stored in Redis but only \(acknowledged) of the required replicas acknowledged it in time"))
            case .outcome(.rateLimited(let wait)):
                answer = .rateLimited(
                    "more than \(writesPerMinute) writes a minute to board \(name) from \(write.http.peer); retry in \(wait) s",
                    retryAfter: wait)
            case .outcome(.replay(let bytes)):
                guard var replayed = ClusterAnswer.decode(bytes) else {
                    answer = .error(APIError(status: 500, code: "internal", message: "the stored first answer cannot be read"))
                    break
                }
                replayed.headers.append((name: "Idempotent-Replayed", value: "true"))
                answer = replayed
            case .outcome(.keyReused):
                answer = .error(.idempotencyKeyReused)
            case .outcome(.preconditionFailed):
                answer = .error(write.createOnly ? .alreadyExists("board \"\(name)\"") : .changedSince("\(write.precondition)"))
            case .outcome(.clusterChanged):
                // The ETags this write was computed under name another history now: an If-Match with one fails;
                // any other write is computed again once every board is reloaded under the new id.
                if write.precondition.revision != nil {
                    answer = .error(.changedSince("\(write.precondition)"))
                    break
                }
                guard attempt < Self.conflictRetries else {
                    answer = .error(.storageUnavailable("the cluster's id in Redis changed while this write was made; retry"))
                    break
                }
                return computeAgain(name, ticket: ticket) { [self] in catchUp(name, then: again) }
            case .outcome(.conflict(let current)):
                guard attempt < Self.conflictRetries else {
                    answer = .error(
                        .conflict("board \(name) is being changed through other nodes faster than this write could follow; retry")
                    )
                    break
                }
                // Computed again once this node's writes sent before it are answered (they may not land either). Usually
                // the subscription has brought the other node's update by then; else (or when Redis holds less than this
                // node: it lost data or went back in time) read it.
                return computeAgain(name, ticket: ticket) { [self] in
                    revision(of: name) >= current ? again() : catchUp(name, then: again)
                }
            case .failed(let error):
                answer = .error(
                    .storageUnavailable("the write could not be stored in Redis and may not have been applied (\(error))"))
            }
            completion(.answered(answer))
        }
        // Sent: the next write may be computed on it (when this one was computed later than the writes it waited
        // behind, after a catch-up or a layout planned off the loop, nothing else starts it).
        pump(name)
    }
}

extension ClusterUpdate {
    /// A write prepared by the pipeline as it travels: the update every node applies (and Redis keeps in the board's
    /// stream; the whole state is written as a snapshot now and then, off the write path: `ClusterNode.writeSnapshot`).
    struct Prepared {
        let update: BoardUpdate

        /// The settled form of `prepared`'s state is what every node compares (by digest) once it applied the update.
        /// Throws when the digest or the update cannot be encoded (a non-finite number): then there is nothing to
        /// publish.
        init(_ prepared: PreparedWrite) throws(EncodingFailure) {
            let change: ClusterUpdate.Change
            switch prepared.kind {
            case .change(_, let applied, _): change = ClusterUpdate.Change(applied, body: prepared.body)
            case .create(let spec, _, nil): change = .restructure(spec)
            case .create(let spec, _, let then?): change = .grow(spec, then: ClusterUpdate.Change(then, body: prepared.body))
            case .delete: change = .delete
            }
            let (base, start) = (prepared.base, prepared.start)
            let digest = try ClusterUpdate.digest(of: prepared.settled())
            let travelling = ClusterUpdate(
                board: prepared.name, baseRevision: base, revision: base + 1, startTick: start, change: change, digest: digest)
            let encoded: [UInt8]
            do {
                encoded = Array(try JSONEncoder().encode(travelling))
            } catch {
                throw EncodingFailure(encoding: ClusterUpdate.self, error)
            }
            update = BoardUpdate(
                revision: base + 1, base: base, tick: start, digest: ClusterAnswer.digestBytes(digest), update: encoded)
        }
    }
}

extension ClusterUpdate.Change {
    /// The change as it travels: a body as the client sent it (every node decodes it with the same code), or
    /// what the accepting node computed.
    init(_ change: Animator.Change, body: [UInt8]) {
        switch change {
        case .patch: self = .patch(body: body)
        case .ring(let id, _): self = .ring(id, body: body)
        case .background: self = .background(body: body)
        case .startCountdown(let seconds, let animated): self = .startCountdown(seconds: seconds, animated: animated)
        case .cancelCountdown: self = .cancelCountdown
        case .restructure(let spec): self = .restructure(spec)
        case .grow(let spec, let then): self = .grow(spec, then: ClusterUpdate.Change(then, body: body))
        }
    }
}
