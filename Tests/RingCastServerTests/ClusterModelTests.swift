import Foundation
import RingCastCluster
import RingCastCore
import Testing

@testable import RingCastServer

/// A seeded randomized model of a cluster: 3 to 5 nodes (`SimulatedNode`: the real `ClusterSync` and `PlaylistSync`
/// driven by the real `ClusterSyncShell.perform`, with a real `Animator` per board) on a simulated Redis
/// (`SimulatedRedis`), which is the reference. Writes go through random nodes to three boards (one configured):
/// creates, replaces, deletes, rings added and deleted, PATCHes, and playlists written and deleted. The subscription
/// delivers late, twice or out of order; subscriptions drop; nodes restart; Redis goes down, refuses writes (OOM,
/// READONLY), restarts, loses its data, and sometimes comes back with an older copy of it (a rollback).
///
/// While it runs: caught-up nodes at one revision show one state, no ETag names two states, and they compose the
/// same frame bytes for every tick, and a caught-up node with nothing on the way holds Redis's revisions. Every
/// 1,000 steps (every other time just after a rollback) and at the end, a
/// quiet period (Redis answering, every node subscribed, nothing
/// written), after which every node must equal Redis: the cluster id, each board's revision and settled state's
/// digest (or its tombstone, or nothing), the frame bytes of the same ticks as a board restored from Redis's
/// snapshot, and the playlists. An event a machine does not expect (`.unexpected`) fails the run.
///
/// `RINGCAST_MODEL_STEPS` sets the steps per seed (5,000 by default, over two seeds: 10,000), `RINGCAST_MODEL_SEED`
/// one seed to run (docs/CLUSTER.md, "Testing the sync").
@Suite("Cluster model")
struct ClusterModelTests {
    static let steps = ProcessInfo.processInfo.environment["RINGCAST_MODEL_STEPS"].flatMap { Int($0) } ?? 5_000
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["RINGCAST_MODEL_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? [0x5eed_0001, 0x5eed_0002]

    @Test(arguments: seeds)
    func randomWritesDeliveriesRestartsAndRollbacks_leaveEveryNodeEqualToRedisOnceQuiet(_ seed: UInt64) throws {
        var model = try ClusterModel(seed: seed)
        for step in 0..<Self.steps {
            model.step()
            if step % 1_000 == 999 {
                // Every 1,000 steps a quiet period, after which every node must equal Redis; every other one starts
                // with Redis back on an older copy of its data, which the nodes must notice with no write to tell
                // them.
                if step % 2_000 == 999 { model.restartRedis(rollback: true) }
                model.quiet()
            }
            if let failure = model.failure {
                Issue.record("seed \(seed) (RINGCAST_MODEL_SEED=\(seed)), step \(step): \(failure)\n\(model.report)")
                return
            }
        }
        model.quiet()
        if let failure = model.failure {
            Issue.record("seed \(seed) (RINGCAST_MODEL_SEED=\(seed)), after the quiet period: \(failure)\n\(model.report)")
            return
        }
        // The run did what it is for: writes of every kind landed, updates were late, Redis went back in time and
        // was followed, and the final comparison compared something.
        let counts = model.counts
        #expect(counts["applied", default: 0] > Self.steps / 50, "\(counts)")
        #expect(counts["compared frames", default: 0] > 0, "\(counts)")
        #expect(counts["reference boards served", default: 0] > 0, "\(counts)")
        if Self.steps >= 5_000 {
            for kind in ["patch", "create", "replace", "ring added", "ring deleted", "delete", "playlist", "node restart"] {
                #expect(counts["wrote \(kind)", default: 0] + counts[kind, default: 0] > 0, "no \(kind): \(counts)")
            }
            #expect(counts["rollback", default: 0] > 0, "\(counts)")
            #expect(counts["renewed", default: 0] > 0, "\(counts)")
            #expect(counts["read-only", default: 0] > 0, "\(counts)")
        }
        print("cluster model, seed \(seed): \(Self.steps) steps, \(counts.sorted { $0.key < $1.key })")
    }
}

/// The model's world: the nodes, Redis (the reference), the tick, and what the invariants remember.
struct ClusterModel {
    let seed: UInt64
    var rng: SplitMix64
    let redis = SimulatedRedis()
    var nodes: [SimulatedNode] = []
    /// The configured board, `main`.
    let spec: BoardSpec
    /// The boards written: `main` and two made through the API.
    let boardNames = ["main", "b1", "b2"]
    var now: Int64 = 1_795_000_000 * 60
    let lead: Int64 = 3
    let fps = 60
    /// "board revision-nonce" → the settled state's digest a caught-up node showed with it.
    var etags: [String: String] = [:]
    /// Earlier copies of Redis's data, for rollbacks.
    var saved: [SimulatedRedis.Data] = []
    var failure: String?
    /// The cluster ids Redis kept when it went back in time, while Redis or a node still carries one: a node carrying
    /// one has not learnt of the rollback (no node noticed yet, or the new id has not reached it).
    var rolledBack: Set<String> = []
    /// Tags reused in that window (see `checkStates`).
    var exempt: Set<String> = []
    /// `finalDigest`'s last answer per node and board.
    var digests: [String: (key: String, digest: String)] = [:]
    var counts: [String: Int] = [:]
    var history: [String] = []
    var restarts = 0

    init(seed: UInt64) throws {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        spec = try ClusterSyncTests.mainSpec()
        redis.clusterID = "id0"
        for index in 0..<(3 + rng.below(3)) {
            let node = SimulatedNode(name: "n\(index)", configured: [spec], fps: fps, tick: now, nonce: "id0")
            node.subscribe()
            nodes.append(node)
        }
    }

    var report: String {
        "history: \(history.suffix(30).joined(separator: "\n  "))\nRedis: id \(redis.clusterID ?? "none"), "
            + boardNames.map { "\($0) at \(redis.boards[$0]?.revision ?? 0) \(referenceDigest($0))" }.joined(separator: ", ")
            + "\nnodes:\n"
            + nodes.map { node in
                "\(node.name): nonce \(node.nonce), "
                    + boardNames.map {
                        "\($0) \(node.sync.revision(of: $0))/\(node.revision(of: $0)) "
                            + "\(node.animators[$0].map { digest(of: $0) } ?? "none") \(String(describing: node.sync.boards[$0]?.sync))"
                    }
                    .joined(separator: ", ")
                    + ", problem \(node.sync.problem ?? "none"), catalog \(node.sync.catalog), "
                    + "jobs \(node.jobs.count), answers \(node.answers.count), inbox \(node.inbox.count)\n    "
                    + node.log.suffix(8).joined(separator: "\n    ")
            }.joined(separator: "\n")
    }

    private mutating func note(_ text: String) {
        history.append("@\(now) \(text)")
        if history.count > 60 { history.removeFirst(20) }
    }

    mutating func step() {
        // Per 10,000 steps: faults rare enough that the cluster spends most of its time taking writes.
        let roll = rng.below(10_000)
        switch roll {
        case 0..<2500: advanceTick()
        case 2500..<3800: runJob(nodes[rng.below(nodes.count)])
        case 3800..<5000: nodes[rng.below(nodes.count)].answer()
        case 5000..<7000: deliverOne(nodes[rng.below(nodes.count)])
        case 7000..<8800: write()
        case 8800..<9000: writeSnapshot()
        case 9000..<9150: writePlaylist()
        case 9150..<9700: healthCheck(nodes[rng.below(nodes.count)])
        case 9700..<9800: dropSubscription(nodes[rng.below(nodes.count)])
        case 9800..<9830: restartNode(rng.below(nodes.count))
        case 9830..<9860: restartRedis()
        case 9860..<9885: takeRedisDown()
        case 9885..<9920: refuseWrites()
        default: save()
        }
        checkUnexpected()
        checkStates()
        checkSettled()
    }

    // MARK: Events

    private mutating func advanceTick(quiet: Bool = false) {
        now += 1
        if !quiet, !redis.up, rng.chance(0.05) {
            redis.up = true
            note("Redis back")
        }
        if !quiet, redis.refusal != nil, rng.chance(0.03) {
            redis.refusal = nil
            note("Redis takes writes again")
        }
        for node in nodes {
            node.now = now
            // Redis's answers and deliveries take microseconds: most are there before the next tick.
            var rounds = 0
            while !node.jobs.isEmpty || !node.answers.isEmpty, quiet || rng.chance(0.85) {
                rounds += 1
                if rounds == 10_000 {
                    failure = "\(node.name) keeps asking Redis within one tick: \(node.jobs.prefix(3)) \(node.log.suffix(12).joined(separator: "\n    "))"
                    return
                }
                if !node.answers.isEmpty, node.jobs.isEmpty || rng.chance(0.5) {
                    node.answer()
                } else {
                    runJob(node)
                }
            }
            for index in node.inbox.indices.reversed() where node.inbox[index].due < now && (quiet || rng.chance(0.9)) {
                node.deliver(index)
            }
            if !node.subscribed, redis.up, quiet || rng.chance(0.3) {
                node.subscribe()
            }
        }
        checkFrames()
    }

    private mutating func runJob(_ node: SimulatedNode) {
        let lastAnnounced = redis.announced.count
        switch node.runJob(on: redis) {
        case .update(let board, let update):
            counts["applied", default: 0] += 1
            note("\(node.name) wrote revision \(update.revision) of \(board) starting at \(update.tick)")
            for target in nodes where target.subscribed {
                let late = rng.chance(0.03)
                let delay = late ? lead + 1 + Int64(rng.below(4)) : Int64(rng.below(Int(lead)))
                target.inbox.append((now + delay, .update(board: board, update)))
                if rng.chance(0.05) {
                    target.inbox.append((now + Int64(rng.below(Int(lead) + 2)), .update(board: board, update)))
                }
            }
        case .playlists:
            counts["playlist", default: 0] += 1
            for target in nodes where target.subscribed { target.inbox.append((now + Int64(rng.below(2)), .playlists)) }
        case nil:
            break
        }
        announce(from: lastAnnounced)
    }

    /// PUBLISHes the cluster ids a renewal made.
    private mutating func announce(from index: Int) {
        // What happened before the renewal is checked before it.
        if redis.announced.count > index { checkStates() }
        for id in redis.announced.dropFirst(index) {
            counts["renewed", default: 0] += 1
            note("cluster id renewed: \(id)")
            for target in nodes where target.subscribed { target.inbox.append((now, .clusterID(id))) }
        }
    }

    private mutating func deliverOne(_ node: SimulatedNode) {
        let due = node.inbox.indices.filter { node.inbox[$0].due <= now }
        guard !due.isEmpty else { return }
        node.deliver(due[rng.below(due.count)])
    }

    /// `main`'s plain rings a PATCH sets; `optional` those a board may be without (no derived ring averages them).
    let plain = ["move", "exercise", "stand", "task1", "task2"]
    let optional = ["move", "exercise", "stand"]

    /// The spec of a board `name` with `main`'s rings but the optional ones not in `ids` (in `main`'s order); without
    /// `main`'s other arrangements unless it has every ring.
    private func spec(_ name: String, rings ids: Set<String>, title: String? = nil) -> BoardSpec {
        var made = spec
        made.name = name
        made.title = title ?? name
        let kept = { (id: String) in ids.contains(id) || !self.optional.contains(id) }
        made.rings = spec.rings.filter { kept($0.id) }
        made.groups = spec.groups.map { $0.filter(kept) }.filter { !$0.isEmpty }
        if made.rings.count < spec.rings.count { made.alternates = [] }
        return made
    }

    private mutating func write() {
        let node = nodes[rng.below(nodes.count)]
        guard node.sync.problem == nil else { return }
        let board = boardNames[rng.below(boardNames.count)]
        let allRings = optional
        let write: ModelWrite
        let kind: String
        if let animator = node.animators[board] {
            let held = animator.spec.rings.map(\.id).filter(optional.contains)
            let roll = rng.below(100)
            if roll < 70 {
                kind = "patch"
                let value = Double(rng.below(1000)) / 1000
                let animation: String
                switch rng.below(4) {
                case 0: animation = #""none""#
                case 1: animation = #"{"spring":{"response":0.3,"dampingFraction":0.8}}"#
                case 2: animation = #"{"curve":"easeInOut","duration":\#(Double(1 + rng.below(30)) / 60)}"#
                default: animation = #"{"curve":"linear","duration":\#(Double(1 + rng.below(40)) / 60)}"#
                }
                let rings = animator.spec.rings.map(\.id).filter(plain.contains)
                let body = Array(#"{"rings":{"\#(rings[rng.below(rings.count)])":\#(value)},"animation":\#(animation)}"#.utf8)
                guard let patch = try? RequestDecoder.decode(BoardPatch.self, from: body) else { return }
                write = .change(.patch(patch), body: body)
            } else if roll < 78, !held.isEmpty {
                kind = "ring deleted"
                var ids = Set(held)
                ids.remove(held[rng.below(held.count)])
                write = .change(.restructure(spec(board, rings: ids, title: animator.spec.title)), body: [])
            } else if roll < 86, held.count < allRings.count {
                kind = "ring added"
                let missing = allRings.filter { !held.contains($0) }
                write = .change(
                    .restructure(
                        spec(board, rings: Set(held).union([missing[rng.below(missing.count)]]), title: animator.spec.title)),
                    body: [])
            } else if roll < 94 || (board == spec.name && roll < 98) {
                kind = "replace"
                let ids = Set(allRings.filter { _ in rng.chance(0.7) }).union([allRings[rng.below(allRings.count)]])
                write = .change(.restructure(spec(board, rings: ids, title: "\(board) \(rng.below(100))")), body: [])
            } else {
                kind = "delete"
                write = .delete
            }
        } else {
            kind = "create"
            write = .create(spec(board, rings: Set(allRings.filter { _ in rng.chance(0.6) }).union([allRings[0]])))
        }
        guard let job = node.prepareWrite(write, board: board, lead: lead) else { return }
        counts["wrote \(kind)", default: 0] += 1
        node.jobs.append(job)
    }

    /// A node writes a board's snapshot at the revision it holds, whatever that is: Redis's rules (`SnapshotScript`)
    /// decide whether it is taken, so any node at any time stands for the nodes' policy.
    private mutating func writeSnapshot() {
        let node = nodes[rng.below(nodes.count)]
        guard let job = node.snapshotJob(boardNames[rng.below(boardNames.count)]) else { return }
        counts["snapshots asked", default: 0] += 1
        node.jobs.append(job)
    }

    private mutating func writePlaylist() {
        let node = nodes[rng.below(nodes.count)]
        guard node.sync.problem == nil else { return }
        let name = ["wall", "lobby"][rng.below(2)]
        if rng.chance(0.25) {
            node.jobs.append(.writePlaylist(name, nil))
        } else {
            let boards = Array(boardNames.shuffled(using: &rng).prefix(1 + rng.below(3)))
            let playlist = Playlist(
                name: name, boards: boards, seconds: 5 + rng.below(30), transition: nil, anchor: 1_763_700_000 + Int64(rng.below(100)))
            do {
                node.jobs.append(.writePlaylist(name, try playlist.stored()))
            } catch {
                Issue.record("a generated playlist cannot be encoded: \(error)")
            }
        }
    }

    private mutating func healthCheck(_ node: SimulatedNode) {
        guard !node.jobs.contains(where: { if case .health = $0 { true } else { false } }) else { return }
        node.jobs.append(.health(node.sync.healthCheckDue()))
    }

    private mutating func dropSubscription(_ node: SimulatedNode) {
        guard node.subscribed else { return }
        node.subscribed = false
        node.inbox.removeAll()
        node.perform(node.sync.subscriptionLost("the probe timed out"))
    }

    /// A node's process restarts: what it held, its jobs and its answers are gone; it starts from its configuration
    /// and catches up once subscribed.
    private mutating func restartNode(_ index: Int) {
        counts["node restart", default: 0] += 1
        restarts += 1
        let old = nodes[index]
        note("\(old.name) restarted")
        nodes[index] = SimulatedNode(name: old.name, configured: [spec], fps: fps, tick: now, nonce: "start\(restarts)")
        nodes[index].now = now
        digests = digests.filter { !$0.key.hasPrefix("\(old.name) ") }
    }

    /// Redis restarts: with its data, an older copy of it (always, with `rollback`, if one was saved) or none.
    mutating func restartRedis(rollback: Bool = false) {
        counts["restart", default: 0] += 1
        if !saved.isEmpty, rollback || rng.chance(0.5) {
            // Back to an older copy (appendonly no, then SIGKILL): its boards, playlists and the cluster id it had,
            // most often the current one.
            redis.data = rollback ? saved[0] : saved[rng.below(saved.count)]
            counts["rollback", default: 0] += 1
            if let id = redis.clusterID { rolledBack.insert(id) }
            note("Redis restarted with older data: " + boardNames.map { "\($0) \(redis.boards[$0]?.revision ?? 0)" }.joined(separator: ", "))
        } else if rng.chance(0.1) {
            redis.data = SimulatedRedis.Data(boards: [:], playlists: [:], clusterID: nil)
            saved.removeAll()
            counts["data lost", default: 0] += 1
            note("Redis restarted without its data")
        } else {
            note("Redis restarted")
        }
        redis.refusal = nil
        redis.up = true
        for node in nodes { dropSubscription(node) }
    }

    /// Redis unreachable for a while (`advanceTick` brings it back).
    private mutating func takeRedisDown() {
        guard redis.up else { return }
        redis.up = false
        note("Redis down")
        for node in nodes { dropSubscription(node) }
    }

    /// Redis refusing writes for a while, out of memory or a read-only replica (`advanceTick` ends it).
    private mutating func refuseWrites() {
        guard redis.refusal == nil else { return }
        if rng.chance(0.5) {
            redis.refusal = .server("OOM command not allowed when used memory > 'maxmemory'.")
            counts["out of memory", default: 0] += 1
            note("Redis out of memory")
        } else {
            redis.refusal = .server("READONLY You can't write against a read only replica.")
            counts["read-only", default: 0] += 1
            note("Redis read-only")
        }
    }

    private mutating func save() {
        saved.append(redis.data)
        if saved.count > 4 { saved.removeFirst() }
    }

    // MARK: The quiet period

    /// Redis answers and takes writes, nothing is written, every node subscribes, runs its jobs, takes its answers
    /// and deliveries and checks Redis's health each second, until nothing is left to do and every animation has
    /// ended; then every node is compared with Redis.
    mutating func quiet() {
        guard failure == nil else { return }
        redis.up = true
        redis.refusal = nil
        note("quiet")
        var idle = 0
        for tick in 0..<20_000 {
            if tick % fps == 0 {
                for node in nodes { healthCheck(node) }
            }
            advanceTick(quiet: true)
            checkUnexpected()
            checkStates()
            guard failure == nil else { return }
            let busy = nodes.contains { !$0.jobs.isEmpty || !$0.answers.isEmpty || !$0.inbox.isEmpty || !$0.subscribed }
            idle = busy ? 0 : idle + 1
            // Four seconds without anything to do: the animations have ended, health checks have run.
            if idle > 4 * fps { break }
        }
        guard idle > 4 * fps else {
            failure = "the cluster never went quiet: a node kept reading, writing or failing"
            return
        }
        compareWithRedis()
    }

    /// Every node equals Redis: the cluster id, every board's revision and state (by digest, and by the frames of
    /// the same ticks), the playlists; and every node says it can take writes.
    private mutating func compareWithRedis() {
        guard failure == nil else { return }
        let names = Set(boardNames).union(redis.boards.keys).union(nodes.flatMap { $0.animators.keys }).sorted()
        var fail: [String] = []
        var references: [String: Animator] = [:]
        for name in names {
            let stored = redis.boards[name]
            let revision = stored?.revision ?? 0
            var reference: Animator?
            if let stored {
                switch restored(name, stored)?.board {
                case .served(let animator): reference = animator
                case .deleted: reference = nil
                case .unconfigured, nil:
                    fail.append("Redis's state of \(name) cannot be served")
                    continue
                }
            } else if name == spec.name {
                reference = Animator(spec: spec, fps: fps, tick: now)
            }
            if reference != nil { counts["reference boards served", default: 0] += 1 }
            references[name] = reference
            let expected = reference.map { digest(of: $0) }
            for node in nodes {
                if node.sync.revision(of: name) != revision || node.revision(of: name) != revision {
                    fail.append(
                        "\(node.name) holds \(name) at revision \(node.revision(of: name)) (its sync \(node.sync.revision(of: name))), Redis \(revision)"
                    )
                }
                let shown = node.animators[name].map { digest(of: $0) }
                if shown != expected {
                    fail.append(
                        "\(node.name) shows \(name) as \(shown ?? "nothing"), Redis's revision \(revision) is \(expected ?? "nothing")")
                }
            }
        }
        for node in nodes {
            if node.nonce != redis.clusterID { fail.append("\(node.name) carries the cluster id \(node.nonce), Redis \(redis.clusterID ?? "none")") }
            if let problem = node.sync.problem { fail.append("\(node.name) refuses writes: \(problem)") }
            if node.playlists != redis.playlists {
                fail.append("\(node.name) serves playlists \(node.playlists.keys.sorted()), Redis holds \(redis.playlists.keys.sorted()) (or other bytes)")
            }
        }
        // The same ticks give the same frame bytes on every node as on a board restored from Redis.
        for _ in 0..<3 {
            now += 1
            for name in names {
                guard var reference = references[name] else { continue }
                let (frame, base) = reference.frames(at: now)
                let expected = BinaryFrame.encode(frame, previous: base)
                references[name] = reference
                for node in nodes {
                    guard let (frame, base) = node.animators[name]?.frames(at: now) else { continue }
                    counts["compared frames", default: 0] += 1
                    if BinaryFrame.encode(frame, previous: base) != expected {
                        fail.append("\(node.name) composes other bytes for \(name) at tick \(now) than Redis's revision")
                    }
                }
            }
        }
        if !fail.isEmpty { failure = "the nodes are not Redis once quiet:\n  " + fail.prefix(12).joined(separator: "\n  ") }
    }

    /// The board Redis holds: its snapshot with the stream after it replayed, as a node restores it.
    private func restored(_ name: String, _ stored: SimulatedRedis.Stored) -> ClusterUpdate.Restored? {
        let snapshot = RingCastCluster.BoardSnapshot(revision: stored.revision, covers: stored.covers, snapshot: stored.snapshot)
        let restored = try? ClusterUpdate.restoring(
            snapshot, updates: stored.stream.filter { $0.revision > stored.covers },
            configured: name == spec.name ? spec : nil, fps: fps, tick: now, source: name)
        guard let restored, restored.skipped.isEmpty, restored.revision == stored.revision else { return nil }
        return restored
    }

    /// The digest of Redis's state of `board`, for the report.
    private func referenceDigest(_ board: String) -> String {
        guard let stored = redis.boards[board] else { return "none" }
        switch restored(board, stored)?.board {
        case .served(let animator): return digest(of: animator)
        case .deleted: return "deleted"
        case .unconfigured, nil: return "unreadable"
        }
    }

    /// The digest of the state an animator comes to once every animation has ended, its time origin aside.
    private func digest(of animator: Animator) -> String {
        var copy = animator
        _ = copy.frames(at: max(now, copy.composedThrough ?? now) + 100_000)
        var state = copy.settledState
        // With nothing moving, the time origin changes no frame (boards that start empty take each node's tick).
        state.epoch = 0
        do throws(EncodingFailure) { return try ClusterUpdate.digest(of: state) } catch { return "\(error)" }
    }

    // MARK: Invariants

    private mutating func checkUnexpected() {
        guard failure == nil else { return }
        if let node = nodes.first(where: { !$0.unexpected.isEmpty }) {
            failure = "an event the machine did not expect: \(node.unexpected.joined(separator: "; "))"
        }
    }

    /// A node with nothing on the way (no job, answer or delivery pending), subscribed, caught up and with Redis
    /// answering holds what Redis holds: every update published since it caught up has reached it.
    private mutating func checkSettled() {
        guard failure == nil, redis.up else { return }
        for node in nodes where node.subscribed && node.jobs.isEmpty && node.answers.isEmpty && node.inbox.isEmpty {
            guard node.sync.problem == nil, node.nonce == redis.clusterID else { continue }
            for board in boardNames where node.sync.isCaughtUp(board) {
                let revision = redis.boards[board]?.revision ?? 0
                if node.revision(of: board) != revision {
                    failure = "\(node.name) has nothing on the way and holds \(board) at \(node.revision(of: board)), Redis at \(revision)"
                    return
                }
            }
        }
    }

    /// The nodes that say they are caught up with `board`, with Redis answering them.
    private func caughtUp(_ board: String) -> [SimulatedNode] {
        nodes.filter { $0.subscribed && $0.sync.isCaughtUp(board) }
    }

    private mutating func checkStates() {
        rolledBack = rolledBack.filter { id in redis.clusterID == id || nodes.contains { $0.nonce == id } }
        for board in boardNames { checkStates(board) }
    }

    private mutating func checkStates(_ board: String) {
        guard failure == nil else { return }
        var byRevision: [Int64: (node: String, digest: String)] = [:]
        for node in caughtUp(board) {
            let revision = node.sync.revision(of: board)
            guard node.revision(of: board) == revision else {
                failure = "\(node.name) says it holds revision \(revision) of \(board), its board is at \(node.revision(of: board))"
                return
            }
            let digest = finalDigest(node, board)
            if let other = byRevision[revision], other.digest != digest {
                failure = "\(board) revision \(revision): \(other.node) shows state \(other.digest), \(node.name) \(digest)"
                return
            }
            byRevision[revision] = (node.name, digest)
            let etag = "\(board) \(revision)-\(node.nonce)"
            if exempt.contains(etag) { continue }
            if let named = etags[etag], named != digest, rolledBack.contains(node.nonce) {
                // Redis went back in time and this node has not learnt it: no node that held the lost revisions has
                // noticed yet (a node that never held them cannot know, docs/CLUSTER.md, "Redis behind the nodes"),
                // or the id that replaces it has not reached this node yet. Both states keep the tag until the
                // nodes follow the new id.
                counts["etag reused before the rollback was noticed", default: 0] += 1
                exempt.insert(etag)
                continue
            } else if let named = etags[etag], named != digest {
                failure = "ETag \(etag) named state \(named) and now \(digest) (\(node.name))"
                return
            }
            etags[etag] = digest
        }
    }

    /// The digest of the state `node`'s board comes to once every animation has ended: what a revision names
    /// ("deleted" for a tombstone).
    private mutating func finalDigest(_ node: SimulatedNode, _ board: String) -> String {
        guard let animator = node.animators[board] else { return "deleted" }
        let key = "\(node.name) \(board)"
        let version = "\(node.changes[board] ?? 0) \(animator.revision)"
        if let cached = digests[key], cached.key == version { return cached.digest }
        let digest = digest(of: animator)
        digests[key] = (version, digest)
        return digest
    }

    /// Every node composes every tick of every board (each has viewers); caught-up nodes at one revision send the
    /// same bytes, except for `lead` ticks after a node reloaded its board (docs/CLUSTER.md: a node that joins
    /// within the lead of a push may differ for at most the lead).
    private mutating func checkFrames() {
        for board in boardNames {
            // The first node's frame at each revision; `encode` is a function of the frame and its base, so equal
            // ones give equal bytes, and the bytes are compared only when they are not.
            var frames: [Int64: (node: String, frame: Frame, base: Frame)] = [:]
            let ready = Set(caughtUp(board).map(\.name))
            for node in nodes {
                guard let (frame, base) = node.animators[board]?.frames(at: now) else { continue }
                guard failure == nil, ready.contains(node.name), (node.restoredAt[board] ?? .min) < now - lead - 1 else {
                    continue
                }
                let revision = node.sync.revision(of: board)
                guard let other = frames[revision] else {
                    frames[revision] = (node.name, frame, base)
                    continue
                }
                counts["compared frames", default: 0] += 1
                if (other.frame, other.base) != (frame, base),
                    BinaryFrame.encode(other.frame, previous: other.base) != BinaryFrame.encode(frame, previous: base)
                {
                    failure = "tick \(now), \(board) revision \(revision): \(other.node) and \(node.name) composed different frames"
                }
            }
        }
    }
}
