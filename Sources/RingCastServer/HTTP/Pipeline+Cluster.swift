import Foundation
import RingCastCluster
import RingCastCore
import RingCastTransport

/// Steps 4–10 of a write in cluster mode (docs/CLUSTER.md): the rate limit, the Idempotency-Key, If-Match
/// and the revision's compare-and-set all run in Redis, in the one script that also stores the board's new
/// state and publishes the update; this node computes the update, its start tick (now + the lead) and the
/// answer beforehand, and applies the update once the script says it was applied.
extension Pipeline {
    /// How many times a write is computed again after another node's write to the board got in first.
    private static let conflictRetries = 16

    func clusterWrite(
        _ request: RouteRequest,
        needsBoard: Bool,
        decode: @escaping (RouteRequest) throws(APIError) -> BoardEdit,
        node: ClusterNode,
        _ respond: @escaping (HTTPResponse) -> Void
    ) throws(APIError) {
        let http = request.http
        if let problem = node.problem {
            throw .storageUnavailable("writes are refused right now (\(problem)); nothing was changed")
        }
        let idempotency = try Self.idempotencyKey(of: http).map { key in
            RingCastCluster.BoardWrite.Idempotency(
                key: key, requestDigest: Array(IdempotencyCache.digest(method: http.method, path: http.path, body: http.body)))
        }
        let precondition = try IfMatch(http.headers["if-match"], nonce: boards.etagNonce)
        let write = ClusterWriteRequest(
            request: request, needsBoard: needsBoard, decode: decode, idempotency: idempotency, precondition: precondition)
        node.serialize(board: request.parameter("board")) { [self] done in
            attempt(write, node: node, tries: 0) { response in
                respond(response)
                done()
            }
        }
    }

    /// Computes the write against this node's board and runs its script; after a conflict (another node's write
    /// got in first) the board is caught up and the write computed again.
    private func attempt(
        _ write: ClusterWriteRequest, node: ClusterNode, tries: Int, _ finish: @escaping (HTTPResponse) -> Void
    ) {
        let name = write.request.parameter("board")
        let prepared: PreparedClusterWrite
        do throws(APIError) {
            let board = write.needsBoard ? try boards.board(named: name) : boards[name]
            let edit = try write.decode(write.request)
            // The revision an ETag names is compared in Redis, with the write.
            switch write.precondition {
            case .none: break
            case .any, .revision: if board == nil { throw .noBoardToMatch(name, "\(write.precondition)") }
            case .stale(let tag): throw .changedSince(tag)
            }
            switch try prepare(try edit.write(board), of: board, named: name, body: write.request.http.body, node: node) {
            case .unchanged(let answer, let revision):
                // Nothing goes to Redis, so the ETag is compared here.
                if let expected = write.precondition.revision, expected != revision {
                    throw .changedSince("\(write.precondition)")
                }
                return finish(answer)
            case .write(let write): prepared = write
            }
        } catch {
            return finish(.error(error))
        }
        let script = RingCastCluster.BoardWrite(
            board: name,
            client: write.request.http.peer,
            // A retry after a conflict has already taken its token.
            rateLimitPerMinute: tries == 0 ? writesPerMinute : 0,
            idempotency: write.idempotency,
            ifMatch: write.precondition.revision,
            baseRevision: prepared.update.base,
            startTick: prepared.update.tick,
            stateDigest: prepared.update.digest,
            snapshot: prepared.snapshot,
            update: prepared.update.update,
            answer: ClusterAnswer.encode(prepared.answer),
            clusterID: boards.etagNonce)
        node.submit(script, update: prepared.update) { [self] result in
            // Computed again once caught up, unless the node found Redis behind it and refuses writes until it has
            // reloaded every board.
            let again = { [self] in
                if let problem = node.problem {
                    return finish(
                        .error(.storageUnavailable("writes are refused right now (\(problem)); nothing was changed")))
                }
                attempt(write, node: node, tries: tries + 1, finish)
            }
            switch result {
            case .outcome(.applied):
                finish(prepared.answer)
            case .replicasMissing(let acknowledged):
                finish(
                    .error(
                        .storageUnavailable(
                            "the write is stored in Redis but only \(acknowledged) of the required replicas acknowledged it in time"
                        )))
            case .outcome(.rateLimited(let wait)):
                finish(
                    .rateLimited(
                        "more than \(writesPerMinute) writes a minute to board \(name) from \(write.request.http.peer); retry in \(wait) s",
                        retryAfter: wait))
            case .outcome(.replay(let bytes)):
                guard var answer = ClusterAnswer.decode(bytes) else {
                    return finish(
                        .error(APIError(status: 500, code: "internal", message: "the stored first answer cannot be read")))
                }
                answer.headers.append((name: "Idempotent-Replayed", value: "true"))
                finish(answer)
            case .outcome(.keyReused):
                finish(.error(.idempotencyKeyReused))
            case .outcome(.preconditionFailed):
                finish(.error(.changedSince("\(write.precondition)")))
            case .outcome(.clusterChanged):
                // The ETags this write was computed under name another history now: an If-Match with one fails;
                // any other write is computed again once every board is reloaded under the new id.
                if write.precondition.revision != nil {
                    return finish(.error(.changedSince("\(write.precondition)")))
                }
                guard tries < Self.conflictRetries else {
                    return finish(
                        .error(.storageUnavailable("the cluster's id in Redis changed while this write was made; retry")))
                }
                node.catchUp(name, then: again)
            case .outcome(.conflict(let current)):
                guard tries < Self.conflictRetries else {
                    return finish(
                        .error(
                            .conflict(
                                "board \(name) is being changed through other nodes faster than this write could follow; retry")))
                }
                // Usually the subscription has brought the other node's update by now; else (or when Redis
                // holds less than this node: it lost data or went back in time) read it.
                if node.revision(of: name) == current {
                    again()
                } else {
                    node.catchUp(name, then: again)
                }
            case .failed(let error):
                finish(
                    .error(.storageUnavailable("the write could not be stored in Redis and may not have been applied (\(error))"))
                )
            }
        }
    }

    /// The update a write makes, its resulting state and the answer, computed on a copy of the board: nothing
    /// changes here until Redis has applied it.
    private func prepare(
        _ plan: BoardWrite, of board: LiveBoard?, named name: String, body: [UInt8], node: ClusterNode
    ) throws(APIError) -> Prepared {
        let now = clock.currentTick()
        let earliest = now + node.leadTicks
        let fps = clock.fps
        switch plan {
        case .change(let change, let answer):
            guard let board else { throw APIError.notFound("no board named \"\(name)\"", field: "board") }
            var trial = board.animator
            let base = Int64(trial.revision)
            let start = try trial.accept(change, at: max(earliest, board.startTick(now: now)), now: board.now(now))
            guard trial.revision == Int(base) + 1 else { return .unchanged(answers.answer(answer, of: board), revision: base) }
            let preview = LiveBoard(animator: trial, etag: boards.etag(revision: base + 1))
            return .write(
                PreparedClusterWrite(
                    name: name, base: base, start: start, change: ClusterUpdate.Change(change, body: body),
                    state: trial.state, settled: trial.settledState, answer: answers.answer(answer, of: preview)))
        case .create(let spec):
            try boards.checkRoom()
            let base = boards.previousRevision(of: name)
            let animator = try ClusterNode.createdAnimator(spec: spec, fps: fps, base: base, startTick: earliest)
            let preview = LiveBoard(animator: animator, etag: boards.etag(revision: base + 1))
            return .write(
                PreparedClusterWrite(
                    name: name, base: base, start: earliest, change: .restructure(spec), state: animator.state,
                    settled: animator.settledState, answer: answers.created(preview)))
        case .delete:
            guard let board else { throw APIError.notFound("no board named \"\(name)\"", field: "board") }
            let base = Int64(board.animator.revision)
            let tombstone = BoardState.tombstone(of: name, revision: base + 1, fps: fps)
            return .write(
                PreparedClusterWrite(
                    name: name, base: base, start: earliest, change: .delete, state: tombstone, settled: tombstone,
                    answer: HTTPResponse(status: 204)))
        }
    }

    private enum Prepared {
        /// The write changes nothing (e.g. cancelling a countdown that is not running): answered at once, the
        /// board staying at `revision`.
        case unchanged(HTTPResponse, revision: Int64)
        case write(PreparedClusterWrite)
    }
}

/// One write in cluster mode, as it is computed again after a conflict.
private struct ClusterWriteRequest {
    let request: RouteRequest
    let needsBoard: Bool
    let decode: (RouteRequest) throws(APIError) -> BoardEdit
    let idempotency: RingCastCluster.BoardWrite.Idempotency?
    let precondition: IfMatch
}

/// A write computed against this node's board, ready for its script.
private struct PreparedClusterWrite {
    let update: BoardUpdate
    let snapshot: [UInt8]
    let answer: HTTPResponse

    /// `state` is stored as the snapshot nodes joining later start from; its settled form (`settled`) is what
    /// every node compares once it applied the update.
    init(
        name: String, base: Int64, start: Int64, change: ClusterUpdate.Change, state: BoardState, settled: BoardState,
        answer: HTTPResponse
    ) {
        let digest = ClusterUpdate.digest(of: settled)
        let travelling = ClusterUpdate(
            board: name, baseRevision: base, revision: base + 1, startTick: start, change: change, digest: digest)
        update = BoardUpdate(
            revision: base + 1, base: base, tick: start, digest: ClusterAnswer.digestBytes(digest),
            update: (try? JSONEncoder().encode(travelling)).map { Array($0) } ?? [])
        snapshot = (try? StateCodec.encode(state)) ?? []
        self.answer = answer
    }
}

/// `If-Match` in cluster mode: the revision its ETag names (checked in Redis), `*`, or a tag of another
/// cluster or run (refused here).
enum IfMatch: CustomStringConvertible {
    case none
    case any
    case revision(Int64, tag: String)
    case stale(String)

    init(_ header: String?, nonce: String) throws(APIError) {
        guard let header else {
            self = .none
            return
        }
        if header == "*" {
            self = .any
            return
        }
        // "REVISION-NONCE", as `Boards.etag` makes it.
        let inner = header.hasPrefix("\"") && header.hasSuffix("\"") && header.count >= 2 ? header.dropFirst().dropLast() : ""
        guard let dash = inner.firstIndex(of: "-"), let revision = Int64(inner[..<dash]),
            inner[inner.index(after: dash)...] == nonce
        else {
            self = .stale(header)
            return
        }
        self = .revision(revision, tag: header)
    }

    var revision: Int64? {
        if case .revision(let revision, _) = self { return revision }
        return nil
    }

    var description: String {
        switch self {
        case .none: "no If-Match"
        case .any: "*"
        case .revision(_, let tag), .stale(let tag): tag
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
        case .startCountdown(let seconds): self = .startCountdown(seconds: seconds)
        case .cancelCountdown: self = .cancelCountdown
        case .restructure(let spec): self = .restructure(spec)
        }
    }
}
