import Foundation
import RingCastCore
import RingCastStorage
import Synchronization

/// The embedded store's change log (issue 32): each accepted write is logged as its change, in the form a cluster
/// update carries it (`ClusterUpdate.Change`: the request body as the client sent it, or the structure the server
/// computed), with its revision and start tick; a board's whole state is written as a snapshot now and then, off the
/// write path. A start restores each board's newest snapshot and replays the later changes through the one accept
/// path (`Animator.accept(_:exactlyAt:now:)`), so the board has the state and frames of a server that never
/// stopped.
enum ChangeLog {
    /// A board's snapshot is written once this many changes were logged since the last one (and when it comes to
    /// rest, and at shutdown), or more on a board holding many animations (`snapshotInterval(holding:)`).
    static let snapshotEvery = 1_000

    /// How many changes are logged before a board holding `animations` running animations is written whole
    /// again: `snapshotEvery`, times the power of two that makes it at least `animations`. A snapshot's size
    /// grows with the animations held (a board pushed thousands of times a second with 10 s animations holds tens
    /// of thousands), so each change then bears a bounded share of writing it; a power of two of `snapshotEvery`,
    /// so that a cluster node's rule (a revision divisible by it) still fires at least this often.
    static func snapshotInterval(holding animations: Int) -> Int {
        let blocks = max(1, (animations + snapshotEvery - 1) / snapshotEvery)
        return snapshotEvery << (Int.bitWidth - (blocks - 1).leadingZeroBitCount)
    }

    /// The bytes `change` is logged as: its JSON, as a cluster update carries it.
    static func encode(_ change: ClusterUpdate.Change) throws(EncodingFailure) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(change))
        } catch {
            throw EncodingFailure(encoding: ClusterUpdate.Change.self, error)
        }
    }

    /// What replaying a board's log made of it.
    struct Replayed {
        var animator: Animator
        /// How many changes applied.
        var applied = 0
        /// The changes that did not apply, each with why (a ring the configuration no longer has, say): the board
        /// goes on without them, as a stored value the board no longer takes is ignored.
        var skipped: [String] = []
    }

    /// Replays `changes` (one board's, by ascending revision) onto `animator`, the board as its snapshot left it. A
    /// change logged at another fps is replayed on its own grid (the board is restored there first, as a start at
    /// that fps would). A revision skipped in the log (writes a failed commit reverted) restores the board from its
    /// state and raises its revision, as the revert did. Pure.
    static func replay(_ changes: [StoredChange], onto animator: Animator) -> Replayed {
        let decoded = decode(changes)
        var replayed = Replayed(animator: animator)
        // The snapshot may have been taken between writes starting at one tick.
        replayed.animator.reopenEpochTick()
        for (logged, change) in zip(changes, decoded) {
            let revision = Int64(replayed.animator.revision)
            guard logged.revision > revision else { continue }
            do {
                if logged.fps != replayed.animator.fps || logged.revision > revision + 1 {
                    var restored = try Animator(spec: replayed.animator.spec, fps: logged.fps, state: replayed.animator.state)
                    restored.raiseRevision(to: Int(logged.revision - 1))
                    restored.reopenEpochTick()
                    replayed.animator = restored
                }
                // No frame is composed while replaying, so nothing need be applied before it must be (`now` 0):
                // each change is applied once, to the board as the changes before it leave it (the kept projection).
                // In place: a change refused or late changes nothing, and a copy would copy the queue every time.
                switch try replayed.animator.accept(try change.get(), exactlyAt: logged.tick, now: 0) {
                case .accepted:
                    replayed.applied += 1
                case .late(let appliedThrough):
                    replayed.skipped.append(
                        "revision \(logged.revision): it starts at tick \(logged.tick), not after tick \(appliedThrough)")
                }
            } catch {
                replayed.skipped.append("revision \(logged.revision): \(error)")
            }
        }
        return replayed
    }

    /// Each logged change decoded as the API decoded it (a body through the request types), on every core: decoding
    /// needs no board, and is most of a replay's work.
    private static func decode(_ changes: [StoredChange]) -> [Result<Animator.Change, any Error>] {
        let results = Mutex([Result<Animator.Change, any Error>?](repeating: nil, count: changes.count))
        let chunks = max(1, min(ProcessInfo.processInfo.activeProcessorCount, changes.count / 1_000))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (changes.count * chunk / chunks)..<(changes.count * (chunk + 1) / chunks)
            let decoded = range.map { index in
                Result<Animator.Change, any Error> {
                    try JSONDecoder().decode(ClusterUpdate.Change.self, from: Data(try changes[index].change)).decoded()
                }
            }
            results.withLock { $0.replaceSubrange(range, with: decoded) }
        }
        return results.withLock { $0.map { $0! } }
    }
}
