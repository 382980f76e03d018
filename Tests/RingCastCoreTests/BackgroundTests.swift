import RingCastCore
import Testing

@Suite struct BackgroundTests {
    static let red = Palette.lightRed
    static let green = Palette.lightGreen
    static let blue = Palette.lightBlue
    static let black = RGBAColor(red: 0, green: 0, blue: 0)

    func background(_ board: Board, at time: Double) -> BackgroundFrame {
        FrameComposer.frame(of: board, at: time, seq: 1, wallClockMilliseconds: 0).background
    }

    @Test func change_growsALayerWithEaseInOutOverHalfASecond_thenBecomesTheBase() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.red, transition: .circle), at: 10)
        #expect(board.revision == 1)
        #expect(board.background == Self.red)
        let middle = background(board, at: 10.25)
        #expect(middle.color == Self.black)
        let layer = try #require(middle.splash.first)
        #expect(middle.splash.count == 1)
        #expect(layer.style == "circle" && layer.angle == nil && layer.color == Self.red)
        // easeInOut is point-symmetric: halfway in time is halfway in progress.
        #expect(abs(layer.progress - 0.5) < 1e-12)
        guard case .circle(let cx, let cy, let r) = layer.shapes.first, layer.shapes.count == 1 else {
            Issue.record("expected a circle")
            return
        }
        // 1280 × 720, reach extended by 1280 on every side (3840 × 3280): centre (640, 360), full radius
        // half the reach's diagonal, √(1920² + 1640²) = 2525.07…
        #expect(cx == 640 && cy == 360 && abs(r - 2525.074256333861 * layer.progress) < 1e-9)
        #expect(board.isAnimating(at: 10.499))
        #expect(!board.isAnimating(at: 10.5))
        #expect(background(board, at: 10.5) == BackgroundFrame(color: Self.red, splash: []))
    }

    @Test func rapidChanges_stackLayers_andEachFinishedLayerDropsItselfAndThoseBelow() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.red), at: 0)
        try board.apply(BackgroundUpdate(color: Self.green, transition: .angle(135)), at: 0.2)
        try board.apply(BackgroundUpdate(color: Self.blue, transition: .bottomToTop), at: 0.3)
        #expect(board.background == Self.blue)
        let stacked = background(board, at: 0.4)
        #expect(stacked.color == Self.black)
        #expect(stacked.splash.map(\.color) == [Self.red, Self.green, Self.blue])
        #expect(stacked.splash.map(\.style) == ["leftToRight", "angle", "bottomToTop"])
        #expect(stacked.splash[1].angle == 135)
        // The seed: when a layer finishes, prevColor = layers[0] and the layer is removed.
        let afterRed = background(board, at: 0.5)
        #expect(afterRed.color == Self.red && afterRed.splash.map(\.color) == [Self.green, Self.blue])
        let afterGreen = background(board, at: 0.7)
        #expect(afterGreen.color == Self.green && afterGreen.splash.map(\.color) == [Self.blue])
        #expect(background(board, at: 0.8) == BackgroundFrame(color: Self.blue, splash: []))
        #expect(!board.isAnimating(at: 0.8))
    }

    @Test func aLayerFinishingFirst_dropsTheSlowerLayersUnderIt() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.red, duration: 2), at: 0)
        try board.apply(BackgroundUpdate(color: Self.green, duration: 0.5), at: 0.1)
        #expect(background(board, at: 0.5).splash.count == 2)
        // Green covers the board at 0.6, so red, still growing under it, can never show again.
        #expect(background(board, at: 0.6) == BackgroundFrame(color: Self.green, splash: []))
        #expect(!board.isAnimating(at: 0.6))
    }

    @Test func settle_dropsFinishedLayers_withoutChangingAnyFrame() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.red, duration: 0.3), at: 0)
        try board.apply(BackgroundUpdate(color: Self.green, duration: 1), at: 0.1)
        try board.apply(BackgroundUpdate(color: Self.blue, transition: .topToBottom, duration: 0.2), at: 0.5)
        let times = AnimatedValueTests.frames(from: 0.3, to: 1.2)
        let before = times.map { background(board, at: $0) }
        var settled = board
        for time in times {
            settled.settle(at: time)
            #expect(background(settled, at: time) == background(board, at: time))
        }
        #expect(times.map { background(settled, at: $0) }.last == before.last)
        #expect(settled.background == board.background)
    }

    @Test func animationNone_replacesTheBackgroundAtOnce_andCancelsRunningLayers() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.red), at: 0)
        try board.apply(BackgroundUpdate(color: Self.green, animation: Animation.none), at: 0.1)
        #expect(background(board, at: 0.1) == BackgroundFrame(color: Self.green, splash: []))
        #expect(!board.isAnimating(at: 0.1))
        #expect(board.background == Self.green)
    }

    @Test func theColourItAlreadyEndsOn_addsNoLayer() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.black), at: 0)
        #expect(background(board, at: 0).splash.isEmpty)
        try board.apply(BackgroundUpdate(color: Self.red), at: 0)
        try board.apply(BackgroundUpdate(color: Self.red, transition: .circle), at: 0.2)
        #expect(background(board, at: 0.3).splash.count == 1)
        #expect(board.revision == 3)
    }

    @Test func timingAnimation_setsTheCurve_andDurationOverridesItsLength() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.red, animation: .timing(.linear, duration: 2)), at: 0)
        #expect(abs((background(board, at: 0.5).splash.first?.progress ?? -1) - 0.25) < 1e-12)
        var other = Board(spec: Fixtures.board)
        try other.apply(BackgroundUpdate(color: Self.red, duration: 4, animation: .timing(.linear, duration: 2)), at: 0)
        #expect(abs((background(other, at: 1).splash.first?.progress ?? -1) - 0.25) < 1e-12)
    }

    @Test func springAnimation_growsTheLayerPastTheBoard_thenSettles() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.red, transition: .leftToRight, animation: .spring(.bouncy)), at: 0)
        let progresses = AnimatedValueTests.frames(from: 0, to: 1).compactMap { background(board, at: $0).splash.first?.progress }
        #expect((progresses.max() ?? 0) > 1.04)
        #expect(progresses.allSatisfy { $0 >= 0 })
        #expect(!board.isAnimating(at: 1.1))
        #expect(background(board, at: 1.1).color == Self.red)
    }

    @Test func aFloodOfChanges_keepsAtMostTheLimitOfLayers() throws {
        var board = Board(spec: Fixtures.board)
        for index in 0..<100 {
            let color = RGBAColor(red: Double(index) / 100, green: 0, blue: 0)
            try board.apply(BackgroundUpdate(color: color, duration: 60), at: Double(index) * 0.01)
        }
        #expect(background(board, at: 1).splash.count == Limits.maximumSplashLayers)
        #expect(board.background == RGBAColor(red: 0.99, green: 0, blue: 0))
    }

    static let rejected: [(String, BackgroundUpdate, Int, String, String)] = [
        ("zero duration", BackgroundUpdate(color: red, duration: 0), 422, "out_of_range", "duration"),
        ("long duration", BackgroundUpdate(color: red, duration: 61), 422, "out_of_range", "duration"),
        (
            "duration with none", BackgroundUpdate(color: red, duration: 1, animation: Animation.none), 422, "invalid_value",
            "duration"
        ),
        (
            "duration with a spring", BackgroundUpdate(color: red, duration: 1, animation: .spring(.smooth)), 422,
            "invalid_value", "duration"
        ),
        (
            "bad curve duration", BackgroundUpdate(color: red, animation: .timing(.linear, duration: .infinity)), 422,
            "out_of_range", "animation.duration"
        ),
        (
            "bad spring", BackgroundUpdate(color: red, animation: .spring(Spring(response: -1))), 422, "out_of_range",
            "animation.spring.response"
        ),
        ("angle not a number", BackgroundUpdate(color: red, transition: .angle(.nan)), 422, "out_of_range", "transition.angle"),
    ]

    @Test(arguments: rejected)
    func rejectedUpdate_throwsAndChangesNothing(name: String, update: BackgroundUpdate, status: Int, code: String, field: String)
        throws
    {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.green), at: 0)
        let before = board
        let error = #expect(throws: APIError.self) { try board.apply(update, at: 0.1) }
        #expect(error?.status == status && error?.code == code && error?.field == field)
        #expect(board == before)
    }

    @Test func restore_showsTheStoredColourAtOnce() {
        var board = Board(spec: Fixtures.board)
        board.restore(targets: [:], colors: [:], background: Self.blue)
        #expect(board.background == Self.blue)
        #expect(background(board, at: 0) == BackgroundFrame(color: Self.blue, splash: []))
        #expect(!board.isAnimating(at: 0))
        board.restore(targets: [:], colors: [:])
        #expect(board.background == Self.black)
    }

    @Test func snapshot_showsTheRestingColour() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BackgroundUpdate(color: Self.green), at: 0)
        #expect(board.snapshot(at: 0.1).background == Self.green)
        let body = try JSONValue(decoding: board.snapshot(at: 0.1).jsonBody())
        #expect(body.object?["background"] == .string("#2ecc71ff"))
    }
}
