import Testing

@testable import RingCastCore

/// Issue 32, item 4: what a push and a tick ask of an animated value costs the same with one segment in flight as
/// with thousands. The queue's indexes (the newest finished segment, a repetition after it) and the kept fold
/// (`AnimatedValue.prime(at:)`) must answer exactly what scanning and blending every segment answers: checked by
/// table, then on seeded random runs against that plain reference.
@Suite("Segment queue")
struct SegmentQueueTests {
    typealias Generator = ArrangerTests.SeededGenerator
    typealias Segment = AnimatedValue.Segment

    static func segment(start: Double, duration: Double, repeats: Bool = false) -> Segment {
        Segment(
            start: start, duration: duration, curve: .easeInOut, target: duration,
            repetition: repeats ? Repetition(count: .times(2), autoreverses: true) : nil)
    }

    @Test("the newest finished segment, when ends do not ascend", arguments: [
        (0.5, nil), (1.0, 0), (2.0, 0), (2.5, 2), (3.9, 2), (4.0, 3), (9.0, 3),
    ] as [(Double, Int?)])
    func newestFinished(at time: Double, expected: Int?) {
        // Ends: 1, 4.5, 2.5, 4 — the second outlives the third and fourth.
        let queue = AnimatedValue.Segments([
            Self.segment(start: 0, duration: 1), Self.segment(start: 0.5, duration: 4),
            Self.segment(start: 1, duration: 1.5), Self.segment(start: 1.5, duration: 2.5),
        ])
        #expect(queue.lastFinished(at: time) == expected)
    }

    @Test("a repetition is found after a position, and forgotten once dropped")
    func repetitionAfter() {
        var queue = AnimatedValue.Segments([
            Self.segment(start: 0, duration: 1, repeats: true), Self.segment(start: 1, duration: 1),
        ])
        #expect(queue.hasRepetition(after: -1))
        #expect(!queue.hasRepetition(after: 0))
        queue.removeFirst(1)
        #expect(!queue.hasRepetition(after: -1))
        #expect(queue.count == 1 && queue.first == 1 && queue.next == 2)
    }

    /// Random appends (starts ascending, durations and repetitions mixed), settles and questions: the queue answers
    /// as a plain array scanned from the end does.
    @Test("seeded random runs agree with scanning every segment", arguments: 1...40)
    func agreesWithScanning(seed: UInt64) {
        var generator = Generator(state: seed)
        var queue = AnimatedValue.Segments()
        var reference: [Segment] = []
        var time = 0.0
        for _ in 0..<400 {
            time += Double.random(in: 0...0.3, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                let segment = Self.segment(
                    start: time, duration: Double.random(in: 0.05...4, using: &generator),
                    repeats: Int.random(in: 0..<8, using: &generator) == 0)
                queue.append(segment)
                reference.append(segment)
            case 6, 7:
                if let last = reference.lastIndex(where: { time >= $0.end }) {
                    queue.removeFirst(last + 1)
                    reference.removeFirst(last + 1)
                }
            case 8 where Int.random(in: 0..<10, using: &generator) == 0:
                queue.removeAll()
                reference.removeAll()
            default: break
            }
            let probe = time + Double.random(in: -0.5...2, using: &generator)
            let finished = reference.lastIndex { probe >= $0.end }
            #expect(queue.lastFinished(at: probe) == finished)
            let after = finished ?? -1
            #expect(queue.hasRepetition(after: after) == reference[(after + 1)...].contains { $0.repetition != nil })
            #expect(Array(queue) == reference)
        }
    }

    /// A value pushed many times at each instant, primed at some instants and not others, reads the same bits as a
    /// copy never primed, and compares equal to it; so does every value a kept fold survives (a settle, a spring, a
    /// repetition, a jump).
    @Test("a primed value reads what an unprimed one does, bit for bit", arguments: 1...30)
    func primedReadsTheSame(seed: UInt64) {
        var generator = Generator(state: seed)
        var primed = AnimatedValue(0)
        var plain = AnimatedValue(0)
        var time = 0.0
        for _ in 0..<300 {
            if Bool.random(using: &generator) { time += 1.0 / 60 }
            let animation: Animation =
                switch Int.random(in: 0..<24, using: &generator) {
                case 0: .none
                case 1: .spring(Spring(response: 0.5, dampingFraction: 0.7))
                case 2: Animation.timing(.linear, duration: 1).repeatCount(2, autoreverses: true)
                default: .timing(.easeInOut, duration: Double.random(in: 0.1...10, using: &generator))
                }
            let target = Double.random(in: 0...1, using: &generator)
            primed.animate(to: target, with: animation, at: time)
            plain.animate(to: target, with: animation, at: time)
            if Int.random(in: 0..<3, using: &generator) == 0 { primed.prime(at: time) }
            if Int.random(in: 0..<20, using: &generator) == 0 {
                primed.settle(at: time)
                plain.settle(at: time)
            }
            for probe in [time, time + 1.0 / 60] {
                #expect(primed.value(at: probe).bitPattern == plain.value(at: probe).bitPattern)
                #expect(primed.velocity(at: probe).bitPattern == plain.velocity(at: probe).bitPattern)
                #expect(primed.isAnimating(at: probe) == plain.isAnimating(at: probe))
            }
            #expect(primed == plain)
        }
    }
}

/// The storage under the segment queue: copies share chunks, so each must keep its own elements whatever the other
/// does. Random appends, pops and drops on two copies against plain arrays.
@Suite("Chunked queue")
struct ChunkedQueueTests {
    @Test("copies keep their own elements", arguments: 1...20)
    func copiesAgreeWithArrays(seed: UInt64) {
        var generator = ArrangerTests.SeededGenerator(state: seed)
        var queues = [ChunkedQueue<Int>(), ChunkedQueue<Int>()]
        var arrays: [[Int]] = [[], []]
        var next = 0
        for _ in 0..<3000 {
            let which = Int.random(in: 0..<2, using: &generator)
            switch Int.random(in: 0..<20, using: &generator) {
            case 0..<12:
                queues[which].append(next)
                arrays[which].append(next)
                next += 1
            case 12..<14 where !arrays[which].isEmpty:
                #expect(queues[which].removeLast() == arrays[which].removeLast())
            case 14..<16:
                let count = Int.random(in: 0...min(150, arrays[which].count), using: &generator)
                queues[which].removeFirst(count)
                arrays[which].removeFirst(count)
            case 16:
                // The other copy becomes this one: from now on they share chunks.
                queues[1 - which] = queues[which]
                arrays[1 - which] = arrays[which]
            case 17 where Int.random(in: 0..<20, using: &generator) == 0:
                queues[which].removeAll()
                arrays[which].removeAll()
            default: break
            }
            for index in 0..<2 {
                #expect(Array(queues[index]) == arrays[index])
                let from = Int.random(in: 0...arrays[index].count, using: &generator)
                var visited: [Int] = []
                queues[index].forEach(from: from) { visited.append($0) }
                #expect(visited == Array(arrays[index][from...]))
            }
        }
    }
}

/// A write answered with the board primes what it reads (`Animator.primeForReading()`): pushes many a tick to the
/// rings of the shared board, an overall derived from four of them, and the snapshot a write answers, read primed
/// and unprimed, is the same; so is every frame after.
@Suite("Primed for reading")
struct PrimedForReadingTests {
    @Test("a primed board reads and composes as an unprimed one", arguments: 1...10)
    func primedReadsTheSame(seed: UInt64) {
        var generator = ArrangerTests.SeededGenerator(state: seed)
        var primed = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        var plain = primed
        let rings = ["move", "exercise", "stand"] + Fixtures.tasks
        for now in Int64(1000)..<1120 {
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let update = RingUpdate(
                    progress: Double.random(in: 0...1, using: &generator),
                    animation: .timing(.easeInOut, duration: Double.random(in: 0.1...3, using: &generator)))
                let change = Animator.Change.ring(rings.randomElement(using: &generator)!, update)
                let start = try? primed.accept(change, at: now + 1, now: now)
                #expect(start == (try? plain.accept(change, at: now + 1, now: now)))
                if Bool.random(using: &generator) { primed.primeForReading() }
                #expect(primed.snapshot(at: now) == plain.snapshot(at: now))
            }
            #expect(primed.frames(at: now).frame == plain.frames(at: now).frame)
        }
    }
}
