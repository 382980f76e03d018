import Foundation
import RingCastCore
import Testing

/// What reduced-motion viewers see (PROTOCOL.md "Reduced motion"), by tick: the end state of each push on its
/// first tick, a countdown's whole seconds, and nothing in between.
@Suite("Reduced motion")
struct ReducedMotionTests {
    static let origin = AnimatorTests.origin
    static let fps = AnimatorTests.fps

    /// Whether two frames show the same picture (their ticks aside).
    static func same(_ a: Frame, _ b: Frame) -> Bool {
        a.rings == b.rings && a.background == b.background
    }

    /// The ticks in `ticks` whose resting frame shows something the one before did not, with the frames.
    static func changes(
        _ animator: inout Animator, script: [(tick: Int64, change: Animator.Change)], ticks: ClosedRange<Int64>
    ) throws -> [(tick: Int64, resting: Frame, frame: Frame, animating: Bool)] {
        var changes: [(Int64, Frame, Frame, Bool)] = []
        var last: Frame?
        for tick in ticks {
            for entry in script where entry.tick == tick + 1 {
                try animator.accept(entry.change, at: entry.tick, now: tick)
            }
            let frame = animator.frame(at: tick)
            let resting = animator.restingFrame(at: tick)
            if let previous = last, !same(previous, resting) {
                changes.append((tick, resting, frame, animator.isAnimating(at: tick)))
            }
            last = resting
        }
        return changes
    }

    @Test func aPush_showsItsEndStateOnItsFirstTick_andNothingMoreWhileItAnimates() throws {
        var animator = AnimatorTests.animator()
        let start = Self.origin + 10
        let script = [(start, AnimatorTests.ring("move", 0.8, .timing(.easeInOut, duration: 1)))]
        let changes = try Self.changes(&animator, script: script, ticks: Self.origin...(Self.origin + 120))
        #expect(changes.map(\.tick) == [start])
        let first = try #require(changes.first)
        #expect(first.resting[ring: "move"]?.p == 0.8)
        #expect(first.animating, "the real frame of that tick still moves")
        #expect(first.frame[ring: "move"]?.p != 0.8)
        // Once the animation is over, the real frame shows what the reduced-motion viewers saw from its start.
        let end = animator.frame(at: Self.origin + 120)
        #expect(Self.same(end, first.resting))
    }

    @Test func aCountdown_stepsOncePerWholeSecond_withItsLabel() throws {
        var animator = AnimatorTests.animator()
        let start = Self.origin + 1
        let changes = try Self.changes(
            &animator, script: [(start, .startCountdown(seconds: 3))], ticks: Self.origin...(Self.origin + 4 * 60))
        // The start, then each whole second: 3s (the start), 2s, 1s, 0s.
        #expect(changes.map(\.tick) == [start, start + 60, start + 120, start + 180])
        #expect(changes.map { $0.resting[ring: "countdown"]?.label } == ["3s", "2s", "1s", "0s"])
        let strokes = changes.compactMap { $0.resting[ring: "countdown"]?.p }
        #expect(strokes.count == 4 && Set(strokes).count == 4, "the stroke steps with the label: \(strokes)")
        #expect(strokes == strokes.sorted() && strokes.first == 0 && strokes.last == 1)
    }

    @Test func theWholeScript_changesRestingFramesOnlyAtChangesAndCountdownSeconds() throws {
        var animator = AnimatorTests.animator()
        let script = AnimatorTests.script
        let ticks = Self.origin...(Self.origin + 400)
        let changes = try Self.changes(&animator, script: script, ticks: ticks)
        let starts = Set(script.map(\.tick))
        let countdownStart = try #require(script.first { if case .startCountdown = $0.change { true } else { false } }?.tick)
        for change in changes {
            let second = (change.tick - countdownStart) % Int64(Self.fps) == 0 && change.tick > countdownStart
            #expect(starts.contains(change.tick) || second, "tick \(change.tick - Self.origin) is no change and no second")
        }
        // Far fewer frames than the ticks the board moves on.
        #expect(changes.count <= script.count + 3)
    }

    /// A seeded random run of pushes: whenever the board rests, its resting frame is its real frame, and a
    /// resting frame changes only on the tick a change starts.
    @Test(arguments: [1, 7, 42])
    func randomPushes_restingFramesAreTheRealOnesAtRest_andChangeOnlyWhenAChangeStarts(_ seed: UInt64) throws {
        var random = ArrangerTests.SeededGenerator(state: seed)
        var script: [(tick: Int64, change: Animator.Change)] = []
        var tick = Self.origin + 1
        let rings = ["move", "exercise", "stand"] + Fixtures.tasks
        for _ in 0..<40 {
            tick += Int64.random(in: 1...40, using: &random)
            let animation: Animation =
                Bool.random(using: &random)
                ? .timing(.easeInOut, duration: Double.random(in: 0.1...1, using: &random))
                : .spring(Spring(response: Double.random(in: 0.2...0.8, using: &random), dampingFraction: 0.5))
            let ring = rings.randomElement(using: &random)!
            script.append(
                (tick, AnimatorTests.ring(ring, (Double.random(in: 0...1.5, using: &random) * 100).rounded() / 100, animation)))
        }
        var animator = AnimatorTests.animator()
        var last: Frame?
        let starts = Set(script.map(\.tick))
        for now in Self.origin...(tick + 120) {
            for entry in script where entry.tick == now + 1 {
                try animator.accept(entry.change, at: entry.tick, now: now)
            }
            let frame = animator.frame(at: now)
            let resting = animator.restingFrame(at: now)
            if !animator.isAnimating(at: now) {
                #expect(Self.same(frame, resting), "tick \(now - Self.origin) rests but shows another picture")
            }
            if let last, !Self.same(last, resting) {
                #expect(starts.contains(now), "the resting frame changed at tick \(now - Self.origin), where no change starts")
            }
            last = resting
        }
    }
}

extension Frame {
    subscript(ring id: String) -> RingFrame? { rings.first { $0.id == id } }
}

extension ReducedMotionTests {
    /// A ring that goes stale while reduced-motion viewers watch shows them its "updated … ago" too.
    @Test func aStaleRing_showsItsTextInTheRestingFrame() throws {
        var spec = Fixtures.board
        spec.staleAfter = 60
        var animator = Animator(spec: spec, fps: Self.fps, tick: Self.origin - 1000)
        try animator.accept(AnimatorTests.ring("move", 0.5), at: Self.origin + 1, now: Self.origin)
        let later = Self.origin + 1 + 90 * Int64(Self.fps)
        let frame = animator.frame(at: later)
        let resting = animator.restingFrame(at: later)
        #expect(frame[ring: "move"]?.stale != nil)
        #expect(resting[ring: "move"]?.stale == frame[ring: "move"]?.stale)
        #expect(Self.same(frame, resting))
    }
}

extension ReducedMotionTests {
    /// A ring coloured by thresholds shows reduced-motion viewers its target's band colours on the push's first
    /// tick, and no frames while its displayed value (and colour) catch up.
    @Test func aRingColouredByThresholds_showsItsTargetsBandAtOnce() throws {
        let red = RGBAColor(hex: "#e74c3c")!
        let green = RGBAColor(hex: "#2ecc71")!
        let thresholds = Thresholds([.init(value: 0, color: red), .init(value: 0.5, color: green)])
        var animator = AnimatorTests.animator()
        let start = Self.origin + 10
        let script: [(tick: Int64, change: Animator.Change)] = [
            (Self.origin + 2, AnimatorTests.patch(["move": RingPatch(progress: 0.1, coloring: .thresholds(thresholds))])),
            (start, AnimatorTests.ring("move", 0.9, .timing(.easeInOut, duration: 1))),
        ]
        let changes = try Self.changes(&animator, script: script, ticks: Self.origin...(Self.origin + 200))
        #expect(changes.map(\.tick) == [Self.origin + 2, start])
        #expect(changes.last?.resting[ring: "move"]?.gradient == animator.frame(at: Self.origin + 200)[ring: "move"]?.gradient)
        #expect(changes.last?.resting[ring: "move"]?.tip.color == green)
    }
}
