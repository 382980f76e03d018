import Foundation
import RingCastCluster
import RingCastCore
import Testing

@testable import RingCastServer

/// A seeded randomized model of a cluster: 3 to 5 nodes, each a `ClusterSync` with a real `Animator` per board
/// (`SimulatedNode`), on a simulated Redis (`SimulatedRedis`). Writes go through random nodes; the subscription
/// delivers late, twice or out of order; subscriptions drop; Redis goes down, refuses writes, restarts, and
/// sometimes comes back with an older copy of its data. After every step the product's promises are checked:
/// caught-up nodes at one revision show one state, no ETag names two states, and they compose the same frame
/// bytes for every tick.
///
/// `RINGCAST_MODEL_STEPS` sets the steps per seed (10,000 by default, over two seeds), `RINGCAST_MODEL_SEED` one
/// seed to run (docs/CLUSTER.md, "Testing the sync").
@Suite("Cluster model")
struct ClusterModelTests {
    static let steps = ProcessInfo.processInfo.environment["RINGCAST_MODEL_STEPS"].flatMap { Int($0) } ?? 5_000
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["RINGCAST_MODEL_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? [0x5eed_0001, 0x5eed_0002]

    @Test(arguments: seeds)
    func randomWritesDeliveriesDisconnectsAndRollbacks_keepEveryCaughtUpNodeOnOneStateAndOneFrame(_ seed: UInt64) throws {
        var model = try ClusterModel(seed: seed)
        for step in 0..<Self.steps {
            model.step()
            if let failure = model.failure {
                Issue.record("seed \(seed) (RINGCAST_MODEL_SEED=\(seed)), step \(step): \(failure)\n\(model.report)")
                return
            }
        }
        // The run did what it is for: writes landed, updates were late, Redis went back in time and was followed.
        #expect(model.counts["applied", default: 0] > Self.steps / 50, "\(model.counts)")
        #expect(model.counts["compared frames", default: 0] > 0, "\(model.counts)")
        if Self.steps >= 5_000 {
            #expect(model.counts["rollback", default: 0] > 0, "\(model.counts)")
            #expect(model.counts["renewed", default: 0] > 0, "\(model.counts)")
        }
        print("cluster model, seed \(seed): \(Self.steps) steps, \(model.counts.sorted { $0.key < $1.key })")
    }
}

/// The model's world: the nodes, Redis, the tick, and what the invariants remember.
struct ClusterModel {
    let seed: UInt64
    var rng: SplitMix64
    let redis = SimulatedRedis()
    var nodes: [SimulatedNode] = []
    let spec: BoardSpec
    var now: Int64 = 1_795_000_000 * 60
    let lead: Int64 = 3
    /// "revision-nonce" → the settled state's digest a caught-up node showed with it.
    var etags: [String: String] = [:]
    /// Earlier copies of Redis's data, for rollbacks.
    var saved: [(boards: [String: SimulatedRedis.Stored], id: String?)] = []
    var failure: String?
    /// The cluster id Redis kept when it last went back in time, until a node notices and replaces it.
    var rollbackUnnoticed: String?
    /// Tags reused in that window (see `checkStates`).
    var exempt: Set<String> = []
    /// `finalDigest`'s last answer per node.
    var digests: [String: (key: String, digest: String)] = [:]
    var counts: [String: Int] = [:]
    var history: [String] = []

    init(seed: UInt64) throws {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        spec = try ClusterSyncTests.mainSpec()
        redis.clusterID = "id0"
        for index in 0..<(3 + rng.below(3)) {
            let node = SimulatedNode(name: "n\(index)", spec: spec, fps: 60, tick: now, nonce: "id0")
            node.subscribed = true
            node.perform(node.sync.subscribed())
            nodes.append(node)
        }
    }

    var report: String {
        "history: \(history.suffix(30).joined(separator: "\n  "))\nnodes:\n"
            + nodes.map { node in
                "\(node.name): revision \(node.sync.revision(of: "main")) (animator \(node.animators["main"]!.revision)), "
                    + "problem \(node.sync.problem ?? "none"), catalog \(node.sync.catalog), board \(String(describing: node.sync.boards["main"]?.sync)), "
                    + "jobs \(node.jobs.count), answers \(node.answers.count), inbox \(node.inbox.count)\n    "
                    + node.log.suffix(8).joined(separator: "\n    ")
            }.joined(separator: "\n")
    }

    private mutating func note(_ text: String) {
        history.append("@\(now) \(text)")
        if history.count > 60 { history.removeFirst(20) }
    }

    mutating func step() {
        let roll = rng.below(1000)
        switch roll {
        case 0..<250: advanceTick()
        case 250..<380: runJob(nodes[rng.below(nodes.count)])
        case 380..<500: nodes[rng.below(nodes.count)].answer()
        case 500..<720: deliverOne(nodes[rng.below(nodes.count)])
        case 720..<900: write()
        case 900..<960: healthCheck(nodes[rng.below(nodes.count)])
        case 960..<975: dropSubscription(nodes[rng.below(nodes.count)])
        case 975..<979: restartRedis()
        case 979..<982: takeRedisDown()
        case 982..<985: runOutOfMemory()
        default: save()
        }
        checkStates()
    }

    // MARK: Events

    private mutating func advanceTick() {
        now += 1
        if !redis.up, rng.chance(0.05) {
            redis.up = true
            note("Redis back")
        }
        if redis.refusal != nil, rng.chance(0.03) {
            redis.refusal = nil
            note("Redis takes writes again")
        }
        for node in nodes {
            node.now = now
            // Redis's answers and deliveries take microseconds: most are there before the next tick.
            while !node.jobs.isEmpty || !node.answers.isEmpty, rng.chance(0.85) {
                if !node.answers.isEmpty, node.jobs.isEmpty || rng.chance(0.5) {
                    node.answer()
                } else {
                    runJob(node)
                }
            }
            for index in node.inbox.indices.reversed() where node.inbox[index].due < now && rng.chance(0.9) {
                node.deliver(index)
            }
            if !node.subscribed, redis.up, rng.chance(0.3) {
                node.subscribed = true
                node.perform(node.sync.subscribed())
            }
        }
        checkFrames()
    }

    private mutating func runJob(_ node: SimulatedNode) {
        let lastAnnounced = redis.announced.count
        guard let (board, update) = node.runJob(on: redis) else {
            announce(from: lastAnnounced)
            return
        }
        counts["applied", default: 0] += 1
        note("\(node.name) wrote revision \(update.revision) starting at \(update.tick)")
        for target in nodes where target.subscribed {
            let late = rng.chance(0.03)
            let delay = late ? lead + 1 + Int64(rng.below(4)) : Int64(rng.below(Int(lead)))
            target.inbox.append((now + delay, .update(board: board, update)))
            if rng.chance(0.05) { target.inbox.append((now + Int64(rng.below(Int(lead) + 2)), .update(board: board, update))) }
        }
        announce(from: lastAnnounced)
    }

    /// PUBLISHes the cluster ids a renewal made.
    private mutating func announce(from index: Int) {
        // What happened before the renewal is checked before it.
        if redis.announced.count > index { checkStates() }
        for id in redis.announced.dropFirst(index) {
            counts["renewed", default: 0] += 1
            rollbackUnnoticed = nil
            note("cluster id renewed: \(id)")
            for target in nodes where target.subscribed { target.inbox.append((now, .clusterID(id))) }
        }
    }

    private mutating func deliverOne(_ node: SimulatedNode) {
        let due = node.inbox.indices.filter { node.inbox[$0].due <= now }
        guard !due.isEmpty else { return }
        node.deliver(due[rng.below(due.count)])
    }

    private mutating func write() {
        let node = nodes[rng.below(nodes.count)]
        guard node.sync.problem == nil else { return }
        let rings = ["move", "exercise", "stand", "task1", "task2"]
        let value = Double(rng.below(1000)) / 1000
        let animation: String
        switch rng.below(4) {
        case 0: animation = #""none""#
        case 1: animation = #"{"spring":{"response":0.3,"dampingFraction":0.8}}"#
        case 2: animation = #"{"curve":"easeInOut","duration":\#(Double(1 + rng.below(30)) / 60)}"#
        default: animation = #"{"curve":"linear","duration":\#(Double(1 + rng.below(40)) / 60)}"#
        }
        let body = Array(#"{"rings":{"\#(rings[rng.below(rings.count)])":\#(value)},"animation":\#(animation)}"#.utf8)
        guard let patch = try? RequestDecoder.decode(BoardPatch.self, from: body),
            let job = node.prepareWrite(.patch(patch), body: body, board: "main", lead: lead)
        else { return }
        node.jobs.append(job)
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

    private mutating func restartRedis() {
        counts["restart", default: 0] += 1
        if !saved.isEmpty, rng.chance(0.5) {
            // Back to an older copy (appendonly no, then SIGKILL): its boards and the cluster id it had, most
            // often the current one.
            let copy = saved[rng.below(saved.count)]
            redis.boards = copy.boards
            redis.clusterID = copy.id
            counts["rollback", default: 0] += 1
            rollbackUnnoticed = redis.clusterID
            note("Redis restarted with older data: revision \(redis.boards["main"]?.revision ?? 0)")
        } else if rng.chance(0.1) {
            redis.boards = [:]
            redis.clusterID = nil
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

    /// Redis refusing writes for a while (`advanceTick` ends it).
    private mutating func runOutOfMemory() {
        guard redis.refusal == nil else { return }
        redis.refusal = .server("OOM command not allowed when used memory > 'maxmemory'.")
        note("Redis out of memory")
    }

    private mutating func save() {
        saved.append((redis.boards, redis.clusterID))
        if saved.count > 4 { saved.removeFirst() }
    }

    // MARK: Invariants

    /// The nodes that say they are caught up with the board, with Redis answering them.
    private func caughtUp() -> [SimulatedNode] {
        nodes.filter { $0.subscribed && $0.sync.isCaughtUp("main") }
    }

    private mutating func checkStates() {
        guard failure == nil else { return }
        var byRevision: [Int64: (node: String, digest: String)] = [:]
        for node in caughtUp() {
            let animator = node.animators["main"]!
            let revision = node.sync.revision(of: "main")
            guard Int64(animator.revision) == revision else {
                failure = "\(node.name) says it holds revision \(revision), its board is at \(animator.revision)"
                return
            }
            let digest = finalDigest(node)
            if let other = byRevision[revision], other.digest != digest {
                failure = "revision \(revision): \(other.node) shows state \(other.digest), \(node.name) \(digest)"
                return
            }
            byRevision[revision] = (node.name, digest)
            let etag = "\(revision)-\(node.nonce)"
            if exempt.contains(etag) { continue }
            if let named = etags[etag], named != digest, rollbackUnnoticed == node.nonce {
                // Redis went back in time and no node that held the lost revisions has noticed yet: a node that
                // never held them cannot know (docs/CLUSTER.md, "Redis behind the nodes"). Both states keep the
                // tag until the nodes follow the new id.
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

    /// The digest of the state `node`'s board comes to once every animation has ended: what a revision names.
    /// (`settledState` itself drops animations as frames are composed, so it is compared at one tick for all.)
    private mutating func finalDigest(_ node: SimulatedNode) -> String {
        let key = "\(node.sync.revision(of: "main")) \(node.restoredAt["main"] ?? 0) \(node.animators["main"]!.revision)"
        if let cached = digests[node.name], cached.key == key { return cached.digest }
        var copy = node.animators["main"]!
        _ = copy.frames(at: max(now, copy.composedThrough ?? now) + 100_000)
        var state = copy.settledState
        // With nothing moving, the time origin changes no frame (boards that start empty take each node's tick).
        state.epoch = 0
        let digest: String
        do throws(EncodingFailure) { digest = try ClusterUpdate.digest(of: state) } catch {
            Issue.record("node \(node.name)'s state has no digest: \(error)")
            digest = "\(error)"
        }
        digests[node.name] = (key, digest)
        return digest
    }

    /// Every node composes every tick (each has viewers); caught-up nodes at one revision send the same bytes,
    /// except for `lead` ticks after a node reloaded its board (docs/CLUSTER.md: a node that joins within the lead
    /// of a push may differ for at most the lead).
    private mutating func checkFrames() {
        var frames: [Int64: (node: String, bytes: [UInt8])] = [:]
        let ready = Set(caughtUp().map(\.name))
        for node in nodes {
            let (frame, base) = node.animators["main"]!.frames(at: now)
            guard failure == nil, ready.contains(node.name), (node.restoredAt["main"] ?? .min) < now - lead - 1 else { continue }
            let bytes = BinaryFrame.encode(frame, previous: base)
            let revision = node.sync.revision(of: "main")
            if let other = frames[revision] {
                counts["compared frames", default: 0] += 1
                if other.bytes != bytes {
                    failure = "tick \(now), revision \(revision): \(other.node) and \(node.name) composed different frames"
                }
            } else {
                frames[revision] = (node.name, bytes)
            }
        }
    }
}
