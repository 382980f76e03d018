import Foundation
import RingCastCluster
import RingCastCore
import Testing

@testable import RingCastServer

/// `ClusterSync`, the cluster node's state machine, event by event: no Redis, no sockets, no threads, no sleeps.
/// Then a seeded randomized model of several nodes on a simulated Redis, checked against the product's
/// invariants after every step (docs/CLUSTER.md, "Testing the sync").
@Suite("Cluster sync state machine")
struct ClusterSyncTests {
    static let board = "main"
    static let address = "sim:6379"

    static func update(_ revision: Int64, base: Int64? = nil, tick: Int64 = 100, digest: UInt8 = 0) -> BoardUpdate {
        BoardUpdate(
            revision: revision, base: base ?? revision - 1, tick: tick, digest: [digest, UInt8(truncatingIfNeeded: revision)],
            update: Array("u\(revision)".utf8))
    }

    static func snapshot(_ revision: Int64) -> RingCastCluster.BoardSnapshot {
        RingCastCluster.BoardSnapshot(revision: revision, snapshot: Array("s\(revision)".utf8))
    }

    /// A machine subscribed and caught up at `revision`, with the digests of the revisions it applied.
    static func live(at revision: Int64, nonce: String = "id1") -> ClusterSync {
        var sync = ClusterSync(address: address, nonce: nonce, revisions: [board: 0])
        _ = sync.subscribed()
        let stream = (1...max(1, revision)).filter { _ in revision > 0 }.map { update(Int64($0)) }
        let actions = sync.allRead(
            id: nonce, [board: ClusterSync.Reading(snapshot: revision > 0 ? snapshot(revision) : nil, updates: stream)])
        for case .apply(let board, let applied) in actions {
            _ = sync.applied(applied, board: board, .applied(digest: applied.digest))
        }
        return sync
    }

    static func applies(_ actions: [ClusterSync.Action]) -> [Int64] {
        actions.compactMap { if case .apply(_, let update) = $0 { update.revision } else { nil } }
    }

    // MARK: - Unexpected events

    @Test func answersToNothingAsked_areReportedUnexpected_andChangeNothing() {
        var sync = Self.live(at: 2)
        let before = sync
        let reading = ClusterSync.Reading(snapshot: Self.snapshot(5), updates: [])
        let answers: [[ClusterSync.Action]] = [
            sync.boardRead(Self.board, reading),
            sync.boardReadFailed(Self.board, .io(endpoint: Self.address, reason: "gone")),
            sync.allRead(id: "id1", [Self.board: reading]),
            sync.allReadFailed(.io(endpoint: Self.address, reason: "gone")),
            sync.clusterIDRenewed("id2"),
            sync.clusterIDRenewalFailed(.io(endpoint: Self.address, reason: "gone")),
        ]
        for actions in answers {
            #expect(actions.count == 1)
            guard case .unexpected = actions.first else {
                Issue.record("not reported unexpected: \(actions)")
                continue
            }
        }
        #expect(sync.boards == before.boards && sync.catalog == before.catalog && sync.health == before.health)
        #expect(sync.connection == before.connection && sync.nonce == before.nonce && sync.asked == before.asked)
    }

    @Test func aReadingAsked_isExpectedOnce_evenWhenTheStateMovedOnMeanwhile() {
        var sync = Self.live(at: 2)
        // A gap: the board is read.
        #expect(sync.received(Self.update(4), board: Self.board).contains(.readBoard(Self.board, from: 2)))
        #expect(sync.asked.boards[Self.board] == 1)
        let reading = ClusterSync.Reading(snapshot: Self.snapshot(4), updates: (2...4).map { Self.update($0) })
        #expect(!sync.boardRead(Self.board, reading).contains { if case .unexpected = $0 { true } else { false } })
        #expect(sync.asked.boards[Self.board] == nil)
        // The same answer again was asked by no one.
        #expect(sync.boardRead(Self.board, reading).first.map { if case .unexpected = $0 { true } else { false } } == true)
    }

    // MARK: - Updates

    @Test func anUpdateThatArrivesEarly_isAppliedExactlyAtItsStartTick_withTheSameFramesAsTheAcceptingNode() throws {
        let spec = try Self.mainSpec()
        let origin: Int64 = 1_795_000_000 * 60
        let accepting = SimulatedNode(name: "a", configured: [spec], fps: 60, tick: origin, nonce: "id1")
        let receiving = SimulatedNode(name: "b", configured: [spec], fps: 60, tick: origin, nonce: "id1")
        for node in [accepting, receiving] {
            node.perform(node.sync.subscribed())
            node.perform(node.sync.allRead(id: "id1", [:]))
        }
        let body = Array(#"{"rings":{"move":0.8},"animation":{"curve":"linear","duration":0.2}}"#.utf8)
        let change = Animator.Change.patch(try RequestDecoder.decode(BoardPatch.self, from: body))
        // Accepted with a lead of 10 ticks, delivered at once: 10 ticks early.
        guard
            case .script(_, let update, _) = try #require(
                accepting.prepareWrite(.change(change, body: body), board: "main", lead: 10))
        else {
            Issue.record("no script")
            return
        }
        #expect(update.tick == origin + 10)
        receiving.perform(receiving.sync.received(update, board: "main"))
        accepting.perform(accepting.sync.scriptAnswered(.applied(revision: 1, streamID: "1-0"), update: update, board: "main"))
        #expect(receiving.sync.revision(of: "main") == 1 && receiving.revision(of: "main") == 1)

        var reference = Animator(spec: spec, fps: 60, tick: origin)
        try reference.accept(change, at: origin + 10, now: origin)
        var before: [UInt8]?
        for tick in origin + 1...origin + 30 {
            let frames = receiving.animators["main"]!.frames(at: tick)
            let expected = reference.frames(at: tick)
            let bytes = BinaryFrame.encode(frames.frame, previous: frames.base)
            #expect(bytes == BinaryFrame.encode(expected.frame, previous: expected.base), "tick \(tick - origin)")
            if tick == origin + 9 { before = bytes }
            #expect(
                bytes
                    == BinaryFrame.encode(
                        accepting.animators["main"]!.frames(at: tick).frame,
                        previous: accepting.animators["main"]!.frames(at: tick).base), "tick \(tick - origin): a and b differ")
        }
        // Nothing moved before the start tick.
        var untouched = Animator(spec: spec, fps: 60, tick: origin)
        let idle = untouched.frames(at: origin + 9)
        #expect(before == BinaryFrame.encode(idle.frame, previous: idle.base))
    }

    @Test func aLateUpdate_reloadsTheBoard_andItsSecondCopyIsNotCountedAgain() {
        var sync = Self.live(at: 1)
        let late = Self.update(2)
        #expect(Self.applies(sync.received(late, board: Self.board)) == [2])
        let reload = sync.applied(late, board: Self.board, .late(appliedThrough: 120))
        #expect(reload.contains(.count(.lateUpdate)))
        // A reload reads the snapshot and every entry after it (from 0).
        #expect(reload.contains(.readBoard(Self.board, from: 0)))
        #expect(sync.revision(of: Self.board) == 1)
        // Its second copy (the subscription and the script both bring an update) waits for the reading.
        #expect(sync.received(late, board: Self.board) == [.count(.updateReceived)])
        let read = sync.boardRead(Self.board, .init(snapshot: Self.snapshot(2), updates: [late]))
        #expect(read.contains(.restore(board: Self.board, snapshot: Self.snapshot(2), updates: [])))
        #expect(Self.applies(read).isEmpty && !read.contains(.count(.lateUpdate)))
        #expect(sync.revision(of: Self.board) == 2 && sync.isCaughtUp(Self.board))
    }

    @Test func aDigestMismatch_reloadsTheBoardFromItsSnapshot() {
        var sync = Self.live(at: 1)
        let update = Self.update(2)
        _ = sync.received(update, board: Self.board)
        let actions = sync.applied(update, board: Self.board, .applied(digest: [9, 9]))
        #expect(actions.contains(.count(.digestMismatch)))
        #expect(actions.contains(.readBoard(Self.board, from: 0)))
        #expect(!sync.isCaughtUp(Self.board))
        let read = sync.boardRead(Self.board, .init(snapshot: Self.snapshot(2), updates: [update]))
        #expect(read.contains(.restore(board: Self.board, snapshot: Self.snapshot(2), updates: [])))
        #expect(sync.isCaughtUp(Self.board))
    }

    /// Redis keeps a snapshot now and then and the changes after it (issue 32): a reload restores the snapshot with
    /// those changes replayed onto it, in one action, and holds the newest revision with its digests.
    @Test func aReloadFromAnOlderSnapshot_replaysTheStreamAfterIt_inOneRestore() {
        var sync = Self.live(at: 1)
        let late = Self.update(6)
        _ = sync.received(Self.update(2), board: Self.board)
        _ = sync.applied(Self.update(2), board: Self.board, .late(appliedThrough: 300))
        let snapshot = RingCastCluster.BoardSnapshot(revision: 6, covers: 3, snapshot: Array("s3".utf8))
        let read = sync.boardRead(Self.board, .init(snapshot: snapshot, updates: (2...6).map { Self.update($0) }))
        #expect(read.contains(.restore(board: Self.board, snapshot: snapshot, updates: (4...6).map { Self.update($0) })))
        #expect(Self.applies(read).isEmpty)
        #expect(sync.revision(of: Self.board) == 6 && sync.isCaughtUp(Self.board))
        // The digests of the replayed revisions are held: a copy of 6 with another digest is another history.
        #expect(sync.received(late, board: Self.board) == [.count(.updateReceived)])
        let other = Self.update(6, digest: 7)
        #expect(sync.received(other, board: Self.board).contains { if case .renewClusterID = $0 { true } else { false } })
    }

    /// Every board is read from its snapshot when all are read: a new cluster id restores them all at once, before the
    /// node takes a write under it (a board left to be read again would take writes on a revision of another history:
    /// the cluster model found one doing so).
    @Test func aReadingOfEveryBoard_readsEachFromItsSnapshot_andANewIDRestoresThemAllAtOnce() {
        var sync = Self.live(at: 4)
        _ = sync.subscriptionLost("gone")
        #expect(sync.subscribed().contains(.readAll(from: [Self.board: 0])))
        let snapshot = RingCastCluster.BoardSnapshot(revision: 6, covers: 2, snapshot: Array("s2".utf8))
        let read = sync.allRead(id: "id9", [Self.board: .init(snapshot: snapshot, updates: (3...6).map { Self.update($0) })])
        #expect(read.contains(.changeNonce("id9")))
        #expect(read.contains(.restore(board: Self.board, snapshot: snapshot, updates: (3...6).map { Self.update($0) })))
        #expect(!read.contains { if case .readBoard = $0 { true } else { false } })
        #expect(sync.revision(of: Self.board) == 6 && sync.isCaughtUp(Self.board))
    }

    /// A board's reading asked to continue what was held, that must take the snapshot after all (a digest mismatch
    /// came while it was out) and lacks the snapshot's first entry, is made again from the snapshot.
    @Test func aBoardsReadingThatLacksTheSnapshotsEntries_isMadeAgainFromTheSnapshot() {
        var sync = Self.live(at: 4)
        _ = sync.received(Self.update(5), board: Self.board)
        #expect(sync.received(Self.update(7), board: Self.board).contains(.readBoard(Self.board, from: 5)))
        _ = sync.applied(Self.update(5), board: Self.board, .applied(digest: [9, 9]))
        let snapshot = RingCastCluster.BoardSnapshot(revision: 7, covers: 2, snapshot: Array("s2".utf8))
        let read = sync.boardRead(Self.board, .init(snapshot: snapshot, updates: (5...7).map { Self.update($0) }, from: 5))
        #expect(read.contains(.readBoard(Self.board, from: 0)))
        #expect(!read.contains { if case .restore = $0 { true } else { false } })
        let whole = sync.boardRead(Self.board, .init(snapshot: snapshot, updates: (3...7).map { Self.update($0) }))
        #expect(whole.contains(.restore(board: Self.board, snapshot: snapshot, updates: (3...7).map { Self.update($0) })))
        #expect(sync.revision(of: Self.board) == 7)
    }

    /// A board that never had a snapshot (covers 0) is its first change or its configured spec and every change
    /// since; a stream with a hole after the snapshot is served up to the hole, and said so.
    @Test func aBoardWithoutSnapshot_isReplayedFromItsFirstChange_andAHoleIsNamed() {
        var sync = ClusterSync(address: Self.address, nonce: "id1", revisions: [Self.board: 0])
        _ = sync.subscribed()
        let none = RingCastCluster.BoardSnapshot(revision: 3, covers: 0, snapshot: [])
        let read = sync.allRead(id: "id1", [Self.board: .init(snapshot: none, updates: (1...3).map { Self.update($0) })])
        // Held revision 0 continues into 1: the changes are applied as they come (a late one reloads, as above).
        #expect(Self.applies(read) == [1, 2, 3])
        var holed = ClusterSync(address: Self.address, nonce: "id1", revisions: [Self.board: 0])
        _ = holed.subscribed()
        let snapshot = RingCastCluster.BoardSnapshot(revision: 5, covers: 2, snapshot: Array("s2".utf8))
        let found = holed.allRead(id: "id1", [Self.board: .init(snapshot: snapshot, updates: [Self.update(3), Self.update(5)])])
        #expect(found.contains(.restore(board: Self.board, snapshot: snapshot, updates: [Self.update(3)])))
        #expect(found.contains { if case .log(.error, let text) = $0 { text.contains("lacks revision 4") } else { false } })
        #expect(holed.revision(of: Self.board) == 3)
    }

    /// An update Redis no longer has (delivered late, after Redis lost its data or went back) is read for once, then
    /// dropped: reading again would find the same, for ever (the cluster model found a node doing so).
    @Test func anUpdateRedisNoLongerHas_isReadForOnce_thenDropped() {
        var sync = ClusterSync(address: Self.address, nonce: "id1", revisions: [Self.board: 0])
        _ = sync.subscribed()
        _ = sync.allRead(id: "id1", [:])
        let stale = Self.update(27)
        #expect(sync.received(stale, board: Self.board).contains(.readBoard(Self.board, from: 0)))
        let read = sync.boardRead(Self.board, .init(snapshot: nil, updates: []))
        #expect(!read.contains { if case .readBoard = $0 { true } else { false } })
        #expect(read.contains(.boardCaughtUp(Self.board)) && sync.isCaughtUp(Self.board))
        // One Redis has but had not yet when it was read is read for again.
        #expect(sync.received(Self.update(3), board: Self.board).contains(.readBoard(Self.board, from: 0)))
        let found = sync.boardRead(
            Self.board,
            .init(snapshot: RingCastCluster.BoardSnapshot(revision: 1, covers: 0, snapshot: []), updates: [Self.update(1)]))
        #expect(Self.applies(found) == [1] && found.contains(.readBoard(Self.board, from: 1)))
    }

    @Test func duplicatedAndReorderedDeliveries_ofTheSameUpdates_areAppliedOnce_inRevisionOrder() {
        var sync = Self.live(at: 1)
        var applied: [Int64] = []
        func feed(_ actions: [ClusterSync.Action]) {
            for case .apply(let board, let update) in actions {
                applied.append(update.revision)
                feed(sync.applied(update, board: board, .applied(digest: update.digest)))
            }
        }
        feed(sync.received(Self.update(2), board: Self.board))
        feed(sync.received(Self.update(2), board: Self.board))
        // 4 before 3: a gap, so the board is read; 3 then follows what is held and is applied at once.
        let gap = sync.received(Self.update(4), board: Self.board)
        #expect(gap.contains(.readBoard(Self.board, from: 2)))
        feed(gap)
        feed(sync.received(Self.update(3), board: Self.board))
        feed(sync.received(Self.update(4), board: Self.board))
        feed(sync.received(Self.update(3), board: Self.board))
        feed(sync.boardRead(Self.board, .init(snapshot: Self.snapshot(4), updates: (2...4).map { Self.update($0) })))
        feed(sync.received(Self.update(4), board: Self.board))
        #expect(applied == [2, 3, 4])
        #expect(sync.revision(of: Self.board) == 4 && sync.isCaughtUp(Self.board))
    }

    @Test func aResubscription_readsEveryBoard_andAppliesWhatWasMissed_beforeTheNodeIsReady() {
        var sync = Self.live(at: 2)
        #expect(sync.problem == nil)
        _ = sync.subscriptionLost("Connection reset by peer")
        #expect(sync.problem?.contains("not subscribed to Redis at sim:6379: Connection reset by peer") == true)
        let again = sync.subscribed()
        #expect(again.contains(.readAll(from: [Self.board: 0])))
        #expect(sync.problem == "catching up with Redis at sim:6379")
        let read = sync.allRead(
            id: "id1",
            [
                Self.board: .init(snapshot: Self.snapshot(5), updates: (2...5).map { Self.update($0) }),
                "other": .init(snapshot: Self.snapshot(1), updates: []),
            ])
        #expect(Self.applies(read) == [3, 4, 5])
        #expect(read.contains(.restore(board: "other", snapshot: Self.snapshot(1), updates: [])))
        #expect(read.contains(.everyBoardCaughtUp))
        #expect(sync.problem == nil)
    }

    // MARK: - Redis behind the node (defect 4)

    @Test func redisRolledBackBelowTheNodesRevision_isDetectedAtTheCatchUp_andTheClusterFollowsRedisUnderANewID() {
        var sync = Self.live(at: 5)
        _ = sync.subscriptionLost("Connection reset by peer")
        _ = sync.subscribed()
        // Redis came back with revision 3 and the same cluster id.
        let found = sync.allRead(
            id: "id1", [Self.board: .init(snapshot: Self.snapshot(3), updates: (1...3).map { Self.update($0) })])
        #expect(found.contains(.renewClusterID(replacing: "id1")))
        #expect(!found.contains { if case .restore = $0 { true } else { false } })
        #expect(sync.problem?.contains("older history") == true, "\(sync.problem ?? "ready")")
        // A write or an update meanwhile changes nothing.
        #expect(Self.applies(sync.received(Self.update(4, digest: 7), board: Self.board)).isEmpty)
        let renewed = sync.clusterIDRenewed("id2")
        // A reload: every board's snapshot and the entries after it.
        #expect(renewed.contains(.readAll(from: [Self.board: 0])))
        let reloaded = sync.allRead(id: "id2", [Self.board: .init(snapshot: Self.snapshot(3), updates: [])])
        #expect(reloaded.contains(.changeNonce("id2")))
        #expect(reloaded.contains(.restore(board: Self.board, snapshot: Self.snapshot(3), updates: [])))
        #expect(sync.revision(of: Self.board) == 3 && sync.nonce == "id2" && sync.problem == nil)
        // And it follows Redis's history from there.
        #expect(Self.applies(sync.received(Self.update(4, digest: 7), board: Self.board)) == [4])
    }

    /// A node that started from a snapshot at revision 2 holds no digest of revision 1; the subscription may then
    /// deliver revision 1, published before the reading. That copy is not Redis going back in time (a loaded
    /// `make test` once replaced the cluster's id for it): Redis's own revision, read, decides.
    @Test func aLateCopyOfRevisionOne_afterAReadingAtTwo_isCheckedInRedis_notTakenForARollback() {
        var sync = ClusterSync(address: Self.address, nonce: "id1", revisions: [Self.board: 0])
        _ = sync.subscribed()
        _ = sync.allRead(id: "id1", [Self.board: .init(snapshot: Self.snapshot(2), updates: [])])
        #expect(sync.revision(of: Self.board) == 2 && sync.problem == nil)
        let late = sync.received(Self.update(1, base: 0), board: Self.board)
        #expect(late.contains(.readBoard(Self.board, from: 2)))
        #expect(!late.contains(.renewClusterID(replacing: "id1")))
        // Redis holds revision 2: nothing went back, and nothing is renewed or reloaded.
        let read = sync.boardRead(Self.board, .init(snapshot: Self.snapshot(2), updates: [Self.update(2)]))
        #expect(!read.contains(.renewClusterID(replacing: "id1")))
        #expect(sync.revision(of: Self.board) == 2 && sync.problem == nil && sync.nonce == "id1")
        // Had Redis held only revision 1 of a new history, the same reading would have found it behind.
        var rolledBack = sync
        _ = rolledBack.received(Self.update(1, base: 0), board: Self.board)
        let behind = rolledBack.boardRead(Self.board, .init(snapshot: Self.snapshot(1), updates: [Self.update(1, base: 0)]))
        #expect(behind.contains(.renewClusterID(replacing: "id1")))
    }

    @Test func aConflictNamingAnOlderRevision_isRedisBehindTheNode_notARetryForever() {
        var sync = Self.live(at: 5)
        let actions = sync.scriptAnswered(.conflict(current: 3), update: Self.update(6), board: Self.board)
        #expect(actions.contains(.renewClusterID(replacing: "id1")))
        #expect(sync.problem != nil)
        // The renewal fails (Redis went away): asked again once a command works.
        _ = sync.clusterIDRenewalFailed(.io(endpoint: Self.address, reason: "Connection refused"))
        #expect(sync.problem?.contains("unreachable") == true)
        #expect(sync.commandSucceeded(.read).contains(.renewClusterID(replacing: "id1")))
    }

    @Test func theRevisionHeldWithAnotherDigestInRedis_isAnotherHistory_andIsFollowed() {
        var sync = Self.live(at: 3)
        _ = sync.subscriptionLost("gone")
        _ = sync.subscribed()
        // Rolled back to 1, then two other writes: revision 3 again, another state.
        let other = [Self.update(2, digest: 5), Self.update(3, digest: 5)]
        let found = sync.allRead(id: "id1", [Self.board: .init(snapshot: Self.snapshot(3), updates: [other[1]])])
        #expect(found.contains(.renewClusterID(replacing: "id1")))
        // An update of a revision held, with another digest, says the same.
        var live = Self.live(at: 3)
        #expect(live.received(other[0], board: Self.board).contains(.renewClusterID(replacing: "id1")))
    }

    @Test func anotherNodesRenewedID_isFollowed_withEveryBoardReloaded() {
        var sync = Self.live(at: 2)
        #expect(sync.clusterIDAnnounced("id1").isEmpty)
        let actions = sync.clusterIDAnnounced("id9")
        #expect(actions.contains(.readAll(from: [Self.board: 0])))
        let read = sync.allRead(id: "id9", [Self.board: .init(snapshot: Self.snapshot(2), updates: [])])
        #expect(
            read.contains(.changeNonce("id9"))
                && read.contains(.restore(board: Self.board, snapshot: Self.snapshot(2), updates: [])))
    }

    // MARK: - Readiness

    @Test(arguments: [
        ("OOM command not allowed when used memory > 'maxmemory'.", "out of memory"),
        ("READONLY You can't write against a read only replica.", "read-only replica"),
    ])
    func aRefusalOfWrites_keepsReadiness503_despiteSuccessfulPings_untilAWriteWorks(_ reply: String, _ words: String) {
        var sync = Self.live(at: 1)
        _ = sync.commandFailed(.server(reply))
        #expect(sync.problem?.contains(words) == true, "\(sync.problem ?? "ready")")
        #expect(sync.healthCheckDue() == .probeWrite)
        for _ in 0..<3 {
            _ = sync.commandSucceeded(.read)
            #expect(sync.problem?.contains(words) == true, "a PING cleared it: \(sync.problem ?? "ready")")
        }
        // A script that changed nothing (a conflict) is no proof either.
        _ = sync.scriptAnswered(.conflict(current: 1), update: Self.update(2), board: Self.board)
        #expect(sync.problem?.contains(words) == true)
        _ = sync.commandSucceeded(.write)
        #expect(sync.problem == nil)
        #expect(sync.healthCheckDue() == .ping)
    }

    @Test func anUnreachableRedis_isNamedSo_andAPingThatWorksClearsIt_andCatchesUp() {
        var sync = Self.live(at: 1)
        _ = sync.commandFailed(.connectFailed(endpoint: Self.address, reason: "Connection refused"))
        #expect(sync.problem?.hasPrefix("Redis at sim:6379 is unreachable: cannot connect") == true, "\(sync.problem ?? "")")
        let back = sync.commandSucceeded(.read)
        #expect(back.contains(.readAll(from: [Self.board: 0])))
        #expect(sync.problem == nil)
    }

    @Test func aWriteThatWorks_clearsAnOutOfMemoryProblem() {
        var sync = Self.live(at: 1)
        _ = sync.commandFailed(.server("OOM command not allowed when used memory > 'maxmemory'."))
        let update = Self.update(2)
        let actions = sync.scriptAnswered(.applied(revision: 2, streamID: "2-0"), update: update, board: Self.board)
        #expect(Self.applies(actions) == [2])
        #expect(sync.problem == nil)
    }

    static func mainSpec() throws -> BoardSpec {
        let configuration = try RingCastConfiguration.load(
            file: repositoryRoot.appendingPathComponent("config/ringcast.json").path, environment: [:])
        return try #require(configuration.boards.first { $0.name == "main" })
    }
}
