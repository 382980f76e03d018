import Foundation
import Testing

@testable import RingCastCore

/// The foundation of cluster mode (DESIGN §10): updates that travel as `ClusterUpdate` bytes, applied at their
/// start ticks, give every node the same frames, byte for byte — also a node that joins late from a snapshot.
@Suite("Cluster updates")
struct ClusterUpdateTests {
    /// The writes of a busy minute on one board: curves, a spring retargeting a running curve, a splash, a
    /// countdown, a fraction label, a ring added, a ring deleted.
    static func writes(board spec: BoardSpec) throws -> [(tick: Int64, change: ClusterUpdate.Change)] {
        let added = try spec.adding(RingSpec(id: "deploy", title: "Deploy"), maximumRings: 24)
        let removed = try added.removing(ring: "task4")
        func body(_ text: String) -> [UInt8] { Array(text.utf8) }
        return [
            (1003, .patch(body: body(#"{"rings":{"move":0.8,"exercise":{"progress":0.6,"animation":"bouncy"}}}"#))),
            (1020, .ring("move", body: body(#"{"progress":0.3,"animation":{"spring":{"response":0.4,"dampingFraction":0.5}}}"#))),
            (1025, .background(body: body(##"{"color":"#4533c9","transition":"circle","duration":0.5}"##))),
            (1031, .startCountdown(seconds: 2)),
            (1040, .ring("task1", body: body(#"{"value":12,"max":20,"label":"fraction","animation":"linear"}"#))),
            (1052, .restructure(added)),
            (1060, .ring("deploy", body: body(##"{"progress":1.2,"colors":["#2ecc71","#27ae60"]}"##))),
            (1075, .restructure(removed)),
            (1090, .cancelCountdown),
        ]
    }

    /// One node: an animator that accepts updates and composes grid frames, encoded as viewers get them.
    struct Node {
        var animator: Animator
        var sent: [Int64: [UInt8]] = [:]

        mutating func accept(_ update: ClusterUpdate) throws {
            let outcome = try animator.accept(try update.change.decoded(), exactlyAt: update.startTick, now: update.startTick - 1)
            #expect(outcome == .accepted, "revision \(update.revision)")
        }

        mutating func compose(through tick: Int64, from first: Int64) throws {
            for k in first...tick {
                let (frame, base) = animator.frames(at: k)
                sent[k] = try BinaryFrame.encode(frame, previous: base) + FrameEncoder.json(frame, previous: base)
            }
        }
    }

    @Test func updatesThatTravelAsBytes_giveEveryNodeTheSameFrames_andTheSameDigests() throws {
        var accepting = Node(animator: Animator(spec: Fixtures.board, fps: 60, tick: 1000))
        var other = Node(animator: Animator(spec: Fixtures.board, fps: 60, tick: 1000))
        var late: Node?
        var stream: [Data] = []
        var revision: Int64 = 0
        for (tick, change) in try Self.writes(board: Fixtures.board) {
            // The accepting node checks and queues the change, then sends what it stored.
            try accepting.animator.accept(try change.decoded(), at: tick, now: tick - 1)
            let update = ClusterUpdate(
                board: "main", baseRevision: revision, revision: revision + 1, startTick: tick, change: change,
                digest: try ClusterUpdate.digest(of: accepting.animator.state))
            revision += 1
            stream.append(try JSONEncoder().encode(update))
            // Another node decodes the bytes and applies them at the same tick.
            let received = try JSONDecoder().decode(ClusterUpdate.self, from: stream.last!)
            #expect(received == update)
            try other.accept(received)
            #expect(try ClusterUpdate.digest(of: other.animator.state) == update.digest, "digest after revision \(revision)")
            if tick == 1040 {
                // A node joining now reads the snapshot of this revision, then follows the stream.
                late = Node(animator: try Animator(spec: Fixtures.board, fps: 60, state: accepting.animator.state))
            } else if var joined = late {
                try joined.accept(received)
                late = joined
            }
        }
        try accepting.compose(through: 1300, from: 1001)
        try other.compose(through: 1300, from: 1001)
        var joined = try #require(late)
        try joined.compose(through: 1300, from: 1041)
        for tick in Int64(1001)...1300 {
            #expect(other.sent[tick] == accepting.sent[tick], "tick \(tick)")
            if tick > 1040 { #expect(joined.sent[tick] == accepting.sent[tick], "late node, tick \(tick)") }
        }
        #expect(Set(accepting.sent.values).count > 150, "the minute moves: most frames differ from each other")
        let rings = accepting.animator.frames(at: 1300).frame.rings.map(\.id)
        #expect(rings.contains("deploy") && !rings.contains("task4"), "ends with a ring added and one deleted")
    }

    @Test func anUpdateForATickAlreadyComposed_isLate_andChangesNothing() throws {
        var animator = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        _ = animator.frames(at: 1010)
        let before = animator.state
        let change = Animator.Change.patch(BoardPatch(rings: ["move": RingPatch(progress: 0.5)]))
        #expect(try animator.accept(change, exactlyAt: 1010, now: 1011) == .late(appliedThrough: 1010))
        #expect(animator.state == before)
        #expect(try animator.accept(change, exactlyAt: 1011, now: 1011) == .accepted)
        #expect(try animator.accept(change, exactlyAt: 1011, now: 1011) == .accepted, "two updates may start at one tick")
        #expect(try animator.accept(change, exactlyAt: 1020, now: 1011) == .accepted)
        #expect(
            try animator.accept(change, exactlyAt: 1015, now: 1011) == .late(appliedThrough: 1010), "never before a queued one")
    }

    /// Issue 20, defect 3: two updates 20 ms apart through one node with a lead of 3 ticks. The second arrives
    /// while the first is still queued; accepting it must not apply the first before its tick, or the frame
    /// before it (the delta's base) already shows the first change and its delta is empty: a viewer keeps the
    /// old value. Every frame must be the one a node gets that receives each update just in time.
    @Test(arguments: [Animation.none, .timing(.easeOut, duration: 0.3), .spring(Spring())])
    func updatesArrivingEarly_startExactlyAtTheirTicks(animation: Animation) throws {
        let lead: Int64 = 3
        let first = Animator.Change.patch(BoardPatch(rings: ["move": RingPatch(progress: 0.9)], animation: animation))
        let second = Animator.Change.patch(BoardPatch(rings: ["stand": RingPatch(progress: 0.4)], animation: animation))
        // (arrival tick, start tick, change): the second arrives one tick after the first, starting lead later.
        let updates: [(now: Int64, start: Int64, change: Animator.Change)] = [
            (1010, 1010 + lead, first), (1011, 1011 + lead, second), (1013, 1013 + lead + 4, first),
        ]
        var early = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        var justInTime = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        var earlyFrames: [Int64: [UInt8]] = [:]
        var justInTimeFrames: [Int64: [UInt8]] = [:]
        var moveProgress: [Int64: Double?] = [:]
        for tick in Int64(1005)...1100 {
            for update in updates where update.now == tick {
                #expect(try early.accept(update.change, exactlyAt: update.start, now: tick) == .accepted)
            }
            for update in updates where update.start == tick + 1 {
                #expect(try justInTime.accept(update.change, exactlyAt: update.start, now: tick) == .accepted)
            }
            let (frame, base) = early.frames(at: tick)
            moveProgress[tick] = frame.rings.first { $0.id == "move" }?.p
            earlyFrames[tick] = try BinaryFrame.encode(frame, previous: base) + FrameEncoder.json(frame, previous: base)
            let (other, otherBase) = justInTime.frames(at: tick)
            justInTimeFrames[tick] =
                try BinaryFrame.encode(other, previous: otherBase) + FrameEncoder.json(other, previous: otherBase)
            let same = earlyFrames[tick] == justInTimeFrames[tick]
            #expect(same, "the frame of tick \(tick) differs from the one of a node that got the updates just in time")
        }
        // The first update shows from its tick on, not before.
        #expect(moveProgress[1012] == moveProgress[1005])
        #expect(moveProgress[1014] != moveProgress[1012])
        #expect(early.settledState == justInTime.settledState)
    }

    @Test func aBodyNoNodeWouldAccept_isRefusedWhenDecoded() {
        #expect(throws: APIError.self) { try ClusterUpdate.Change.patch(body: Array(#"{"rings":{"move":"x"}}"#.utf8)).decoded() }
    }

    @Test func theDigestChangesWithTheState_andIsSixteenHexDigits() throws {
        var animator = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        let before = try ClusterUpdate.digest(of: animator.state)
        try animator.accept(.patch(BoardPatch(rings: ["move": RingPatch(progress: 0.5)])), at: 1001, now: 1001 - 1)
        let after = try ClusterUpdate.digest(of: animator.state)
        #expect(before != after)
        #expect(after.count == 16 && after.allSatisfy(\.isHexDigit))
    }
}

@Suite("Cluster state digests")
struct SettledStateTests {
    /// A node that composed every frame (and so settled what finished) and one that composed none end with the
    /// same settled state, digest and snapshot after the same update.
    @Test func theSettledState_isTheSameWhicheverFramesANodeComposed() throws {
        var watched = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        var unwatched = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        let first = Animator.Change.patch(
            BoardPatch(rings: ["move": RingPatch(progress: 0.8), "exercise": RingPatch(progress: 0.4)]))
        try watched.accept(first, at: 1001, now: 1001 - 1)
        try unwatched.accept(first, at: 1001, now: 1001 - 1)
        for tick in Int64(1001)...1200 { _ = watched.frames(at: tick) }
        let second = Animator.Change.patch(BoardPatch(rings: ["stand": RingPatch(progress: 0.5)]))
        #expect(try watched.accept(second, exactlyAt: 1210, now: 1011) == .accepted)
        #expect(try unwatched.accept(second, exactlyAt: 1210, now: 1011) == .accepted)
        #expect(watched.settledState == unwatched.settledState)
        #expect(try ClusterUpdate.digest(of: watched.settledState) == ClusterUpdate.digest(of: unwatched.settledState))
        // The frames from the update on are the same too.
        for tick in Int64(1210)...1300 {
            #expect(watched.frames(at: tick).frame == unwatched.frames(at: tick).frame, "tick \(tick)")
        }
    }

    @Test func aGrownBoardsUpdate_travelsWithItsStructureAndItsWrite_andCannotNestAnother() throws {
        let spec = BoardSpec(name: "ci", width: 100, height: 100, background: RGBAColor(red: 0, green: 0, blue: 0), rings: [])
        let update = ClusterUpdate(
            board: "ci", baseRevision: 3, revision: 4, startTick: 120,
            change: .grow(spec, then: .ring("lint", body: Array(#"{"progress":0.5}"#.utf8))), digest: "0123456789abcdef")
        let bytes = try JSONEncoder().encode(update)
        #expect(try JSONDecoder().decode(ClusterUpdate.self, from: bytes) == update)
        let nested = ClusterUpdate(
            board: "ci", baseRevision: 3, revision: 4, startTick: 120,
            change: .grow(spec, then: .grow(spec, then: .cancelCountdown)),
            digest: "0123456789abcdef")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ClusterUpdate.self, from: try JSONEncoder().encode(nested))
        }
    }
}
