import Foundation
import RingCastCore
import Testing

/// Issue 32, item 4: accepting a change applies that change alone, to the board as every change queued before it
/// leaves it (the animator keeps that projection), instead of applying every queued change again. What the
/// projection says must be what the board becomes: checked on seeded random runs of a busy board — several writes a
/// tick, some starting a few ticks on, every kind of motion, refusals among them — by storing the state after a
/// write, restoring it as a restart would, and comparing every frame from the last write's start on with the board
/// that never stopped.
@Suite("Kept projection")
struct KeptProjectionTests {
    typealias Generator = ArrangerTests.SeededGenerator

    static let rings = ["move", "exercise", "stand", "task1", "task2", "task3", "task4", "countdown"]

    static func animation(_ generator: inout Generator) -> Animation? {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return Animation.none
        case 1: return nil  // the default
        case 2: return .timing(.linear, duration: Double.random(in: 0.05...3, using: &generator))
        case 3: return .timing(.easeOut, duration: 0.4)
        case 4: return .spring(Spring(response: Double.random(in: 0.2...1, using: &generator), dampingFraction: 0.5))
        case 5: return Animation.timing(.easeInOut, duration: 0.5).repeatCount(3, autoreverses: true)
        case 6: return Animation.timing(.linear, duration: 1).repeatForever(autoreverses: false)
        default: return .spring(Spring(response: 0.5, dampingFraction: 1))
        }
    }

    /// One random change, and whether the board refuses it (an unknown ring, a progress out of range).
    static func change(_ generator: inout Generator) -> (change: Animator.Change, refused: Bool) {
        let ring = rings.randomElement(using: &generator)!
        switch Int.random(in: 0..<20, using: &generator) {
        case 0: return (.ring("nope", RingUpdate(progress: 0.5)), true)
        case 1: return (.ring("overall", RingUpdate(progress: 0.5)), true)  // derived: not pushed
        case 2:
            return (.background(BackgroundUpdate(color: RGBAColor(hex: "#4533c9")!, transition: .circle, duration: 0.4)), false)
        case 3: return (.startCountdown(seconds: Double.random(in: 0.2...3, using: &generator)), false)
        case 4: return (.cancelCountdown, false)
        case 5, 6:
            let other = rings.filter { $0 != "countdown" && $0 != "stand" }.randomElement(using: &generator)!
            return (
                .patch(
                    BoardPatch(
                        rings: [
                            other: RingPatch(progress: Double.random(in: 0...1.5, using: &generator)),
                            "stand": RingPatch(colors: [RGBAColor(hex: "#2ecc71")!, RGBAColor(hex: "#3498db")!]),
                        ], animation: animation(&generator))), false
            )
        default:
            guard ring != "countdown" else { return (.ring("move", RingUpdate(progress: 0.3)), false) }
            return (
                .ring(
                    ring, RingUpdate(progress: Double.random(in: 0...1.5, using: &generator), animation: animation(&generator))),
                false
            )
        }
    }

    static func encoded(_ state: BoardState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aRestoredStateAfterAnyWrite_continuesWithTheFramesOfTheBoardThatNeverStopped(seed: UInt64) throws {
        var generator = Generator(state: seed)
        let origin = AnimatorTests.origin
        var live = AnimatorTests.animator()
        var lastStart = origin
        var checks = 0
        var refusals = 0
        for tick in origin...(origin + 900) {
            // A busy board: up to 8 writes in this tick, each for the next tick or a few on.
            for _ in 0..<Int.random(in: 0...8, using: &generator) where Int.random(in: 0..<3, using: &generator) == 0 {
                let (change, refused) = Self.change(&generator)
                let before = try Self.encoded(live.state)
                let revision = live.revision
                do {
                    let at = tick + 1 + Int64.random(in: 0...3, using: &generator)
                    lastStart = max(lastStart, try live.accept(change, at: at, now: tick))
                    #expect(!refused, "seed \(seed) tick \(tick): \(change) was accepted")
                } catch {
                    refusals += 1
                    #expect(refused, "seed \(seed) tick \(tick): \(change) was refused: \(error)")
                    #expect(try Self.encoded(live.state) == before, "a refused change changes nothing")
                    #expect(live.revision == revision)
                }
            }
            if tick % 11 == 0 || Int.random(in: 0..<40, using: &generator) == 0 {
                // What a write would store now, loaded as a restart loads it.
                var restored = try Animator(
                    spec: live.spec, fps: AnimatorTests.fps, state: try AnimatorTests.roundTrip(live.state))
                #expect(restored.revision == live.revision)
                var ahead = live
                let from = max(lastStart, tick)
                for later in from...(from + 40) {
                    let expected = ahead.frames(at: later).frame
                    let got = restored.frames(at: later).frame
                    guard got == expected else {
                        Issue.record("seed \(seed): restored at tick \(tick), frame \(later) differs")
                        return
                    }
                }
                #expect(restored.snapshot(at: from) == ahead.snapshot(at: from))
                checks += 1
            }
            _ = live.frames(at: tick)
        }
        #expect(checks > 50 && refusals > 5, "the run checked \(checks) times and refused \(refusals) changes")
    }

    /// On a board written every tick the projection is never replaced by the board itself (a change is always
    /// pending), and no frame is composed from it: what drops finished animations from it is each value's own retarget
    /// (`AnimatedValue.animate` settles first). The state a write stores stays the size of what is in flight, not of
    /// everything pushed since the flood began.
    @Test func aBoardWrittenEveryTick_storesWhatIsInFlight_notEverythingEverPushed() throws {
        let origin = AnimatorTests.origin
        var live = AnimatorTests.animator()
        var sizes: [Int] = []
        for tick in origin...(origin + 600) {
            for push in 0..<8 {
                let ring = Self.rings[(Int(tick - origin) * 8 + push) % 7]
                let progress = Double((Int(tick) + push) % 100) / 100
                try live.accept(.ring(ring, RingUpdate(progress: progress)), at: tick + 1, now: tick)
            }
            if (tick - origin) % 60 == 0 { sizes.append(try Self.encoded(live.state).count) }
            _ = live.frames(at: tick)
        }
        // The default animation lasts 1 s: after the first second the state holds about a second of pushes.
        let steady = sizes[2]
        #expect(sizes.last! < steady * 3 / 2, "state bytes every second: \(sizes)")
    }
}
