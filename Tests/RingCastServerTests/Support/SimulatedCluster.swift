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

/// Redis as the write script, the catch-up readings and the cluster's id see it, in memory: a revision, a
/// snapshot and a stream per board, and a cluster id. It can be down, refuse writes (out of memory), restart,
/// and come back with an older copy of its data (a rollback).
final class SimulatedRedis {
    struct Stored: Equatable {
        var revision: Int64
        var snapshot: [UInt8]
        var stream: [BoardUpdate]
    }

    var boards: [String: Stored] = [:]
    var clusterID: String?
    var up = true
    /// Set while Redis refuses writes (an `OOM …` or `READONLY …` error reply).
    var refusal: RedisError?
    /// Ids replaced by `renew`, for the announcement each one makes.
    var announced: [String] = []

    private func check() throws(RedisError) {
        guard up else { throw .io(endpoint: "sim:6379", reason: "Connection refused") }
    }

    private func checkWrite() throws(RedisError) {
        try check()
        if let refusal { throw refusal }
    }

    func ping() throws(RedisError) { try check() }

    func probeWrite() throws(RedisError) { try checkWrite() }

    /// The write script's compare-and-set and write (no rate limit, no idempotency here).
    func script(board: String, update: BoardUpdate, snapshot: [UInt8], clusterID: String) throws(RedisError) -> WriteOutcome {
        try check()
        guard self.clusterID == clusterID else { return .clusterChanged(id: self.clusterID ?? "") }
        let current = boards[board]?.revision ?? 0
        guard update.base == current else { return .conflict(current: current) }
        if let refusal { throw refusal }
        var stored = boards[board] ?? Stored(revision: 0, snapshot: [], stream: [])
        stored.revision = update.revision
        stored.snapshot = snapshot
        stored.stream.append(update)
        boards[board] = stored
        return .applied(revision: update.revision, streamID: "\(update.revision)-0")
    }

    func read(_ board: String, from revision: Int64) throws(RedisError) -> ClusterSync.Reading {
        try check()
        guard let stored = boards[board] else { return ClusterSync.Reading(snapshot: nil, updates: []) }
        return ClusterSync.Reading(
            snapshot: RingCastCluster.BoardSnapshot(revision: stored.revision, snapshot: stored.snapshot),
            updates: stored.stream.filter { $0.revision >= revision })
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
}

/// One node as `ClusterNode` is, with the Redis worker, the subscription and the boards simulated: the same
/// `ClusterSync`, and a real `Animator` per board changed by the same `ClusterUpdate.applying` and
/// `StateCodec.decode` as the server's.
final class SimulatedNode {
    enum Job: Equatable {
        case script(board: String, update: BoardUpdate, snapshot: [UInt8], clusterID: String)
        case readBoard(String, from: Int64)
        case readAll(from: [String: Int64])
        case renew(replacing: String)
        case health(ClusterSync.Action)
    }

    enum Message: Equatable {
        case update(board: String, BoardUpdate)
        case clusterID(String)
    }

    let name: String
    let spec: BoardSpec
    let fps: Int
    var sync: ClusterSync
    var animators: [String: Animator]
    var nonce: String
    /// The worker's queue, run in order.
    var jobs: [Job] = []
    /// What the subscription delivers, each at its tick or later, in any order.
    var inbox: [(due: Int64, message: Message)] = []
    var subscribed = false
    /// The tick of the last restore from a snapshot, by board.
    var restoredAt: [String: Int64] = [:]
    /// Updates applied, by board and revision (a duplicate applied twice shows here).
    var appliedCount: [String: [Int64: Int]] = [:]
    var log: [String] = []
    var now: Int64 = 0

    init(name: String, spec: BoardSpec, fps: Int, tick: Int64, nonce: String) {
        self.name = name
        self.spec = spec
        self.fps = fps
        self.nonce = nonce
        animators = [spec.name: Animator(spec: spec, fps: fps, tick: tick)]
        sync = ClusterSync(address: "sim:6379", nonce: nonce, revisions: [spec.name: 0])
        now = tick
    }

    /// Carries out the machine's actions as `ClusterNode.perform` does.
    func perform(_ actions: [ClusterSync.Action]) {
        for action in actions {
            switch action {
            case .apply(let board, let update):
                perform(sync.applied(update, board: board, apply(update, to: board)))
            case .restore(let board, let snapshot):
                restore(board, snapshot)
            case .forget(let board):
                animators[board] = Animator(spec: spec, fps: fps, tick: now)
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
                log.append("@\(now) \(text)")
                if log.count > 40 { log.removeFirst() }
            case .ping, .probeWrite, .boardCaughtUp, .everyBoardCaughtUp, .count:
                break
            }
        }
    }

    private func apply(_ update: BoardUpdate, to board: String) -> ClusterSync.Applied {
        guard let animator = animators[board] else { return .refused("no board") }
        guard Int64(animator.revision) == update.base else {
            return .refused("it follows revision \(update.base), this node's board is at \(animator.revision)")
        }
        let boardNow = max(now, animator.composedThrough ?? .min)
        switch ClusterUpdate.applying(update, to: animator, fps: fps, now: boardNow) {
        case .changed(_, let changed):
            let digest: [UInt8]
            do throws(EncodingFailure) { digest = try ClusterUpdate.digestBytes(of: changed) } catch {
                return .refused("its result cannot be digested: \(error)")
            }
            animators[board] = changed
            appliedCount[board, default: [:]][update.revision, default: 0] += 1
            return .applied(digest: digest)
        case .created, .deleted:
            return .refused("the model only patches")
        case .late(let appliedThrough):
            return .late(appliedThrough: appliedThrough)
        case .refused(let reason):
            return .refused(reason)
        }
    }

    private func restore(_ board: String, _ snapshot: RingCastCluster.BoardSnapshot) {
        do {
            switch try StateCodec.decode(snapshot.snapshot, configured: spec, fps: fps, source: "sim: board \(board)") {
            case .served(_, let animator):
                animators[board] = animator
                restoredAt[board] = now
            case .deleted, .unconfigured:
                log.append("@\(now) restore of \(board): not served")
            }
        } catch {
            log.append("@\(now) restore of \(board) failed: \(error)")
        }
    }

    /// Answers of jobs that ran in Redis, not yet back on the node's thread (the subscription may overtake
    /// them), oldest first.
    var answers: [() -> Void] = []

    /// Runs the oldest job against `redis`; its answer waits in `answers`. Returns the update a script published.
    func runJob(on redis: SimulatedRedis) -> (board: String, update: BoardUpdate)? {
        guard !jobs.isEmpty else { return nil }
        let job = jobs.removeFirst()
        var published: (String, BoardUpdate)?
        switch job {
        case .script(let board, let update, let snapshot, let clusterID):
            do {
                let outcome = try redis.script(board: board, update: update, snapshot: snapshot, clusterID: clusterID)
                if case .applied = outcome { published = (board, update) }
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
                for board in Set(redis.boards.keys).union(from.keys).union([spec.name]) {
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
                    answers.append { self.perform(self.sync.commandSucceeded(.write)) }
                } else {
                    try redis.ping()
                    answers.append { self.perform(self.sync.commandSucceeded(.read)) }
                }
            } catch {
                answers.append { self.perform(self.sync.commandFailed(error)) }
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
        }
    }

    /// The update a write of `body` through this node makes, computed as `Pipeline.prepare` does: on a copy of
    /// the board, starting `lead` ticks from now; nil when it would change nothing.
    func prepareWrite(_ change: Animator.Change, body: [UInt8], board name: String, lead: Int64) -> Job? {
        guard let animator = animators[name] else { return nil }
        var trial = animator
        let boardNow = max(now, animator.composedThrough ?? .min)
        let base = Int64(trial.revision)
        guard let start = try? trial.accept(change, at: max(now + lead, boardNow + 1), now: boardNow),
            trial.revision == Int(base) + 1
        else { return nil }
        let digest: String
        do throws(EncodingFailure) { digest = try ClusterUpdate.digest(of: trial.settledState) } catch { return nil }
        let travelling = ClusterUpdate(
            board: name, baseRevision: base, revision: base + 1, startTick: start,
            change: ClusterUpdate.Change(change, body: body),
            digest: digest)
        let update = BoardUpdate(
            revision: base + 1, base: base, tick: start, digest: ClusterAnswer.digestBytes(digest),
            update: Array(try! JSONEncoder().encode(travelling)))
        return .script(board: name, update: update, snapshot: try! StateCodec.encode(trial.state), clusterID: nonce)
    }
}
