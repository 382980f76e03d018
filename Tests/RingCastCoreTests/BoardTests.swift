import Foundation
import RingCastCore
import Testing

@Suite struct BoardTests {
    func patch(_ rings: [String: RingPatch], animation: Animation? = nil) -> BoardPatch {
        BoardPatch(rings: rings, animation: animation)
    }

    @Test func newBoard_hasNoData() {
        let board = Board(spec: Fixtures.board)
        #expect(board.revision == 0)
        #expect(board.targets.isEmpty)
        #expect(board.target(ofRing: "move") == nil)
        let presentation = board.presentation(at: 0)
        #expect(presentation.count == Fixtures.board.rings.count)
        #expect(presentation.values.allSatisfy { $0 == nil })
        #expect(!board.isAnimating(at: 0))
    }

    @Test func patch_startsEveryRingAtTheSameTime_andBumpsTheRevision() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(patch(["move": RingPatch(progress: 0.8), "stand": RingPatch(progress: 0.4)]), at: 5)
        #expect(board.revision == 1)
        #expect(board.targets == ["move": 0.8, "stand": 0.4])
        // A ring's first data counts up from 0, with the default easeInOut over 1 s.
        #expect(board.progress(ofRing: "move", at: 5) == 0)
        #expect(board.progress(ofRing: "move", at: 5.5) == 0.4)
        #expect(board.progress(ofRing: "stand", at: 5.5) == 0.2)
        #expect(board.isAnimating(at: 5.999))
        #expect(!board.isAnimating(at: 6))
        #expect(board.progress(ofRing: "move", at: 6) == 0.8)
    }

    @Test func entryAnimation_overridesPatchAnimation_whichOverridesTheDefault() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(
            patch(
                [
                    "move": RingPatch(progress: 1, animation: .timing(.linear, duration: 3)),
                    "stand": RingPatch(progress: 1),
                ],
                animation: .timing(.linear, duration: 2)
            ),
            at: 0
        )
        try board.apply(patch(["exercise": RingPatch(progress: 1)]), at: 0)
        #expect(board.progress(ofRing: "move", at: 1.5) == 0.5)
        #expect(board.progress(ofRing: "stand", at: 1.5) == 0.75)
        #expect(board.progress(ofRing: "exercise", at: 0.5) == 0.5)
        #expect(board.isAnimating(ring: "move", at: 2.5))
        #expect(!board.isAnimating(ring: "stand", at: 2.5))
    }

    static let rejected: [(String, BoardPatch, Int, String, String?)] = [
        (
            "unknown ring", BoardPatch(rings: ["move": RingPatch(progress: 0.3), "nope": RingPatch(progress: 0.5)]), 404,
            "not_found", "rings.nope"
        ),
        (
            "derived ring", BoardPatch(rings: ["move": RingPatch(progress: 0.3), "overall": RingPatch(progress: 0.5)]), 422,
            "read_only", "rings.overall"
        ),
        ("countdown ring", BoardPatch(rings: ["countdown": RingPatch(progress: 0.5)]), 422, "read_only", "rings.countdown"),
        (
            "colours of a derived ring", BoardPatch(rings: ["overall": RingPatch(colors: [Palette.lightRed, Palette.darkRed])]),
            422, "read_only", "rings.overall"
        ),
        (
            "entry setting nothing", BoardPatch(rings: ["move": RingPatch(animation: Animation.none)]), 422, "invalid_value",
            "rings.move"
        ),
        (
            "progress out of range", BoardPatch(rings: ["move": RingPatch(progress: .nan)]), 422, "out_of_range",
            "rings.move.progress"
        ),
        (
            "one colour", BoardPatch(rings: ["stand": RingPatch(colors: [Palette.darkRed])]), 422, "invalid_value",
            "rings.stand.colors"
        ),
        (
            "bad duration", BoardPatch(rings: ["move": RingPatch(progress: 0.3)], animation: .timing(.linear, duration: 0)), 422,
            "out_of_range", "animation.duration"
        ),
        ("empty patch", BoardPatch(rings: [:]), 422, "invalid_value", "rings"),
        (
            "spring without response",
            BoardPatch(rings: ["move": RingPatch(progress: 0.3, animation: .spring(Spring(response: 0)))]), 422,
            "out_of_range", "rings.move.animation.spring.response"
        ),
        (
            "spring without damping",
            BoardPatch(rings: ["move": RingPatch(progress: 0.3)], animation: .spring(Spring(dampingFraction: -1))), 422,
            "out_of_range", "animation.spring.dampingFraction"
        ),
    ]

    @Test(arguments: rejected)
    func rejectedPatch_throwsAndChangesNothing(name: String, patch: BoardPatch, status: Int, code: String, field: String?) throws
    {
        var board = Board(spec: Fixtures.board)
        try board.apply(self.patch(["move": RingPatch(progress: 0.6), "task1": RingPatch(progress: 0.2)]), at: 0)
        let before = board
        let error = #expect(throws: APIError.self) { try board.apply(patch, at: 0.5) }
        #expect(error?.status == status)
        #expect(error?.code == code)
        #expect(error?.field == field)
        #expect(board.revision == before.revision)
        #expect(board.targets == before.targets)
        #expect(board.targetColors == before.targetColors)
        #expect(board == before)
    }

    @Test func ringUpdate_followsTheSameRules_withPutBodyFields() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(RingUpdate(progress: 0.75, animation: Animation.none), toRing: "move", at: 0)
        #expect(board.revision == 1)
        #expect(board.progress(ofRing: "move", at: 0) == 0.75)

        let unknown = #expect(throws: APIError.self) { try board.apply(RingUpdate(progress: 0.5), toRing: "nope", at: 1) }
        #expect(unknown?.status == 404)
        #expect(unknown?.field == nil)
        let derived = #expect(throws: APIError.self) { try board.apply(RingUpdate(progress: 0.5), toRing: "overall", at: 1) }
        #expect(derived?.code == "read_only")
        #expect(derived?.field == nil)
        #expect(derived?.message.contains("task1") == true)
        #expect(board.revision == 1)
    }

    @Test func colours_animateWithTheProgressAnimation_inGammaEncodedRGB() throws {
        var board = Board(spec: Fixtures.board)
        let newColors = [Palette.lightGreen, Palette.darkBlue]
        try board.apply(patch(["move": RingPatch(colors: newColors, animation: .timing(.linear, duration: 2))]), at: 0)
        #expect(board.targetColors == ["move": newColors])
        // Colours alone give no progress data.
        #expect(board.target(ofRing: "move") == nil)
        let middle = board.colors(ofRing: "move", at: 1)
        let expected = Palette.lightRed.mixed(with: Palette.lightGreen, fraction: 0.5)
        #expect(abs(middle[0].red - expected.red) < 1e-15 && abs(middle[0].green - expected.green) < 1e-15)
        #expect(board.colors(ofRing: "move", at: 2) == newColors)
        #expect(board.colors(ofRing: "stand", at: 2) == [Palette.lightBlue, Palette.darkBlue])
    }

    @Test func overall_isTheMeanOfTheTasksDisplayedValues_inEveryFrame() throws {
        var board = Board(spec: Fixtures.board)
        #expect(board.progress(ofRing: "overall", at: 0) == nil)
        try board.apply(
            patch([
                "task1": RingPatch(progress: 1, animation: .timing(.easeIn, duration: 1.3)),
                "task2": RingPatch(progress: 0.5),
                "task3": RingPatch(progress: 2, animation: .timing(.linear, duration: 0.4)),
            ]),
            at: 0
        )
        try board.apply(patch(["task2": RingPatch(progress: 0.1, animation: .timing(.easeOut, duration: 0.7))]), at: 0.5)
        for frame in 0...120 {
            let time = Double(frame) / 60
            let tasks = Fixtures.tasks.map { board.progress(ofRing: $0, at: time) }
            // task4 has no data and counts as 0.
            let mean = tasks.reduce(0) { $0 + ($1 ?? 0) } / 4
            let overall = try #require(board.progress(ofRing: "overall", at: time))
            #expect(abs(overall - mean) < 1e-15)
            #expect(board.presentation(at: time)["overall"] == overall)
        }
        let finalMean: Double = (1 + 0.1 + 2 + 0) / 4
        #expect(board.progress(ofRing: "overall", at: 2) == finalMean)
        #expect(board.target(ofRing: "overall") == finalMean)
        #expect(board.isAnimating(ring: "overall", at: 1))
    }

    @Test func countdown_hasNoProgressYet() {
        let board = Board(spec: Fixtures.board)
        #expect(board.progress(ofRing: "countdown", at: 0) == nil)
        #expect(board.target(ofRing: "countdown") == nil)
    }

    @Test func restore_showsTargetsAtOnce_andSkipsWhatTheBoardCannotHold() {
        var board = Board(spec: Fixtures.board)
        let skipped = board.restore(
            targets: ["move": 0.9, "task1": 0.4, "gone": 0.5, "overall": 0.3, "stand": 11],
            colors: [
                "move": [Palette.lightPurple, Palette.darkPurple], "exercise": [Palette.darkRed],
                "countdown": [Palette.lightRed, Palette.darkRed],
            ],
            revision: 41
        )
        #expect(skipped == ["countdown", "exercise", "gone", "overall", "stand"])
        #expect(board.targets == ["move": 0.9, "task1": 0.4])
        #expect(board.targetColors == ["move": [Palette.lightPurple, Palette.darkPurple]])
        #expect(board.revision == 41)
        #expect(board.progress(ofRing: "move", at: 0) == 0.9)
        #expect(board.progress(ofRing: "overall", at: 0) == 0.1)
        #expect(!board.isAnimating(at: 0))
    }

    @Test func settle_keepsThePresentation() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(patch(["move": RingPatch(progress: 0.7, colors: [Palette.lightOrange, Palette.darkOrange])]), at: 0)
        try board.apply(patch(["move": RingPatch(progress: 0.2)], animation: .timing(.easeOut, duration: 0.3)), at: 0.5)
        let before = (0...90).map { board.presentation(at: Double($0) / 60) }
        board.settle(at: 0.9)
        let after = (0...90).map { board.presentation(at: Double($0) / 60) }
        #expect(before.suffix(from: 54) == after.suffix(from: 54))
        #expect(board.progress(ofRing: "move", at: 1.5) == 0.2)
    }

    @Test func snapshot_reportsTargetsPresentationAndMotion() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(patch(["move": RingPatch(progress: 0.8)]), at: 0)
        let snapshot = board.snapshot(at: 0.5)
        #expect(snapshot.board == "main" && snapshot.revision == 1 && snapshot.background == Fixtures.board.background)
        let move = try #require(snapshot.rings.first { $0.id == "move" })
        #expect(move.target == 0.8 && move.progress == 0.4 && move.animating && move.kind == "plain")
        #expect(move.colors == [Palette.lightRed, Palette.darkRed])
        let stand = try #require(snapshot.rings.first { $0.id == "stand" })
        #expect(stand.target == nil && stand.progress == nil && !stand.animating)

        let body = try JSONValue(decoding: snapshot.jsonBody())
        let rings = try #require(body.object?["rings"]?.array)
        #expect(rings.count == Fixtures.board.rings.count)
        #expect(body.object?["background"] == .string("#000000ff"))
        // "no data" is an explicit null, not a missing key.
        let standJSON = try #require(rings.first { $0.object?["id"] == .string("stand") }?.object)
        #expect(standJSON["target"] == .null && standJSON["progress"] == .null)
        #expect(standJSON["colors"] == .array([.string("#3498dbff"), .string("#2980b9ff")]))
    }
}
