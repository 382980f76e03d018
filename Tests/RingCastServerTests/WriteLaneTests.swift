import Foundation
import Testing

@testable import RingCastServer

/// `WriteLane`, the order of one board's writes on a cluster node: by event, then by a seeded random run against a
/// Redis that applies a write only on the write it names (the write script's rule), with another node writing too.
@Suite("Write lane")
struct WriteLaneTests {
    typealias Lane = WriteLane<String>

    @Test func aWriteOnAnIdleLaneStartsAtOnceOnTheBoardHeld() {
        var lane = Lane(depth: 4)
        lane.enqueue(1, chainable: true)
        #expect(lane.next() == .start(1))
        #expect(lane.basis == nil)
        #expect(lane.next() == nil, "one write is computed at a time")
    }

    @Test func theNextWriteIsComputedOnTheOneSentBeforeIt() {
        var lane = Lane(depth: 4)
        lane.enqueue(1, chainable: true)
        lane.enqueue(2, chainable: true)
        #expect(lane.next() == .start(1))
        lane.sent(1, id: "w1", projection: "after 1")
        #expect(lane.next() == .start(2))
        #expect(lane.basis?.after == "w1")
        #expect(lane.basis?.projection == "after 1")
    }

    @Test func aWriteWithAPreconditionWaitsUntilEveryWriteSentIsAnswered() {
        var lane = Lane(depth: 4)
        lane.enqueue(1, chainable: true)
        lane.enqueue(2, chainable: false)
        lane.enqueue(3, chainable: true)
        _ = lane.next()
        lane.sent(1, id: "w1", projection: "after 1")
        #expect(lane.next() == nil, "2 is checked against the board held, and 3 comes after it")
        let followed = lane.answered("w1", landed: true)
        #expect(followed)
        #expect(lane.next() == .start(2))
        #expect(lane.basis == nil)
    }

    @Test func nothingIsComputedOnAWriteThatLeavesNoProjection() {
        var lane = Lane(depth: 4)
        lane.enqueue(1, chainable: true)
        lane.enqueue(2, chainable: true)
        _ = lane.next()
        lane.sent(1, id: "w1", projection: nil)
        #expect(lane.next() == nil)
        _ = lane.answered("w1", landed: true)
        #expect(lane.next() == .start(2))
        #expect(lane.basis == nil)
    }

    /// A lane of `depth` that took writes 1 … `waiting` and sent 1 … `sent` of them in a row (as "w1", "w2", …).
    static func lane(depth: Int, waiting: Int, sent: Int) -> Lane {
        var lane = Lane(depth: depth)
        for ticket in 1...waiting { lane.enqueue(ticket, chainable: true) }
        for ticket in 1...sent {
            #expect(lane.next() == .start(ticket))
            lane.sent(ticket, id: "w\(ticket)", projection: "after \(ticket)")
        }
        return lane
    }

    @Test func atMostDepthWritesAreInRedisHands() {
        var lane = Self.lane(depth: 2, waiting: 3, sent: 2)
        #expect(lane.next() == nil)
        _ = lane.answered("w1", landed: true)
        #expect(lane.next() == .start(3))
        #expect(lane.basis?.after == "w2")
    }

    @Test func aWriteThatDoesNotLandBreaksTheLaneUntilEveryWriteSentIsAnswered_thenRetriesGoFirstInOrder() {
        var lane = Self.lane(depth: 8, waiting: 4, sent: 3)
        let first = lane.answered("w1", landed: false)
        #expect(first, "1 followed nothing that failed")
        lane.again(1)
        #expect(lane.broken)
        #expect(lane.next() == nil, "nothing is computed on writes that cannot land, and the retry waits")
        let second = lane.answered("w2", landed: false)
        #expect(!second, "2 followed 1, which did not land")
        lane.again(2)
        let third = lane.answered("w3", landed: false)
        #expect(!third)
        lane.again(3)
        #expect(!lane.broken)
        #expect(lane.next() == .again(1))
        #expect(lane.basis == nil)
        lane.sent(1, id: "w1b", projection: "after 1b")
        #expect(lane.next() == nil, "a retry waits for what was sent before it, so 2 follows 1 again")
        _ = lane.answered("w1b", landed: true)
        #expect(lane.next() == .again(2))
        lane.sent(2, id: "w2b", projection: "after 2b")
        #expect(lane.next() == nil)
        _ = lane.answered("w2b", landed: true)
        #expect(lane.next() == .again(3))
        lane.finished(3)
        #expect(lane.next() == .start(4))
        lane.finished(4)
        #expect(lane.isIdle)
    }

    @Test func aWriteAnsweredWithoutBeingSentFreesTheLane() {
        var lane = Lane(depth: 4)
        lane.enqueue(1, chainable: true)
        lane.enqueue(2, chainable: true)
        _ = lane.next()
        lane.finished(1)
        #expect(lane.next() == .start(2))
        lane.finished(1)  // late, for a write no longer computed: nothing
        #expect(lane.computing?.ticket == 2)
    }

    // MARK: - Seeded random run

    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]

    /// A node's writes (each appends its value to the board) go through the lane to a Redis that applies a write only
    /// when its base revision is the board's and the write it names is the board's newest (`WriteScript`), while
    /// another node writes too and Redis answers in its own time. Checked after every step: the lane's invariants,
    /// and that Redis never applies a write on a board other than the one it was computed on. At the end, with the
    /// other node quiet: every write of the node landed exactly once, in the order the writes came.
    @Test(arguments: seeds)
    func randomWritesAnswersAndOtherNodes_landEveryWriteOnceInOrderOnTheBoardItWasComputedOn(_ seed: UInt64) {
        var model = LaneModel(seed: seed)
        for _ in 0..<4_000 {
            model.step(othersWrite: true)
            if let failure = model.failure {
                Issue.record("seed \(seed): \(failure)")
                return
            }
        }
        var rounds = 0
        while !model.lane.isIdle || !model.redisQueue.isEmpty {
            model.step(othersWrite: false)
            rounds += 1
            if rounds > 100_000 || model.failure != nil { break }
        }
        if let failure = model.failure { Issue.record("seed \(seed): \(failure)") }
        #expect(model.lane.isIdle, "the lane drains")
        let mine = model.redisBoard.filter { $0 >= 0 }
        let firstOutOfOrder = mine.indices.first { mine[$0] != $0 }
        let around = firstOutOfOrder.map { "\($0): \(mine[max(0, $0 - 3)..<min(mine.count, $0 + 3)])" } ?? "none"
        #expect(
            mine.count == model.written && firstOutOfOrder == nil,
            "every write landed once, in order: \(mine.count) of \(model.written), first out of order at \(around)")
        #expect(model.counts["chained", default: 0] > 100, "\(model.counts)")
        #expect(model.counts["broken", default: 0] > 10, "\(model.counts)")
        #expect(model.counts["retried", default: 0] > 10, "\(model.counts)")
    }
}

/// The world of the random run: the node (its lane, the board it holds, its writes by ticket) and Redis (the board, its
/// newest write's id and the writes sent to it, in order).
private struct LaneModel {
    struct Projection: Equatable {
        var revision: Int
        var board: [Int]
    }

    struct Command {
        var ticket: Int
        var id: String
        var after: String?
        var base: Projection
        var result: [Int]
    }

    var rng: SplitMix64
    var lane = WriteLane<Projection>(depth: 5)
    /// The board as the node holds it.
    var held = Projection(revision: 0, board: [])
    var redisBoard: [Int] = []
    var redisRevision = 0
    var redisNewest: String?
    var redisQueue: [Command] = []
    var written = 0
    var values: [Int: Int] = [:]
    var chainable: [Int: Bool] = [:]
    var sentCount = 0
    var otherCount = 0
    var failure: String?
    var counts: [String: Int] = [:]

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func step(othersWrite: Bool) {
        switch rng.below(10) {
        case 0...3 where othersWrite:
            let ticket = written
            values[ticket] = written
            written += 1
            let mayChain = rng.below(8) != 0
            chainable[ticket] = mayChain
            lane.enqueue(ticket, chainable: mayChain)
        case 4 where othersWrite:
            // Another node's write, computed on Redis's board.
            otherCount += 1
            redisBoard.append(-otherCount)
            redisRevision += 1
            redisNewest = "other \(otherCount)"
        case 5 where othersWrite:
            // The subscription brings the board as Redis has it, when no write of the node is in Redis's hands.
            if redisQueue.isEmpty { held = Projection(revision: redisRevision, board: redisBoard) }
        default:
            answerOne()
        }
        pump()
        check()
    }

    /// Redis runs the oldest write sent, and the node learns the outcome.
    mutating func answerOne() {
        guard !redisQueue.isEmpty else { return }
        let command = redisQueue.removeFirst()
        let applies = command.base.revision == redisRevision && (command.after == nil || command.after == redisNewest)
        if applies {
            if command.base.board != redisBoard {
                failure = "write \(command.id) applied on \(redisBoard), computed on \(command.base.board)"
            }
            redisBoard = command.result
            redisRevision += 1
            redisNewest = command.id
            held = Projection(revision: redisRevision, board: redisBoard)
        }
        let followed = lane.answered(command.id, landed: applies)
        if !followed { counts["broken", default: 0] += 1 }
        if !applies {
            // As the node does after a conflict: it catches up, and computes the write again.
            held = Projection(revision: redisRevision, board: redisBoard)
            counts["retried", default: 0] += 1
            lane.again(command.ticket)
        }
    }

    mutating func pump() {
        while let step = lane.next() {
            let ticket: Int
            switch step {
            case .start(let started): ticket = started
            case .again(let again): ticket = again
            }
            let basis = lane.basis
            if basis != nil { counts["chained", default: 0] += 1 }
            if case .again = step, basis != nil { failure = "a retry computed on a projection" }
            if basis != nil, chainable[ticket] == false { failure = "a write with a precondition computed on a projection" }
            let base = basis?.projection ?? held
            let result = base.board + [values[ticket]!]
            sentCount += 1
            let id = "mine \(sentCount)"
            // One write in eight leaves nothing to compute on before it is answered (a board created or deleted).
            let projection = rng.below(8) == 0 ? nil : Projection(revision: base.revision + 1, board: result)
            lane.sent(ticket, id: id, projection: projection)
            redisQueue.append(Command(ticket: ticket, id: id, after: basis?.after, base: base, result: result))
        }
    }

    mutating func check() {
        guard failure == nil else { return }
        if lane.sent.count > lane.depth { failure = "\(lane.sent.count) writes in Redis's hands" }
        if lane.sent.map(\.id) != redisQueue.map(\.id) { failure = "the lane's writes sent are not Redis's" }
        if lane.computing != nil { failure = "a write is left computing after the pump" }
        if !lane.retries.isEmpty, lane.sent.isEmpty { failure = "a retry waits with nothing in Redis's hands" }
    }
}
