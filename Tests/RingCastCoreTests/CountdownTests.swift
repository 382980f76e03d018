import RingCastCore
import Testing

@Suite struct CountdownTests {
    /// N = 3 sampled every 0.25 s: whole seconds left, rounded up, and "0s" from the end on.
    @Test func label_countsWholeSecondsDown_roundedUp() {
        let countdown = Countdown(seconds: 3, start: 100)
        let labels = (0...14).map { countdown.label(at: 100 + Double($0) * 0.25) }
        #expect(
            labels == [
                "3s", "3s", "3s", "3s", "2s", "2s", "2s", "2s", "1s", "1s", "1s", "1s", "0s", "0s", "0s",
            ])
        #expect(countdown.label(at: 99) == "3s")
        #expect(Countdown(seconds: 10, start: 0).label(at: 0) == "10s")
        #expect(Countdown(seconds: 10, start: 0).label(at: 1) == "9s")
        #expect(Countdown(seconds: 2.5, start: 0).label(at: 0) == "3s")
        #expect(Countdown(seconds: 86400, start: 0).label(at: 0.5) == "86400s")
    }

    @Test func progress_isLinearFromZeroToOne_thenRests() {
        let countdown = Countdown(seconds: 3, start: 100)
        for step in 0...12 {
            let elapsed = Double(step) * 0.25
            #expect(abs(countdown.progress(at: 100 + elapsed) - elapsed / 3) < 1e-15)
            #expect(abs(countdown.remaining(at: 100 + elapsed) - (3 - elapsed)) < 1e-12)
        }
        #expect(countdown.progress(at: 99) == 0)
        #expect(countdown.progress(at: 103) == 1 && countdown.progress(at: 1e9) == 1)
        #expect(countdown.remaining(at: 103) == 0 && countdown.remaining(at: 99) == 3)
        #expect(countdown.isRunning(at: 102.999) && !countdown.isRunning(at: 103))
    }

    func ring(_ board: Board, at time: Double) throws -> RingFrame {
        let frame = FrameComposer.frame(of: board, at: time, seq: 1, wallClockMilliseconds: 0)
        return try #require(frame.rings.first { $0.id == "countdown" })
    }

    @Test func board_showsTheCountdownOnItsCountdownRing_andAnimatesUntilItEnds() throws {
        var board = Board(spec: Fixtures.board)
        #expect(try ring(board, at: 0).p == nil && (try ring(board, at: 0).label) == "—")
        try board.startCountdown(seconds: 3, at: 10)
        #expect(board.revision == 1)
        #expect(board.countdown == Countdown(seconds: 3, start: 10))
        #expect(board.target(ofRing: "countdown") == 1)
        let middle = try ring(board, at: 11.5)
        #expect(middle.p == 0.5 && middle.label == "2s")
        #expect(board.isAnimating(at: 12.99) && board.isAnimating(ring: "countdown", at: 12.99))
        #expect(!board.isAnimating(at: 13) && !board.isAnimating(ring: "countdown", at: 13))
        let end = try ring(board, at: 20)
        #expect(end.p == 1 && end.label == "0s" && end.tip.visible)
        // Other rings keep their percentages.
        #expect(board.label(ofRing: "move", at: 11.5) == "—")
    }

    @Test func start_restartsARunningCountdown() throws {
        var board = Board(spec: Fixtures.board)
        try board.startCountdown(seconds: 10, at: 0)
        try board.startCountdown(seconds: 5, at: 4)
        #expect(board.countdown == Countdown(seconds: 5, start: 4))
        #expect(try ring(board, at: 4).p == 0 && (try ring(board, at: 4).label) == "5s")
        #expect(board.revision == 2)
    }

    @Test func cancel_leavesTheRingWithoutData_andTwiceChangesNothing() throws {
        var board = Board(spec: Fixtures.board)
        try board.startCountdown(seconds: 3, at: 0)
        board.cancelCountdown(at: 0.5)
        #expect(board.countdown == nil && board.revision == 2)
        let frame = try ring(board, at: 1)
        #expect(frame.p == nil && frame.label == "—")
        #expect(!board.isAnimating(at: 1))
        board.cancelCountdown(at: 0.5)
        #expect(board.revision == 2)
    }

    @Test(arguments: [0.0, -1, 86400.5, .nan, .infinity])
    func secondsOutOfRange_are422_andChangeNothing(seconds: Double) throws {
        var board = Board(spec: Fixtures.board)
        try board.startCountdown(seconds: 2, at: 0)
        let before = board
        let error = #expect(throws: APIError.self) { try board.startCountdown(seconds: seconds, at: 1) }
        #expect(error?.status == 422 && error?.code == "out_of_range" && error?.field == "seconds")
        #expect(board == before)
    }

    @Test func aBoardWithoutACountdownRing_answers404() {
        var board = Board(spec: GoldenJSONTests.spec)
        #expect(!board.hasCountdownRing)
        let error = #expect(throws: APIError.self) { try board.startCountdown(seconds: 3, at: 0) }
        #expect(error?.status == 404 && error?.code == "not_found")
        #expect(error?.message.contains("has no countdown ring") == true)
        #expect(board.revision == 0)
    }

    @Test func restore_continuesACountdownFromItsStart_andSkipsOneTheBoardCannotShow() throws {
        var board = Board(spec: Fixtures.board)
        let skipped = board.restore(targets: [:], colors: [:], countdown: Countdown(seconds: 60, start: -30))
        #expect(skipped.isEmpty)
        #expect(try ring(board, at: 0).p == 0.5 && (try ring(board, at: 0).label) == "30s")
        #expect(board.isAnimating(at: 0))
        #expect(board.restore(targets: [:], colors: [:], countdown: Countdown(seconds: 0, start: 0)) == ["countdown"])
        #expect(board.countdown == nil)
        var plain = Board(spec: GoldenJSONTests.spec)
        #expect(plain.restore(targets: [:], colors: [:], countdown: Countdown(seconds: 3, start: 0)) == ["countdown"])
    }

    @Test func snapshot_showsSecondsAndRemaining_andNullWithoutACountdown() throws {
        var board = Board(spec: Fixtures.board)
        let idle = try JSONValue(decoding: board.snapshot(at: 0).jsonBody())
        #expect(idle.object?["countdown"] == .null)
        try board.startCountdown(seconds: 3, at: 10)
        let snapshot = board.snapshot(at: 11.5)
        #expect(snapshot.countdown == BoardSnapshot.Countdown(seconds: 3, remaining: 1.5))
        let ringSnapshot = try #require(snapshot.rings.first { $0.id == "countdown" })
        #expect(ringSnapshot.progress == 0.5 && ringSnapshot.target == 1 && ringSnapshot.animating)
        let body = try JSONValue(decoding: snapshot.jsonBody())
        #expect(body.object?["countdown"] == .object(["seconds": .number(3), "remaining": .number(1.5)]))
        // Every key the snapshot had before is still there.
        #expect(Set(body.object?.keys.map { $0 } ?? []) == ["board", "title", "revision", "rings", "background", "countdown"])
    }
}
