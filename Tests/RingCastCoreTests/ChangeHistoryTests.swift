import RingCastCore
import Testing

/// Issue 33: the points one accepted change leaves in its board's history (`ChangeHistory`), from the board before and
/// after it as an `Animator` projects them, by table: plain, derived, counter and indicator rings keep points; a
/// countdown, a text or gradient widget, colours and the background leave none; a restructure lists the rings it
/// removed; push-to-create counts the ring it pushes.
@Suite struct ChangeHistoryTests {
    static let origin: Int64 = 1_795_000_000 * 60
    static let red = RGBAColor(hex: "#ff0000")!
    static let blue = RGBAColor(hex: "#0000ff")!

    /// The fixture board with a counter (defined at 5), a text widget, a gradient widget and an indicator after it.
    static let board: BoardSpec = {
        var spec = Fixtures.board
        var passed = Fixtures.ring("passed", kind: .counter(format: CounterFormat()), r: 50)
        passed.kind = .counter(CounterWidget(format: CounterFormat(), value: 5))
        spec.rings += [
            passed,
            Fixtures.ring("greeting", kind: .text(waveWidth: 6), r: 50),
            Fixtures.ring("mood", kind: .gradient, r: 50),
            Fixtures.ring("coverage", kind: .indicator, r: 50),
        ]
        return spec
    }()

    /// `board` without Exercise and Stand.
    static let smaller: BoardSpec = {
        var spec = board
        spec.rings.removeAll { ["exercise", "stand"].contains($0.id) }
        return spec
    }()

    /// `board` with a plain ring `new` at its end.
    static let grown: BoardSpec = {
        var spec = board
        spec.rings.append(Fixtures.ring("new", r: 40))
        return spec
    }()

    static func push(_ id: String, _ progress: Double) -> Animator.Change {
        .ring(id, RingUpdate(progress: progress))
    }

    typealias Point = ChangeHistory.Point

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Accepted first, one tick apart.
        var setup: [Animator.Change] = []
        var change: Animator.Change
        var points: [Point] = []
        var removed: [String] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a push to a task: the task and the derived ring over it", change: push("task1", 0.5),
            points: [Point(ring: "task1", value: 0.5), Point(ring: "overall", value: 0.125)]),
        Case(
            name: "a push to a ring no derived ring reads: that ring alone", change: push("move", 0.4),
            points: [Point(ring: "move", value: 0.4)]),
        Case(
            name: "the same value again: the pushed ring, not the derived ring", setup: [push("task1", 0.5)],
            change: push("task1", 0.5), points: [Point(ring: "task1", value: 0.5)]),
        Case(
            name: "a patch of two tasks: both and the derived ring, in the board's order",
            change: .patch(BoardPatch(rings: ["task2": RingPatch(progress: 0.5), "task1": RingPatch(progress: 1)])),
            points: [Point(ring: "task1", value: 1), Point(ring: "task2", value: 0.5), Point(ring: "overall", value: 0.375)]),
        Case(
            name: "a status without progress: the ring's target with its new status", setup: [push("move", 0.4)],
            change: .ring("move", RingUpdate(coloring: .status(.running))),
            points: [Point(ring: "move", value: 0.4, status: .running)]),
        Case(
            name: "a status to a ring without data: nothing (no target)",
            change: .ring("move", RingUpdate(coloring: .status(.failure)))),
        Case(
            name: "colours only: nothing", setup: [push("move", 0.4)],
            change: .ring("move", RingUpdate(colors: [red, blue], labelColor: red))),
        Case(
            name: "a counter's value", change: .ring("passed", RingUpdate(value: 42)),
            points: [Point(ring: "passed", value: 42)]),
        Case(
            name: "an indicator's progress", change: push("coverage", 0.7), points: [Point(ring: "coverage", value: 0.7)]),
        Case(name: "a countdown starts: nothing", change: .startCountdown(seconds: 10)),
        Case(name: "a countdown is cancelled: nothing", setup: [.startCountdown(seconds: 10)], change: .cancelCountdown),
        Case(name: "a text widget's text: nothing", change: .ring("greeting", RingUpdate(text: "hello"))),
        Case(name: "a gradient widget's colours: nothing", change: .ring("mood", RingUpdate(colors: [red, blue]))),
        Case(name: "the background: nothing", change: .background(BackgroundUpdate(color: blue, transition: .circle))),
        Case(
            name: "a ring cleared: no point (it has no target)", setup: [push("move", 0.4)],
            change: .ring("move", RingUpdate(clearsData: true))),
        Case(
            name: "a restructure without two rings: both removed, in the order they had, no points",
            setup: [push("move", 0.4), push("stand", 0.2)], change: .restructure(smaller), removed: ["exercise", "stand"]),
        Case(
            name: "a restructure adding a ring without data: nothing", setup: [push("move", 0.4)], change: .restructure(grown)),
        Case(
            name: "push-to-create: the new ring's point", change: .grow(grown, then: push("new", 0.3)),
            points: [Point(ring: "new", value: 0.3)]),
        Case(
            name: "push-to-create pushing an existing ring its same value: that ring still counts", setup: [push("move", 0.4)],
            change: .grow(grown, then: push("move", 0.4)), points: [Point(ring: "move", value: 0.4)]),
    ]

    @Test(arguments: cases)
    func aChange_leavesItsPoints(_ entry: Case) throws {
        var animator = Animator(spec: Self.board, fps: 60, tick: Self.origin - 1_000)
        var tick = Self.origin
        for change in entry.setup {
            tick += 1
            try animator.accept(change, at: tick, now: tick - 1)
        }
        let before = animator.projected
        tick += 1
        try animator.accept(entry.change, at: tick, now: tick - 1)
        let history = ChangeHistory.of(entry.change, from: before, to: animator.projected)
        #expect(history.points == entry.points)
        #expect(history.removed == entry.removed)
        #expect(history.isEmpty == (entry.points.isEmpty && entry.removed.isEmpty))
    }

    @Test func aNewBoard_startsWithAPointForEachRingThatHasATarget() throws {
        var animator = Animator(spec: Self.board, fps: 60, tick: Self.origin - 1_000)
        #expect(
            ChangeHistory.created(animator.projected).points == [Point(ring: "passed", value: 5)],
            "a counter's defined number is a target")
        let changes: [Animator.Change] = [
            Self.push("move", 0.5), Self.push("task1", 1), .startCountdown(seconds: 10),
            .ring("stand", RingUpdate(progress: 0.25, coloring: .status(.success))), Self.push("coverage", 0.9),
            .ring("greeting", RingUpdate(text: "hi")),
        ]
        for (index, change) in changes.enumerated() {
            let tick = Self.origin + Int64(index) + 1
            try animator.accept(change, at: tick, now: tick - 1)
        }
        let created = ChangeHistory.created(animator.projected)
        #expect(
            created.points == [
                Point(ring: "move", value: 0.5), Point(ring: "stand", value: 0.25, status: .success),
                Point(ring: "task1", value: 1), Point(ring: "overall", value: 0.25), Point(ring: "passed", value: 5),
                Point(ring: "coverage", value: 0.9),
            ])
        #expect(created.removed.isEmpty)
    }
}
