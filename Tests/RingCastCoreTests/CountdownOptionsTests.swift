import Foundation
import RingCastCore
import Testing

/// Seed 004's countdown options and end events (DESIGN §12), by time and by tick.
@Suite struct CountdownOptionsTests {
    static func board(_ options: CountdownOptions?) -> BoardSpec {
        var spec = Fixtures.board
        spec.rings[spec.rings.count - 1].countdown = options
        return spec
    }

    static func ring(_ board: Board, at time: Double) throws -> RingFrame {
        let frame = FrameComposer.frame(of: board, at: time, seq: 1, wallClockMilliseconds: 0)
        return try #require(frame.rings.first { $0.id == "countdown" })
    }

    // MARK: Labels

    /// Tenths of seconds left, rounded up to the tenth; binary fractions never push a label up a tenth.
    @Test(arguments: [
        (0.0, "10.0s"), (0.01, "10.0s"), (0.05, "10.0s"), (0.1, "9.9s"), (0.15, "9.9s"), (0.5, "9.5s"),
        (1.0, "9.0s"), (1.04, "9.0s"), (9.0, "1.0s"), (9.9, "0.1s"), (9.95, "0.1s"), (9.99, "0.1s"),
        (10.0, "0.0s"), (25.0, "0.0s"),
    ])
    func tenthsLabel_roundsUpToTheTenth(elapsed: Double, label: String) {
        let countdown = Countdown(seconds: 10, start: 100)
        #expect(countdown.label(at: 100 + elapsed, options: CountdownOptions(tenths: true)) == label)
    }

    @Test func tenthsLabel_of9point95SecondsLeft_is10point0() {
        // 9.95 s left is above 9.9, so rounded up to the tenth it shows 10.0s.
        let countdown = Countdown(seconds: 9.95, start: 0)
        #expect(countdown.label(at: 0, options: CountdownOptions(tenths: true)) == "10.0s")
        #expect(countdown.label(at: 0.05, options: CountdownOptions(tenths: true)) == "9.9s")
    }

    @Test func tenthsLabel_onEveryTickAt60fps_stepsOnceATenth() {
        let countdown = Countdown(seconds: 3, start: 0)
        let labels = (0...180).map { countdown.label(at: Double($0) / 60, options: CountdownOptions(tenths: true)) }
        #expect(labels.first == "3.0s" && labels.last == "0.0s")
        // 30 tenths and the end: 31 distinct labels, each shown for the 6 ticks of its tenth.
        #expect(Set(labels).count == 31)
        #expect(labels[0...5].allSatisfy { $0 == "3.0s" } && labels[6...11].allSatisfy { $0 == "2.9s" })
        #expect(labels[174] == "0.1s" && labels[179] == "0.1s")
    }

    // MARK: animated: false

    @Test func notAnimated_theStrokeJumpsOncePerWholeSecond_withTheLabel() {
        let countdown = Countdown(seconds: 4, start: 0, animated: false)
        let steps = stride(from: 0.0, through: 4.5, by: 0.25).map { countdown.progress(at: $0, then: .rest) ?? -1 }
        #expect(
            steps == [
                0, 0, 0, 0, 0.25, 0.25, 0.25, 0.25, 0.5, 0.5, 0.5, 0.5, 0.75, 0.75, 0.75, 0.75, 1, 1, 1,
            ])
        // A length that is not whole seconds: the first step comes when the whole seconds left drop.
        let odd = Countdown(seconds: 2.5, start: 0, animated: false)
        #expect(odd.progress(at: 0, then: .rest) == 0 && odd.label(at: 0) == "3s")
        #expect(abs(odd.progress(at: 0.5, then: .rest)! - 0.2) < 1e-15 && odd.label(at: 0.5) == "2s")
        #expect(odd.progress(at: 2.5, then: .rest) == 1 && odd.label(at: 2.5) == "0s")
    }

    @Test func notAnimated_changesTheFrameOnlyWhenASecondPasses() throws {
        var board = Board(spec: Self.board(nil))
        try board.startCountdown(seconds: 3, animated: false, at: 0)
        let frames = try (0...180).map { try Self.ring(board, at: Double($0) / 60) }
        #expect(Set(frames.map(\.a1)).count == 4)
        #expect(frames[59].p == 0 && abs(frames[60].p! - 1.0 / 3) < 1e-15 && frames[180].p == 1)
    }

    // MARK: then

    @Test func thenRest_staysFullAtZero() throws {
        var board = Board(spec: Self.board(CountdownOptions(then: .rest)))
        try board.startCountdown(seconds: 2, at: 10)
        let end = try Self.ring(board, at: 12)
        #expect(end.p == 1 && end.label == "0s")
        #expect(!board.isAnimating(at: 12))
    }

    @Test func thenCancel_clearsAtZero_andRests() throws {
        var board = Board(spec: Self.board(CountdownOptions(tenths: true, then: .cancel)))
        try board.startCountdown(seconds: 2, at: 10)
        let before = try Self.ring(board, at: 11.99)
        #expect(before.p! > 0.99 && before.label == "0.1s")
        for time in [12.0, 13, 100] {
            let after = try Self.ring(board, at: time)
            #expect(after.p == nil && after.label == "—")
        }
        #expect(board.isAnimating(at: 11.99) && !board.isAnimating(at: 12))
        #expect(board.progress(ofRing: "countdown", at: 12) == nil)
    }

    @Test(arguments: [
        (0.0, 0.0, "2s"), (0.5, 0.25, "2s"), (1.0, 0.5, "1s"), (1.5, 0.75, "1s"), (2.0, 0.0, "2s"), (2.5, 0.25, "2s"),
        (3.0, 0.5, "1s"), (4.0, 0.0, "2s"), (201.0, 0.5, "1s"),
    ])
    func thenRestart_startsAgainAtOnce_forever(elapsed: Double, p: Double, label: String) throws {
        var board = Board(spec: Self.board(CountdownOptions(then: .restart)))
        try board.startCountdown(seconds: 2, at: 10)
        let ring = try Self.ring(board, at: 10 + elapsed)
        #expect(ring.p == p && ring.label == label)
        #expect(board.isAnimating(at: 10 + elapsed) && board.isAnimating(ring: "countdown", at: 10 + elapsed))
    }

    @Test func completions_countTheCyclesEnded() {
        let countdown = Countdown(seconds: 2, start: 10)
        #expect(
            [9.0, 10, 11.99, 12, 13.99, 14, 20].map { countdown.completions(at: $0, then: .restart) } == [0, 0, 0, 1, 1, 2, 5])
        #expect([11.99, 12, 100].map { countdown.completions(at: $0, then: .rest) } == [0, 1, 1])
        #expect([11.99, 12, 100].map { countdown.completions(at: $0, then: .cancel) } == [0, 1, 1])
    }

    // MARK: End events by tick

    static let origin = AnimatorTests.origin
    static let fps = AnimatorTests.fps

    static func animator(_ options: CountdownOptions?) -> Animator {
        Animator(spec: board(options), fps: fps, tick: origin - 1000)
    }

    @Test func endEvent_isOnTheFirstTickThatShowsZero_once() throws {
        var animator = Self.animator(CountdownOptions(webhook: "http://127.0.0.1:9/hook"))
        try animator.accept(.startCountdown(seconds: 1), at: Self.origin + 1, now: Self.origin)
        let end = Self.origin + 1 + 60
        #expect(animator.nextCountdownEnd(after: Self.origin) == end)
        #expect(animator.countdownEnds(after: Self.origin, through: end - 1).isEmpty)
        #expect(
            animator.countdownEnds(after: end - 1, through: end)
                == [CountdownEnd(board: "main", ring: "countdown", tick: end, webhook: "http://127.0.0.1:9/hook")])
        #expect(animator.countdownEnds(after: Self.origin, through: end + 600).map(\.tick) == [end])
        #expect(animator.nextCountdownEnd(after: end) == nil)
        // The frame of that tick is the first to show 0s.
        #expect(animator.frames(at: end - 1).frame.rings.last?.label == "1s")
        #expect(animator.frames(at: end).frame.rings.last?.label == "0s")
        // Asking again after the frames were composed gives the same answer.
        #expect(animator.countdownEnds(after: end - 1, through: end).map(\.tick) == [end])
    }

    @Test func endEvents_ofARestartingCountdown_areOncePerCycle() throws {
        var animator = Self.animator(CountdownOptions(then: .restart))
        try animator.accept(.startCountdown(seconds: 0.5), at: Self.origin + 1, now: Self.origin)
        let ticks = animator.countdownEnds(after: Self.origin, through: Self.origin + 200).map(\.tick)
        #expect(ticks == [31, 61, 91, 121, 151, 181].map { Self.origin + $0 })
        var next = Self.origin
        var found: [Int64] = []
        while let tick = animator.nextCountdownEnd(after: next), tick <= Self.origin + 200 {
            found.append(tick)
            next = tick
        }
        #expect(found == ticks)
    }

    @Test func endEvent_ofALengthBetweenTicks_isOnTheTickAfterTheEnd() throws {
        var animator = Self.animator(nil)
        try animator.accept(.startCountdown(seconds: 1.005), at: Self.origin + 1, now: Self.origin)
        // 1.005 s is 60.3 ticks: tick 61 after the start is the first at or past the end.
        #expect(animator.nextCountdownEnd(after: Self.origin) == Self.origin + 62)
        #expect(animator.countdownEnds(after: Self.origin, through: Self.origin + 100).map(\.tick) == [Self.origin + 62])
    }

    @Test func aCancelledOrRestartedCountdown_endsOnlyAsTheNewStateSays() throws {
        var animator = Self.animator(nil)
        try animator.accept(.startCountdown(seconds: 1), at: Self.origin + 1, now: Self.origin)
        try animator.accept(.cancelCountdown, at: Self.origin + 30, now: Self.origin + 29)
        #expect(animator.nextCountdownEnd(after: Self.origin) == nil)
        #expect(animator.countdownEnds(after: Self.origin, through: Self.origin + 200).isEmpty)
        try animator.accept(.startCountdown(seconds: 1), at: Self.origin + 40, now: Self.origin + 39)
        try animator.accept(.startCountdown(seconds: 2), at: Self.origin + 50, now: Self.origin + 49)
        #expect(animator.nextCountdownEnd(after: Self.origin) == Self.origin + 170)
        #expect(animator.countdownEnds(after: Self.origin, through: Self.origin + 400).map(\.tick) == [Self.origin + 170])
    }

    /// The check a webhook's retry asks (`Animator.stillEnds`): an end stays current while its countdown runs as it was defined, and not
    /// once it is cancelled or started again.
    @Test func anEnd_isNoLongerCurrent_onceItsCountdownIsCancelledOrStartedAgain() throws {
        let origin = Self.origin
        var animator = Self.animator(CountdownOptions(webhook: "http://127.0.0.1:9/hook"))
        try animator.accept(.startCountdown(seconds: 1), at: origin + 1, now: origin)
        let end = try #require(animator.countdownEnds(after: origin, through: origin + 100).first)
        #expect(animator.stillEnds(end, asOf: end.tick + 30))
        var cancelled = animator
        try cancelled.accept(.cancelCountdown, at: end.tick + 20, now: end.tick + 19)
        #expect(!cancelled.stillEnds(end, asOf: end.tick + 30))
        var restarted = animator
        try restarted.accept(.startCountdown(seconds: 5), at: end.tick + 20, now: end.tick + 19)
        #expect(!restarted.stillEnds(end, asOf: end.tick + 30))
        var otherHook = end
        otherHook.webhook = "http://127.0.0.1:9/other"
        #expect(!animator.stillEnds(otherHook, asOf: end.tick + 30))
    }

    @Test func endEvents_areTheSameOnTwoAnimators_andAfterARestoreMidCountdown() throws {
        var first = Self.animator(CountdownOptions(style: .seed, tenths: true, then: .restart))
        try first.accept(.startCountdown(seconds: 0.75, animated: false), at: Self.origin + 1, now: Self.origin)
        _ = first.frames(at: Self.origin + 20)
        let state = try AnimatorTests.roundTrip(first.state)
        var restored = try Animator(
            spec: Self.board(CountdownOptions(style: .seed, tenths: true, then: .restart)), fps: 60, state: state)
        for tick in (Self.origin + 21)...(Self.origin + 200) {
            let a = first.frames(at: tick)
            let b = restored.frames(at: tick)
            #expect(
                BinaryFrame.encode(a.frame, previous: a.base) == BinaryFrame.encode(b.frame, previous: b.base),
                "tick \(tick)")
            #expect(try FrameEncoder.json(a.frame) == FrameEncoder.json(b.frame))
        }
        let range = (Self.origin + 20, Self.origin + 200)
        #expect(first.countdownEnds(after: range.0, through: range.1) == restored.countdownEnds(after: range.0, through: range.1))
        #expect(first.countdownEnds(after: range.0, through: range.1).count == 4)
        #expect(state.countdown?.animated == false)
    }

    // MARK: Stored state and wire

    @Test func anAnimatedCountdown_isStoredAsBefore_withoutAnAnimatedKey() throws {
        var board = Board(spec: Fixtures.board)
        try board.startCountdown(seconds: 3, at: 10)
        let json = String(decoding: try JSONEncoder().encode(board.state(fps: 60, epoch: 0).countdown), as: UTF8.self)
        #expect(!json.contains("animated"))
        try board.startCountdown(seconds: 3, animated: false, at: 10)
        let stepped = String(decoding: try JSONEncoder().encode(board.state(fps: 60, epoch: 0).countdown), as: UTF8.self)
        #expect(stepped.contains("\"animated\":false"))
    }

    @Test func aStoredSpecWithoutOptions_readsBack_andOneWithThem_roundTrips() throws {
        let plain = try JSONEncoder().encode(Fixtures.board)
        #expect(!String(decoding: plain, as: UTF8.self).contains("webhook"))
        #expect(try JSONDecoder().decode(BoardSpec.self, from: plain) == Fixtures.board)
        let styled = Self.board(CountdownOptions(style: .seed, tenths: true, then: .cancel, webhook: "https://example.com/h"))
        #expect(try JSONDecoder().decode(BoardSpec.self, from: JSONEncoder().encode(styled)) == styled)
        try BoardSpec.check(styled, key: "spec")
    }

    @Test func snapshot_showsTheRingsOptions_andARestartingCycle() throws {
        let options = CountdownOptions(tenths: true, then: .restart)
        var board = Board(spec: Self.board(options))
        try board.startCountdown(seconds: 2, animated: false, at: 10)
        let snapshot = board.snapshot(at: 15.5)
        #expect(snapshot.countdown == BoardSnapshot.Countdown(seconds: 2, remaining: 0.5, animated: false))
        #expect(snapshot.rings.last?.countdown == options && snapshot.rings.last?.text == "0.5s")
        let body = try String(decoding: snapshot.jsonBody(), as: UTF8.self)
        #expect(body.contains(#""then":"restart""#) && body.contains(#""animated":false"#))
        let plain = Board(spec: Fixtures.board).snapshot(at: 0)
        #expect(plain.rings.allSatisfy { $0.countdown == nil })
    }

    @Test func aStoredSpecWithABadWebhook_failsToLoadNamingTheKey() {
        let bad = Self.board(CountdownOptions(webhook: "ftp://example.com"))
        let error = #expect(throws: BoardStateError.self) { try BoardSpec.check(bad, key: "spec") }
        #expect(error?.key == "spec.rings.8.webhook")
    }

    @Test func layout_namesTheSeedStyle_andLeavesOtherLayoutsByteIdentical() throws {
        let plain = FrameComposer.layout(of: Fixtures.board)
        let ringStyle = FrameComposer.layout(of: Self.board(CountdownOptions(style: .ring, tenths: true)))
        #expect(try FrameEncoder.json(plain) == FrameEncoder.json(ringStyle))
        #expect(BinaryFrame.encode(plain) == BinaryFrame.encode(ringStyle))
        let seed = FrameComposer.layout(of: Self.board(CountdownOptions(style: .seed)))
        #expect(seed.rings.last?.style == "seed" && seed.rings.dropLast().allSatisfy { $0.style == nil })
        #expect(try String(decoding: FrameEncoder.json(seed), as: UTF8.self).contains(#""style":"seed""#))
        guard case .layout(let decoded) = try BinaryFrame.decode(BinaryFrame.encode(seed)) else {
            Issue.record("not a layout")
            return
        }
        #expect(decoded.seedStyle == Array(repeating: false, count: 8) + [true])
    }

    @Test func eventMessages_haveTheDocumentedShapeAndBytes() throws {
        let event = BoardEvent(event: .countdownEnded, board: "main", ring: "countdown", seq: 0x0102_0304, t: 1.5)
        #expect(
            String(decoding: try FrameEncoder.json(event), as: UTF8.self)
                == #"{"board":"main","event":"countdownEnded","ring":"countdown","seq":16909060,"t":1.5,"type":"event"}"#)
        let bytes = BinaryFrame.encode(event)
        #expect(
            bytes
                == [0x52, 3, 4, 0, 1, 0x04, 0x03, 0x02, 0x01] + [0, 0, 0, 0, 0, 0, 0xf8, 0x3f]
                + [4] + Array("main".utf8) + [9] + Array("countdown".utf8))
        #expect(try BinaryFrame.decode(bytes) == .event(event))
    }
}

/// The options and the start body as the API decodes them, with the exact 422 fields.
@Suite struct CountdownDecodingTests {
    static func board(_ ring: String) throws(APIError) -> BoardDefinition {
        try RequestDecoder.decode(BoardDefinition.self, from: Array(#"{"rings":[{"id":"a"},\#(ring)]}"#.utf8))
    }

    @Test func aCountdownRing_takesEveryOption() throws {
        let definition = try Self.board(
            #"{"id":"c","kind":"countdown","style":"seed","tenths":true,"then":"restart","webhook":"https://example.com/h?x=1"}"#)
        guard case .explicit(let rings, _) = definition.rings else {
            Issue.record("not explicit")
            return
        }
        #expect(
            rings.last?.countdown
                == CountdownOptions(style: .seed, tenths: true, then: .restart, webhook: "https://example.com/h?x=1"))
        #expect(rings.first?.countdown == nil)
    }

    static let refused: [RefusedBody] = [
        .init(#"{"id":"c","style":"seed"}"#, 422, "invalid_value", "rings.1.style"),
        .init(#"{"id":"c","kind":"derived","sources":["a"],"then":"rest"}"#, 422, "invalid_value", "rings.1.then"),
        .init(#"{"id":"c","kind":"countdown","style":"disc"}"#, 422, "invalid_value", "rings.1.style"),
        .init(#"{"id":"c","kind":"countdown","style":4}"#, 400, "malformed", "rings.1.style"),
        .init(#"{"id":"c","kind":"countdown","tenths":"yes"}"#, 400, "malformed", "rings.1.tenths"),
        .init(#"{"id":"c","kind":"countdown","then":"stop"}"#, 422, "invalid_value", "rings.1.then"),
        .init(#"{"id":"c","kind":"countdown","webhook":"ftp://example.com/h"}"#, 422, "invalid_value", "rings.1.webhook"),
        .init(#"{"id":"c","kind":"countdown","webhook":"https:///nohost"}"#, 422, "invalid_value", "rings.1.webhook"),
        .init(#"{"id":"c","kind":"countdown","webhook":"example.com/h"}"#, 422, "invalid_value", "rings.1.webhook"),
        .init(#"{"id":"c","kind":"countdown","webhook":"http://u:p@example.com/"}"#, 422, "invalid_value", "rings.1.webhook"),
        .init(#"{"id":"c","kind":"countdown","webhook":true}"#, 400, "malformed", "rings.1.webhook"),
    ]

    @Test(arguments: refused)
    func refusedOption_namesItsField(refused: RefusedBody) {
        let error = #expect(throws: APIError.self) { try Self.board(refused.body) }
        #expect(error?.status == refused.status && error?.code == refused.code && error?.field == refused.field)
    }

    @Test func startBody_takesAnimated() throws {
        func decode(_ body: String) throws(APIError) -> CountdownStart {
            try RequestDecoder.decode(CountdownStart.self, from: Array(body.utf8))
        }
        #expect(try decode(#"{"seconds":10}"#) == CountdownStart(seconds: 10, animated: true))
        #expect(try decode(#"{"seconds":10,"animated":false}"#) == CountdownStart(seconds: 10, animated: false))
        let error = #expect(throws: APIError.self) { try decode(#"{"seconds":10,"animated":"no"}"#) }
        #expect(error?.status == 400 && error?.code == "malformed" && error?.field == "animated")
        let unknown = #expect(throws: APIError.self) { try decode(#"{"seconds":10,"then":"restart"}"#) }
        #expect(unknown?.status == 400 && unknown?.code == "unknown_field" && unknown?.field == "then")
    }

    @Test func clusterUpdate_carriesAnimatedOnlyWhenFalse() throws {
        let animated = ClusterUpdate(
            board: "main", baseRevision: 1, revision: 2, startTick: 5, change: .startCountdown(seconds: 3), digest: "0")
        let stepped = ClusterUpdate(
            board: "main", baseRevision: 1, revision: 2, startTick: 5, change: .startCountdown(seconds: 3, animated: false),
            digest: "0")
        let encodedAnimated = try JSONEncoder().encode(animated)
        #expect(!String(decoding: encodedAnimated, as: UTF8.self).contains("animated"))
        #expect(try JSONDecoder().decode(ClusterUpdate.self, from: encodedAnimated) == animated)
        #expect(try JSONDecoder().decode(ClusterUpdate.self, from: JSONEncoder().encode(stepped)) == stepped)
    }
}
