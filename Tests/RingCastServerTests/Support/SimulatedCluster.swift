import Foundation
import RingCastCluster
import RingCastCore

@testable import RingCastServer

/// A small seeded PRNG (SplitMix64, Steele, Lea & Flood 2014): the same seed gives the same run.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// 0 ..< bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
}

/// Redis as the write script, the snapshot script, the catch-up readings, the cluster's id and the playlists' hash see
/// it, in memory: a revision, a snapshot with the revision it covers and a stream per board, the playlists, and a
/// cluster id.
/// It is the model's reference: what it holds once the cluster is quiet is what every node must show. It can be
/// down, refuse writes (out of memory, a read-only replica), restart, and come back with an older copy of its data
/// (a rollback).
final class SimulatedRedis {
    struct Stored: Equatable {
        var revision: Int64
        /// The newest snapshot (empty: none yet) and the revision it covers (0: none).
        var snapshot: [UInt8]
        var covers: Int64 = 0
        var stream: [BoardUpdate]
    }

    /// The entries a stream keeps at least besides those after the snapshot (`WriteScript`'s ARGV[9]): small, so
    /// that the model trims.
    static let streamLength = 4

    /// Everything Redis holds, as a copy saved for a rollback.
    struct Data {
        var boards: [String: Stored]
        var playlists: [String: [UInt8]]
        var clusterID: String?
    }

    var boards: [String: Stored] = [:]
    var playlists: [String: [UInt8]] = [:]
    var clusterID: String?
    var up = true
    /// Set while Redis refuses writes (an `OOM …` or `READONLY …` error reply).
    var refusal: RedisError?
    /// Ids replaced by `renew`, for the announcement each one makes.
    var announced: [String] = []

    var data: Data {
        get { Data(boards: boards, playlists: playlists, clusterID: clusterID) }
        set { (boards, playlists, clusterID) = (newValue.boards, newValue.playlists, newValue.clusterID) }
    }

    private func check() throws(RedisError) {
        guard up else { throw .io(endpoint: "sim:6379", reason: "Connection refused") }
    }

    private func checkWrite() throws(RedisError) {
        try check()
        if let refusal { throw refusal }
    }

    func ping() throws(RedisError) { try check() }

    func probeWrite() throws(RedisError) { try checkWrite() }

    /// The write script's compare-and-set and write (no rate limit, no idempotency here): the change only.
    func script(board: String, update: BoardUpdate, clusterID: String) throws(RedisError) -> WriteOutcome {
        try check()
        guard self.clusterID == clusterID else { return .clusterChanged(id: self.clusterID ?? "") }
        let current = boards[board]?.revision ?? 0
        guard update.base == current else { return .conflict(current: current) }
        if let refusal { throw refusal }
        var stored = boards[board] ?? Stored(revision: 0, snapshot: [], stream: [])
        stored.revision = update.revision
        stored.stream.append(update)
        trim(&stored)
        boards[board] = stored
        return .applied(revision: update.revision, streamID: "\(update.revision)-0")
    }

    /// `SnapshotScript`: taken when newer than the one held and of the history held.
    func writeSnapshot(board: String, revision: Int64, digest: [UInt8], state: [UInt8], newest: Bool) throws(RedisError)
        -> SnapshotScript.Outcome
    {
        try checkWrite()
        guard var stored = boards[board], revision > stored.covers, revision <= stored.revision,
            !newest || revision == stored.revision,
            let entry = stored.stream.first(where: { $0.revision == revision })
        else { return .stale(covers: boards[board]?.covers ?? 0) }
        guard entry.digest == digest else { return .otherHistory }
        (stored.snapshot, stored.covers) = (state, revision)
        trim(&stored)
        boards[board] = stored
        return .written
    }

    /// Keeps what the snapshot does not cover and the newest `streamLength` entries, as `MINID` does.
    private func trim(_ stored: inout Stored) {
        let keep = min(stored.covers + 1, stored.revision - Int64(Self.streamLength) + 1)
        stored.stream.removeAll { $0.revision < keep }
    }

    /// `RedisConnection.readBoard`: the snapshot, and the stream from `revision` while it holds that entry, else from the
    /// first entry the snapshot does not cover.
    func read(_ board: String, from revision: Int64) throws(RedisError) -> ClusterSync.Reading {
        try check()
        guard let stored = boards[board] else { return ClusterSync.Reading(snapshot: nil, updates: [], from: revision) }
        var from = revision
        if from > stored.covers + 1, !stored.stream.contains(where: { $0.revision == from }) { from = stored.covers + 1 }
        return ClusterSync.Reading(
            snapshot: RingCastCluster.BoardSnapshot(revision: stored.revision, covers: stored.covers, snapshot: stored.snapshot),
            updates: stored.stream.filter { $0.revision >= from }, from: revision)
    }

    func id(candidate: String) throws(RedisError) -> String {
        try check()
        if clusterID == nil {
            try checkWrite()
            clusterID = candidate
        }
        return clusterID!
    }

    func renew(replacing: String, candidate: String) throws(RedisError) -> String {
        try checkWrite()
        if clusterID == nil || clusterID == replacing {
            clusterID = candidate
            announced.append(candidate)
        }
        return clusterID!
    }

    /// The playlist script, unconditional here: `definition` nil deletes.
    func writePlaylist(_ name: String, definition: [UInt8]?) throws(RedisError) {
        try checkWrite()
        playlists[name] = definition
    }

    func readPlaylists() throws(RedisError) -> [String: [UInt8]] {
        try check()
        return playlists
    }
}

/// One node as `ClusterNode` is, with the Redis worker, the subscription and the boards simulated: the same
/// `ClusterSync` and `PlaylistSync`, driven by the same loop (`ClusterSyncShell.perform`), applying updates through
/// the same `ClusterUpdate.outcome` and restoring snapshots through the same `StateCodec.decode` as the server. What
/// is here is only the I/O: the jobs, the subscription's deliveries and the boards held.
final class SimulatedNode: ClusterSyncShell {
    enum Job: Equatable {
        case script(board: String, update: BoardUpdate, clusterID: String)
        case snapshot(board: String, revision: Int64, digest: [UInt8], state: [UInt8], newest: Bool)
        case readBoard(String, from: Int64)
        case readAll(from: [String: Int64])
        case renew(replacing: String)
        case health(ClusterSync.Action)
        case writePlaylist(String, [UInt8]?)
        case readPlaylists
    }

    enum Message: Equatable {
        case update(board: String, BoardUpdate)
        case clusterID(String)
        case playlists
    }

    /// What a job published on Redis's channels.
    enum Published {
        case update(board: String, BoardUpdate)
        case playlists
    }

    let name: String
    let configured: [String: BoardSpec]
    let fps: Int
    var sync: ClusterSync
    var playlistSync: PlaylistSync
    /// The playlists served, as stored bytes, by name.
    var playlists: [String: [UInt8]] = [:]
    /// The boards served; `deleted` the revisions of the tombstones held.
    var animators: [String: Animator]
    var deleted: [String: Int64] = [:]
    var nonce: String
    /// The worker's queue, run in order.
    var jobs: [Job] = []
    /// What the subscription delivers, each at its tick or later, in any order.
    var inbox: [(due: Int64, message: Message)] = []
    var subscribed = false
    /// The tick of the last restore from a snapshot (or a start again), by board.
    var restoredAt: [String: Int64] = [:]
    /// How many times each board's animator was replaced (applied, restored, forgotten): what a cached digest of it
    /// is keyed by.
    var changes: [String: Int] = [:]
    /// Events the machines did not expect, and snapshots from Redis this node could not serve: each fails the test.
    var unexpected: [String] = []
    var log: [String] = []
    var now: Int64 = 0

    /// A node just started: its configured boards empty at revision 0, following Redis from its first reading.
    init(name: String, configured: [BoardSpec], fps: Int, tick: Int64, nonce: String) {
        self.name = name
        self.configured = Dictionary(uniqueKeysWithValues: configured.map { ($0.name, $0) })
        self.fps = fps
        self.nonce = nonce
        animators = Dictionary(uniqueKeysWithValues: configured.map { ($0.name, Animator(spec: $0, fps: fps, tick: tick)) })
        sync = ClusterSync(address: "sim:6379", nonce: nonce, revisions: configured.reduce(into: [:]) { $0[$1.name] = 0 })
        playlistSync = PlaylistSync(address: "sim:6379", held: [:])
        now = tick
    }

    /// The revision held of `board`: its animator's, its tombstone's, or 0.
    func revision(of board: String) -> Int64 {
        if let animator = animators[board] { return Int64(animator.revision) }
        return deleted[board] ?? 0
    }

    /// The tick a board's changes are computed at (`LiveBoard.now`): never before what it composed.
    func boardNow(_ board: String) -> Int64 { max(now, animators[board]?.composedThrough ?? .min) }

    // MARK: ClusterSyncShell

    func apply(_ update: BoardUpdate, toBoard board: String) -> ClusterSync.Applied {
        let outcome = ClusterUpdate.outcome(
            of: update, held: revision(of: board), animator: animators[board], fps: fps, now: boardNow(board))
        if case .unchanged = outcome {
        } else {
            changes[board, default: 0] += 1
            startTicks[board] = (update.revision, update.tick)
        }
        switch outcome {
        case .changed(_, let animator, _):
            animators[board] = animator
        case .created(_, _, let animator, _):
            animators[board] = animator
            deleted[board] = nil
        case .deleted:
            animators[board] = nil
            deleted[board] = update.revision
        case .unchanged:
            break
        }
        return outcome.applied
    }

    func carryOut(_ action: ClusterSync.Action) {
        switch action {
        case .apply(let board, let update):
            perform([.apply(board: board, update: update)])
        case .restore(let board, let snapshot, let updates):
            restore(board, snapshot, updates: updates)
        case .forget(let board):
            changes[board, default: 0] += 1
            deleted[board] = nil
            animators[board] = configured[board].map { Animator(spec: $0, fps: fps, tick: now) }
            restoredAt[board] = now
        case .readBoard(let board, let from):
            jobs.append(.readBoard(board, from: from))
        case .readAll(let from):
            jobs.append(.readAll(from: from))
        case .renewClusterID(let replacing):
            jobs.append(.renew(replacing: replacing))
        case .changeNonce(let nonce):
            self.nonce = nonce
        case .log(_, let text):
            note(text)
        case .unexpected(let text):
            unexpected.append("\(name) @\(now): \(text)")
        case .ping, .probeWrite, .boardCaughtUp, .everyBoardCaughtUp, .count:
            break
        }
    }

    func perform(_ actions: [PlaylistSync.Action]) {
        for action in actions {
            switch action {
            case .readAll: jobs.append(.readPlaylists)
            case .serve(let playlist):
                do {
                    playlists[playlist.name] = try playlist.stored()
                } catch {
                    note("playlist \(playlist.name) cannot be encoded: \(error)")
                }
            case .remove(let name): playlists[name] = nil
            case .log(_, let text): note(text)
            case .unexpected(let text): unexpected.append("\(name) @\(now): playlists: \(text)")
            }
        }
    }

    private func note(_ text: String) {
        log.append("@\(now) \(text)")
        if log.count > 40 { log.removeFirst() }
    }

    /// As `ClusterNode.restore`: the snapshot with the changes after it replayed (`ClusterUpdate.restoring`).
    private func restore(_ board: String, _ snapshot: RingCastCluster.BoardSnapshot, updates: [BoardUpdate]) {
        changes[board, default: 0] += 1
        do {
            let restored = try ClusterUpdate.restoring(
                snapshot, updates: updates, configured: configured[board], fps: fps, tick: now, source: "sim: board \(board)")
            // Redis's own stream replayed onto its own snapshot must give what each change's accepting node had: a
            // mismatch here is a write Redis took that was computed on another history. (A node applying a live update
            // may meet one: that is how it finds that it followed another history.)
            if !restored.skipped.isEmpty || restored.mismatch != nil {
                unexpected.append(
                    "\(name) @\(now): restoring \(board) skipped \(restored.skipped), mismatch \(restored.mismatch ?? "none")")
            }
            switch restored.board {
            case .served(let animator):
                animators[board] = animator
                deleted[board] = nil
                restoredAt[board] = now
            case .deleted:
                animators[board] = nil
                deleted[board] = restored.revision
            case .unconfigured:
                unexpected.append("\(name) @\(now): Redis's state of \(board) has no spec")
            }
        } catch {
            unexpected.append("\(name) @\(now): the restore of \(board) failed: \(error)")
        }
    }

    /// A snapshot of `board` at the revision this node holds, as `ClusterNode.writeSnapshot` writes it (the newest
    /// revision only, once frames past its start were composed here); nil when it holds no digest of that revision.
    func snapshotJob(_ board: String) -> Job? {
        let revision = revision(of: board)
        guard revision > 0, let digest = sync.boards[board]?.digests[revision] else { return nil }
        let state = animators[board]?.state ?? BoardState.tombstone(of: board, revision: revision, fps: fps)
        guard let bytes = try? StateCodec.encode(state) else { return nil }
        let start = startTicks[board].flatMap { $0.revision == revision ? $0.tick : nil }
        let newest = ClusterUpdate.snapshotMustBeNewest(animators[board], startTick: start)
        return .snapshot(board: board, revision: revision, digest: digest, state: bytes, newest: newest)
    }

    /// The start tick of the last update applied to each board, with its revision.
    var startTicks: [String: (revision: Int64, tick: Int64)] = [:]

    // MARK: Events

    /// The subscription is made: both machines catch up.
    func subscribe() {
        subscribed = true
        perform(sync.subscribed())
        perform(playlistSync.subscribed())
    }

    /// Answers of jobs that ran in Redis, not yet back on the node's thread (the subscription may overtake
    /// them), oldest first.
    var answers: [() -> Void] = []

    /// Runs the oldest job against `redis`; its answer waits in `answers`. Returns what a script published.
    func runJob(on redis: SimulatedRedis) -> Published? {
        guard !jobs.isEmpty else { return nil }
        let job = jobs.removeFirst()
        var published: Published?
        switch job {
        case .snapshot(let board, let revision, let digest, let state, let newest):
            do {
                _ = try redis.writeSnapshot(board: board, revision: revision, digest: digest, state: state, newest: newest)
                answers.append { self.perform(self.sync.commandSucceeded(.write)) }
            } catch {
                answers.append { self.perform(self.sync.commandFailed(error)) }
            }
        case .script(let board, let update, let clusterID):
            do {
                let outcome = try redis.script(board: board, update: update, clusterID: clusterID)
                if case .applied = outcome { published = .update(board: board, update) }
                answers.append { self.perform(self.sync.scriptAnswered(outcome, update: update, board: board)) }
            } catch {
                answers.append { self.perform(self.sync.commandFailed(error)) }
            }
        case .readBoard(let board, let from):
            do {
                let reading = try redis.read(board, from: from)
                answers.append { self.perform(self.sync.boardRead(board, reading)) }
            } catch {
                answers.append { self.perform(self.sync.boardReadFailed(board, error)) }
            }
        case .readAll(let from):
            do {
                let id = try redis.id(candidate: "id\(name)\(now)")
                var readings: [String: ClusterSync.Reading] = [:]
                for board in Set(redis.boards.keys).union(from.keys).union(configured.keys) {
                    readings[board] = try redis.read(board, from: from[board] ?? 0)
                }
                answers.append { self.perform(self.sync.allRead(id: id, readings)) }
            } catch {
                answers.append { self.perform(self.sync.allReadFailed(error)) }
            }
        case .renew(let replacing):
            do {
                let id = try redis.renew(replacing: replacing, candidate: "id\(name)\(now)")
                answers.append { self.perform(self.sync.clusterIDRenewed(id)) }
            } catch {
                answers.append { self.perform(self.sync.clusterIDRenewalFailed(error)) }
            }
        case .health(let probe):
            do {
                if probe == .probeWrite {
                    try redis.probeWrite()
                    answers.append {
                        self.perform(self.sync.commandSucceeded(.write))
                        self.perform(self.playlistSync.commandSucceeded())
                    }
                } else {
                    try redis.ping()
                    answers.append {
                        self.perform(self.sync.commandSucceeded(.read))
                        self.perform(self.playlistSync.commandSucceeded())
                    }
                }
            } catch {
                answers.append { self.perform(self.sync.commandFailed(error)) }
            }
        case .writePlaylist(let playlist, let definition):
            do {
                try redis.writePlaylist(playlist, definition: definition)
                published = .playlists
                answers.append {
                    // As `ClusterNode.playlistWritten`: served here at once.
                    self.perform(self.sync.commandSucceeded(.write))
                    self.playlistSync.wrote(playlist, stored: definition)
                    self.playlists[playlist] = definition
                }
            } catch {
                answers.append { self.perform(self.sync.commandFailed(error)) }
            }
        case .readPlaylists:
            do {
                let found = try redis.readPlaylists()
                answers.append { self.perform(self.playlistSync.allRead(found)) }
            } catch {
                answers.append { self.perform(self.playlistSync.allReadFailed("\(error)")) }
            }
        }
        return published
    }

    /// Hands the oldest answer back to the node.
    func answer() {
        guard !answers.isEmpty else { return }
        answers.removeFirst()()
    }

    /// Delivers the message at `index` of the inbox.
    func deliver(_ index: Int) {
        let message = inbox.remove(at: index).message
        switch message {
        case .update(let board, let update): perform(sync.received(update, board: board))
        case .clusterID(let id): perform(sync.clusterIDAnnounced(id))
        case .playlists: perform(playlistSync.notified())
        }
    }

    /// The update a write through this node makes, computed as `Pipeline.prepare` does (on a copy of the board,
    /// starting `lead` ticks from now) and travelling as `ClusterUpdate.Prepared` makes it; nil when the write
    /// changes nothing or is refused.
    func prepareWrite(_ write: ModelWrite, board name: String, lead: Int64) -> Job? {
        let base = revision(of: name)
        let boardNow = boardNow(name)
        let start = max(now + lead, boardNow + 1)
        switch write {
        case .change(let animatorChange, let body):
            guard var trial = animators[name],
                let started = try? trial.accept(animatorChange, at: start, now: boardNow),
                trial.revision == Int(base) + 1
            else { return nil }
            return travelling(
                name, base: base, start: started, change: ClusterUpdate.Change(animatorChange, body: body),
                settled: trial.settledState)
        case .create(let spec):
            guard animators[name] == nil,
                let animator = try? Animator.created(spec: spec, fps: fps, base: base, startTick: now + lead)
            else { return nil }
            return travelling(name, base: base, start: now + lead, change: .restructure(spec), settled: animator.settledState)
        case .delete:
            guard animators[name] != nil else { return nil }
            let tombstone = BoardState.tombstone(of: name, revision: base + 1, fps: fps)
            return travelling(name, base: base, start: now + lead, change: .delete, settled: tombstone)
        }
    }

    /// As `ClusterUpdate.Prepared`: the change and the digest of the settled state after it, no state.
    private func travelling(_ name: String, base: Int64, start: Int64, change: ClusterUpdate.Change, settled: BoardState)
        -> Job?
    {
        guard let digest = try? ClusterUpdate.digest(of: settled) else { return nil }
        let travelling = ClusterUpdate(
            board: name, baseRevision: base, revision: base + 1, startTick: start, change: change, digest: digest)
        guard let encoded = try? JSONEncoder().encode(travelling) else { return nil }
        let update = BoardUpdate(
            revision: base + 1, base: base, tick: start, digest: ClusterAnswer.digestBytes(digest), update: Array(encoded))
        return .script(board: name, update: update, clusterID: nonce)
    }
}

/// A write the model makes through a node, as the API would accept it.
enum ModelWrite {
    /// A PATCH, a ring's PUT, a board replaced, a ring added or deleted (a `.restructure`): the change and its body.
    case change(Animator.Change, body: [UInt8])
    case create(BoardSpec)
    case delete
}
