import Foundation
import Testing

@testable import RingCastCore

/// Label formats, values out of a maximum, no data again, and structure changes on the tick grid (DESIGN §11).
@Suite("Runtime shapes")
struct RuntimeShapeTests {
    @Test(
        arguments: [
            (0.6, LabelFormat.fraction, 20.0, "12/20"),
            (0.625, .fraction, 20, "12/20"),  // 12.5 rounds half to even
            (0.675, .fraction, 20, "14/20"),  // 13.5 → 14
            (0.5, .fraction, 2.5, "1/2.5"),  // 1.25 → 1
            (1.0, .fraction, 12_000, "12,000/12,000"),
            (0.6, .value, 20, "12"),
            (0.73, .percent, 100, "73%"),
            (0.1, .text("Deploying"), 100, "Deploying"),
        ] as [(Double, LabelFormat, Double, String)])
    func labels_showTheDisplayedValueInTheirFormat(progress: Double, format: LabelFormat, maximum: Double, expected: String) {
        #expect(ValueLabel.string(for: progress, format: format, maximum: maximum) == expected)
    }

    @Test(arguments: [LabelFormat.percent, .fraction, .value, .text("Deploying")])
    func noData_isTheDash_inEveryFormat(format: LabelFormat) {
        #expect(ValueLabel.string(for: nil, format: format, maximum: 20) == "—")
    }

    /// Overall is the mean of the four tasks, a task without data counting as 0 (the seeds' Overall), and its label
    /// says so while only some have data (issue 34): Task 1 at 40 % alone is `10% · 1 of 4`.
    @Test func aDerivedRingsLabel_saysHowManySourcesHaveData() throws {
        var board = Board(spec: Fixtures.board)
        #expect(board.label(ofRing: "overall", at: 0) == "—")
        try board.apply(BoardPatch(rings: ["task1": RingPatch(progress: 0.4)], animation: Animation.none), at: 0)
        #expect(board.label(ofRing: "overall", at: 0) == "10% · 1 of 4")
        try board.apply(
            BoardPatch(rings: ["task2": RingPatch(progress: 0.2), "task3": RingPatch(progress: 0)], animation: Animation.none),
            at: 1)
        #expect(board.label(ofRing: "overall", at: 1) == "15% · 3 of 4")
        try board.apply(BoardPatch(rings: ["task4": RingPatch(progress: 1)], animation: Animation.none), at: 2)
        #expect(board.label(ofRing: "overall", at: 2) == "40%", "every source has data: nothing added")
        try board.apply(BoardPatch(rings: ["task4": RingPatch(clearsData: true)]), at: 3)
        #expect(board.label(ofRing: "overall", at: 3) == "15% · 3 of 4")
        #expect(Board.reporting([true, false], format: .fraction) == " · 1 of 2")
        #expect(Board.reporting([true, false], format: .value) == " · 1 of 2")
        #expect(Board.reporting([true, false], format: .text("CI")) == "")
        #expect(Board.reporting([true, false], format: .eta) == "")
        #expect(Board.reporting([false, false], format: .percent) == "")
        #expect(Board.reporting([true, true], format: .percent) == "")
    }

    @Test func aFractionCountsAlongWithTheAnimation() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(
            BoardPatch(
                rings: ["move": RingPatch(value: 12, maximum: 20, label: .fraction)], animation: .timing(.linear, duration: 1)),
            at: 0)
        let labels = stride(from: 0.0, through: 1.0, by: 1.0 / 60).map { board.label(ofRing: "move", at: $0) }
        #expect(labels.first == "0/20")
        #expect(labels.last == "12/20")
        #expect(Set(labels).count == 13, "every whole value from 0 to 12: \(Set(labels).sorted())")
        #expect(board.spec.ring(withID: "move")?.maximum == 20)
        #expect(board.isShapedByAPI)
    }

    @Test func nullGoesBackToNoData_andAnEntryOfOnlyATitleRenames() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BoardPatch(rings: ["move": RingPatch(progress: 0.5)], animation: Animation.none), at: 0)
        try board.apply(BoardPatch(rings: ["move": RingPatch(clearsData: true)]), at: 1)
        #expect(board.progress(ofRing: "move", at: 1) == nil)
        #expect(board.label(ofRing: "move", at: 1) == "—")
        try board.apply(RingPatch(title: "Tests"), toRing: "move", at: 2)
        #expect(board.spec.ring(withID: "move")?.title == "Tests")
    }

    @Test func aRestructureOnTheGrid_keepsTheValuesOfRingsThatStay_andIsStoredAndRestored() throws {
        var animator = Animator(spec: Fixtures.board, fps: 60, tick: 1000)
        try animator.accept(
            .patch(BoardPatch(rings: ["move": RingPatch(progress: 0.4)], animation: Animation.none)), at: 1001, now: 1001 - 1)
        let definition = BoardDefinition(
            rings: .explicit([RingSpec(id: "move"), RingSpec(id: "deploy")], groups: []))
        let spec = try definition.spec(named: "main", maximumRings: 24)
        let start = try animator.accept(.restructure(spec), at: 1010, now: 1010 - 1)
        #expect(animator.frame(at: start - 1).rings.count == Fixtures.board.rings.count, "the old structure until its tick")
        let frame = animator.frame(at: start)
        #expect(frame.rings.map(\.id) == ["move", "deploy"])
        #expect(frame.rings[0].p == 0.4)

        let stored = try JSONDecoder().decode(BoardState.self, from: JSONEncoder().encode(animator.state))
        #expect(stored.spec == spec)
        var restored = try Animator(spec: Fixtures.board, fps: 60, state: stored)
        #expect(restored.spec == spec, "a stored structure wins over the configured one")
        #expect(restored.frame(at: start + 5) == animator.frame(at: start + 5))
    }

    @Test func aTombstone_doesNotRestore() {
        let tombstone = BoardState.tombstone(of: "main", revision: 7, fps: 60)
        #expect(throws: BoardStateError.self) { try Animator(spec: Fixtures.board, fps: 60, state: tombstone) }
    }

    @Test func removingARing_dropsItFromDerivedSourcesAndGroups() throws {
        let definition = BoardDefinition(
            rings: .explicit(
                [
                    RingSpec(id: "a"), RingSpec(id: "b"),
                    RingSpec(id: "all", kind: .derived(sources: ["a", "b"])),
                ], groups: [["a", "b"]]))
        let spec = try definition.spec(named: "ci", maximumRings: 24)
        let removed = try spec.removing(ring: "a")
        #expect(removed.rings.map(\.id) == ["b", "all"])
        #expect(removed.ring(withID: "all")?.kind.sources == ["b"])
        #expect(removed.groups == [["b"]])
        #expect(throws: APIError.self) { try removed.removing(ring: "b") }
        #expect(throws: APIError.self) { try spec.adding(RingSpec(id: "a"), maximumRings: 24) }
        #expect(throws: APIError.self) { try spec.adding(RingSpec(id: "c"), maximumRings: 3) }
    }
}

@Suite("Binary strings")
struct BinaryStringTests {
    @Test func aTitleOverTheByteLimit_isCutBeforeAWholeCharacter() throws {
        var spec = Fixtures.board
        spec.title = String(repeating: "😀", count: 100)  // 400 bytes of UTF-8
        let bytes = BinaryFrame.encode(FrameComposer.layout(of: spec))
        guard case .layout(let layout) = try BinaryFrame.decode(bytes) else {
            Issue.record("not a layout")
            return
        }
        #expect(layout.title == String(repeating: "😀", count: 63), "252 bytes: 63 whole characters, no half of one")
    }
}
