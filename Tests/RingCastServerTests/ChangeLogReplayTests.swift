import Foundation
import RingCastCore
import RingCastStorage
import Testing

@testable import RingCastServer

/// Issue 32, items 1 and 5: what a write stores is its change; a start restores the newest snapshot and replays the
/// changes logged after it through the one accept path. Checked on seeded random runs of a busy board, as the server
/// runs it — writes of every kind (as request bodies, decoded as the API decodes them), refusals among them, frames
/// composed every tick, now and then a write the store failed and the board reverted — by restoring a snapshot taken
/// at a random earlier point, replaying the log after it, and comparing every frame from the last write's start on
/// with the board that never stopped.
@Suite("Replaying the change log")
struct ChangeLogReplayTests {
    /// xorshift64*: the same sequence for a seed on every machine.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    static let rings = ["move", "exercise", "stand", "task1", "task2", "task3", "task4"]

    static func animation(_ generator: inout Generator) -> String {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return #""none""#
        case 1: return #"{"curve":"linear","duration":\#(Double.random(in: 0.05...3, using: &generator))}"#
        case 2: return #"{"curve":"easeOut","duration":0.4}"#
        case 3: return #"{"spring":{"response":\#(Double.random(in: 0.2...1, using: &generator)),"dampingFraction":0.5}}"#
        case 4: return #"{"curve":"easeInOut","duration":0.5,"repeat":3,"autoreverse":true}"#
        case 5: return #"{"curve":"linear","duration":1,"repeat":"forever"}"#
        case 6: return #"{"spring":"bouncy"}"#
        default: return #"{"curve":"easeInOut","duration":1}"#
        }
    }

    /// One random write as it is logged (a body as the client sent it, or what the server computed).
    static func change(_ generator: inout Generator) -> ClusterUpdate.Change {
        func body(_ text: String) -> [UInt8] { Array(text.utf8) }
        let ring = rings.randomElement(using: &generator)!
        let progress = Double.random(in: 0...1.5, using: &generator)
        switch Int.random(in: 0..<20, using: &generator) {
        case 0: return .ring("nope", body: body(#"{"progress":0.5}"#))  // refused: no such ring
        case 1: return .ring("overall", body: body(#"{"progress":0.5}"#))  // refused: derived
        case 2: return .background(body: body(##"{"color":"#4533c9","transition":"circle","duration":0.4}"##))
        case 3:
            return .startCountdown(
                seconds: Double.random(in: 0.2...3, using: &generator), animated: Bool.random(using: &generator))
        case 4: return .cancelCountdown
        case 5, 6:
            return .patch(
                body: body(
                    ##"{"rings":{"\##(ring)":\##(progress),"stand":{"colors":["#2ecc71","#3498db"]}},"animation":\##(animation(&generator))}"##
                ))
        default: return .ring(ring, body: body(#"{"progress":\#(progress),"animation":\#(animation(&generator))}"#))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aSnapshotPlusTheChangesLoggedAfterIt_continuesWithTheFramesOfTheBoardThatNeverStopped(seed: UInt64) throws {
        var generator = Generator(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        let fps = 60
        let spec = try #require(try TestApplication().boards["main"]).animator.spec
        let origin: Int64 = 1_764_000_000 * 60
        var live = Animator(spec: spec, fps: fps, tick: origin)
        var log: [StoredChange] = []
        // Snapshots as the store would hold them: the state's bytes and the revision they cover.
        var snapshots: [(revision: Int64, bytes: [UInt8])] = [(Int64(live.revision), try StateCodec.encode(live.state))]
        var lastStart = origin
        var (checks, refusals, reverts) = (0, 0, 0)
        for tick in origin...(origin + 900) {
            for _ in 0..<Int.random(in: 0...8, using: &generator) where Int.random(in: 0..<3, using: &generator) == 0 {
                let logged = Self.change(&generator)
                let before = live
                do {
                    // As the pipeline does: on a copy, kept only when it makes a revision (a write that changes
                    // nothing, such as cancelling no countdown, is answered and neither applied nor logged).
                    var trial = live
                    let at = tick + 1 + Int64.random(in: 0...3, using: &generator)
                    let start = try trial.accept(try logged.decoded(), at: at, now: tick)
                    guard trial.revision == live.revision + 1 else { continue }
                    live = trial
                    if Int.random(in: 0..<50, using: &generator) == 0 {
                        // The store failed this write: the board goes back to what is durable, its revision raised.
                        let handedOut = live.revision
                        live = try Animator(spec: before.spec, fps: fps, state: before.state)
                        live.raiseRevision(to: handedOut)
                        reverts += 1
                        continue
                    }
                    lastStart = max(lastStart, start)
                    log.append(
                        StoredChange(
                            board: "main", revision: Int64(live.revision), tick: start, fps: fps,
                            change: try ChangeLog.encode(logged)))
                    // A snapshot between two writes that start at the same tick (the store takes one after 1,000
                    // changes or at rest, whenever that comes): the rest of that tick's writes follow in the log.
                    if Int.random(in: 0..<40, using: &generator) == 0 {
                        snapshots.append((Int64(live.revision), try StateCodec.encode(live.state)))
                    }
                } catch {
                    refusals += 1
                }
            }
            if Int.random(in: 0..<30, using: &generator) == 0 {
                snapshots.append((Int64(live.revision), try StateCodec.encode(live.state)))
            }
            if tick % 13 == 0 {
                // A start: any snapshot taken so far, and the log after it.
                let snapshot = snapshots.randomElement(using: &generator)!
                let state = try StateCodec.decode(snapshot.bytes, source: "snapshot")
                let restored = try Animator(spec: state.spec ?? spec, fps: fps, state: state)
                let replayed = ChangeLog.replay(log.filter { $0.revision > snapshot.revision }, onto: restored)
                #expect(replayed.skipped.isEmpty, "seed \(seed) tick \(tick): \(replayed.skipped)")
                var started = replayed.animator
                // The revision of the newest durable write: one a failed write raised since is not stored (after a
                // start the ETags name another run, so no revision names two states).
                let durable = log.last.map { Int($0.revision) } ?? Int(snapshots[0].revision)
                #expect(started.revision == max(durable, Int(snapshot.revision)))
                var ahead = live
                let from = max(lastStart, tick)
                for later in from...(from + 40) {
                    guard started.frames(at: later).frame == ahead.frames(at: later).frame else {
                        Issue.record(
                            "seed \(seed): replayed from revision \(snapshot.revision) at tick \(tick), frame \(later) differs")
                        return
                    }
                }
                var expected = ahead.snapshot(at: from)
                expected.revision = started.revision
                #expect(started.snapshot(at: from) == expected, "seed \(seed) tick \(tick): the snapshots differ")
                checks += 1
            }
            _ = live.frames(at: tick)
        }
        #expect(checks > 60 && refusals > 5 && reverts > 0, "checked \(checks), refused \(refusals), reverted \(reverts)")
    }

    /// A change logged at another fps is replayed on its own grid: the board as a start at that fps would hold it.
    /// A snapshot's size grows with the animations a board holds: it is written after as many changes at least, in
    /// powers of two of 1,000 (a cluster node's rule divides the revision by it).
    @Test(arguments: [(0, 1_000), (1, 1_000), (1_000, 1_000), (1_001, 2_000), (2_500, 4_000), (24_000, 32_000)])
    func snapshotsOfABoardHoldingManyAnimations_comeLessOften(animations: Int, interval: Int) {
        #expect(ChangeLog.snapshotInterval(holding: animations) == interval)
    }

    @Test func changesLoggedAtAnotherFps_replayOnTheirOwnGrid() throws {
        let spec = try #require(try TestApplication().boards["main"]).animator.spec
        let origin: Int64 = 1_764_000_000 * 30
        var thirty = Animator(spec: spec, fps: 30, tick: origin)
        let change = ClusterUpdate.Change.ring(
            "move", body: Array(#"{"progress":0.8,"animation":{"curve":"linear","duration":2}}"#.utf8))
        let start = try thirty.accept(try change.decoded(), at: origin + 1, now: origin)
        let logged = StoredChange(board: "main", revision: 1, tick: start, fps: 30, change: try ChangeLog.encode(change))
        let replayed = ChangeLog.replay([logged], onto: Animator(spec: spec, fps: 60, tick: origin * 2))
        #expect(replayed.applied == 1 && replayed.skipped.isEmpty)
        var ahead = thirty
        var started = replayed.animator
        #expect(started.fps == 30)
        for later in (origin + 1)...(origin + 70) {
            #expect(started.frames(at: later).frame == ahead.frames(at: later).frame)
        }
    }

    /// A change that no longer applies (the configuration took its ring away) is left out and said; the rest replay.
    @Test func aChangeThatNoLongerApplies_isLeftOut_andTheRestReplay() throws {
        let spec = try #require(try TestApplication().boards["main"]).animator.spec
        let origin: Int64 = 1_764_000_000 * 60
        let changes: [ClusterUpdate.Change] = [
            .ring("gone", body: Array(#"{"progress":0.5}"#.utf8)), .ring("move", body: Array(#"{"progress":0.5}"#.utf8)),
        ]
        let logged = try changes.enumerated().map { index, change in
            StoredChange(
                board: "main", revision: Int64(index + 1), tick: origin + 1 + Int64(index), fps: 60,
                change: try ChangeLog.encode(change))
        }
        let replayed = ChangeLog.replay(logged, onto: Animator(spec: spec, fps: 60, tick: origin))
        #expect(replayed.applied == 1)
        #expect(replayed.skipped.count == 1 && replayed.skipped[0].hasPrefix("revision 1:"), "\(replayed.skipped)")
        #expect(replayed.animator.projected.target(ofRing: "move") == 0.5)
        #expect(replayed.animator.revision == 2)
    }
}
