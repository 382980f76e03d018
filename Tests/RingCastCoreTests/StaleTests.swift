import Foundation
import Testing

@testable import RingCastCore

/// Stale data (DESIGN §13, issue 23): a board or ring that went `staleAfter` seconds without a write carries
/// "updated … ago" in its frames, computed by tick, changed at most once a minute and cleared by the next write.
@Suite("Stale data")
struct StaleTests {
    static let fps = 60
    static let origin = AnimatorTests.origin
    static let minute = Int64(60 * fps)

    /// The fixture board with the board's and some rings' `staleAfter`.
    static func spec(board: Int? = 600, rings: [String: Int] = [:]) -> BoardSpec {
        var spec = Fixtures.board
        spec.staleAfter = board
        for index in spec.rings.indices {
            spec.rings[index].staleAfter = rings[spec.rings[index].id]
        }
        return spec
    }

    static func animator(_ spec: BoardSpec) -> Animator {
        Animator(spec: spec, fps: fps, tick: origin - 1000)
    }

    /// Accepts `change` the tick before `tick`, as the server does, so it starts at `tick`.
    static func write(_ animator: inout Animator, _ change: Animator.Change, at tick: Int64) throws {
        try animator.accept(change, at: tick, now: tick - 1)
    }

    static func push(_ id: String, _ progress: Double) -> Animator.Change {
        .ring(id, RingUpdate(progress: progress, animation: Animation.none))
    }

    /// Each ring's stale text in the frame of `tick`, by id (fresh rings left out).
    static func stale(_ animator: inout Animator, at tick: Int64) -> [String: String] {
        Dictionary(uniqueKeysWithValues: animator.frame(at: tick).rings.compactMap { ring in ring.stale.map { (ring.id, $0) } })
    }

    // MARK: The text

    @Test(arguments: [
        (0, "updated under 1 min ago"), (59, "updated under 1 min ago"), (60, "updated 1 min ago"),
        (61, "updated 1 min ago"), (12 * 60 + 59, "updated 12 min ago"), (119 * 60 + 59, "updated 119 min ago"),
        (120 * 60, "updated 2 h ago"), (47 * 3600 + 3599, "updated 47 h ago"), (48 * 3600, "updated 2 d ago"),
        (7 * 86_400, "updated 7 d ago"), (400 * 86_400, "updated 400 d ago"),
    ])
    func text_countsWholeMinutesThenHoursThenDays(seconds: Int, expected: String) {
        #expect(StaleLabel.string(elapsed: Int64(seconds * Self.fps), fps: Self.fps) == expected)
        // A tick short of the next second still counts the second before.
        #expect(StaleLabel.string(elapsed: Int64(seconds * Self.fps + Self.fps - 1), fps: Self.fps) == expected)
    }

    @Test(arguments: [
        (0, 60), (59, 60), (60, 120), (119 * 60, 120 * 60), (120 * 60, 3 * 3600), (47 * 3600, 48 * 3600),
        (48 * 3600, 3 * 86_400), (3 * 86_400 + 1, 4 * 86_400),
    ])
    func nextChange_isTheNextWholeUnit_andTheTextChangesExactlyThere(seconds: Int, expected: Int) {
        let elapsed = Int64(seconds * Self.fps)
        let next = StaleLabel.nextChange(after: elapsed, fps: Self.fps)
        #expect(next == Int64(expected * Self.fps))
        #expect(StaleLabel.string(elapsed: next - 1, fps: Self.fps) == StaleLabel.string(elapsed: elapsed, fps: Self.fps))
        #expect(StaleLabel.string(elapsed: next, fps: Self.fps) != StaleLabel.string(elapsed: elapsed, fps: Self.fps))
    }

    // MARK: By tick

    @Test func board_goesStaleExactlyStaleAfterSecondsAfterItsLastWrite_andAWriteClearsIt() throws {
        var animator = Self.animator(Self.spec(board: 600))
        let written = Self.origin + 1
        try Self.write(&animator, Self.push("move", 0.5), at: written)
        let stale = written + 600 * Int64(Self.fps)
        #expect(Self.stale(&animator, at: written).isEmpty)
        #expect(Self.stale(&animator, at: stale - 1).isEmpty)
        // Every ring and widget of the board, the ones never written too, shows the board's last write.
        let texts = Self.stale(&animator, at: stale)
        #expect(texts.count == Fixtures.board.rings.count)
        #expect(Set(texts.values) == ["updated 10 min ago"])
        #expect(Self.stale(&animator, at: stale + 12 * Self.minute)["stand"] == "updated 22 min ago")
        // Any write to the board clears it, a background change too, from its start tick on.
        let cleared = stale + 13 * Self.minute
        try Self.write(&animator, .background(BackgroundUpdate(color: Fixtures.white, transition: nil)), at: cleared)
        #expect(Self.stale(&animator, at: cleared - 1).count == Fixtures.board.rings.count)
        #expect(Self.stale(&animator, at: cleared).isEmpty)
    }

    @Test func aRingsOwnStaleAfter_winsOverTheBoards_andCountsFromItsOwnWrites() throws {
        var animator = Self.animator(Self.spec(board: 600, rings: ["move": 60, "overall": 120]))
        try Self.write(&animator, Self.push("move", 0.5), at: Self.origin + 1)
        try Self.write(&animator, Self.push("task1", 0.5), at: Self.origin + 2)
        // Writes to other rings keep the board fresh, not move.
        try Self.write(&animator, Self.push("stand", 0.5), at: Self.origin + 30 * Self.minute)
        var texts = Self.stale(&animator, at: Self.origin + 1 + Self.minute)
        #expect(texts == ["move": "updated 1 min ago"])
        // A derived ring counts from its sources' newest write.
        texts = Self.stale(&animator, at: Self.origin + 2 + 2 * Self.minute)
        #expect(texts == ["move": "updated 2 min ago", "overall": "updated 2 min ago"])
        // Only the board's clock runs for the others: fresh until 10 min after the write to stand.
        texts = Self.stale(&animator, at: Self.origin + 40 * Self.minute)
        #expect(texts["move"] == "updated 39 min ago")
        #expect(texts["stand"] == "updated 10 min ago")
        #expect(texts["task1"] == "updated 10 min ago")
    }

    @Test func neverWritten_isNeverStale() throws {
        var animator = Self.animator(Self.spec(board: 1, rings: ["move": 1]))
        #expect(Self.stale(&animator, at: Self.origin + 100 * Self.minute).isEmpty)
        #expect(animator.nextTick(after: Self.origin + 100 * Self.minute) == nil)
    }

    @Test func withoutStaleAfter_framesKeepTheirBytes() throws {
        var plain = Self.animator(Fixtures.board)
        var watched = Self.animator(Self.spec(board: 600))
        try Self.write(&plain, Self.push("move", 0.5), at: Self.origin + 1)
        try Self.write(&watched, Self.push("move", 0.5), at: Self.origin + 1)
        let tick = Self.origin + 5 * Self.minute
        let (frame, base) = plain.frames(at: tick)
        #expect(watched.frames(at: tick) == (frame, base))
        #expect(try !String(decoding: FrameEncoder.json(frame), as: UTF8.self).contains("stale"))
        #expect(BinaryFrame.encode(frame, previous: base)[1] == BinaryFrame.ringsVersion)
    }

    // MARK: Scheduling

    @Test func nextTick_reportsEnteringStaleness_thenEachMinute() throws {
        var animator = Self.animator(Self.spec(board: 90))
        let written = Self.origin + 1
        try Self.write(&animator, Self.push("move", 0.5), at: written)
        _ = animator.frame(at: written)
        let enters = written + 90 * Int64(Self.fps)
        #expect(animator.nextTick(after: written) == enters)
        _ = animator.frame(at: enters)
        #expect(animator.nextTick(after: enters) == written + 2 * Self.minute)
        // A write pending before that comes first.
        try Self.write(&animator, Self.push("move", 0.7), at: enters + 10)
        #expect(animator.nextTick(after: enters) == enters + 10)
    }

    /// What the broadcaster does with a resting board that has viewers: a frame at each tick `nextTick` names,
    /// none between. Over three hours without a write, exactly one frame per text change, each differing from
    /// the grid frame before it only in its stale texts.
    @Test func restingBoard_getsExactlyOneFramePerTextChange() throws {
        var animator = Self.animator(Self.spec(board: 30))
        let written = Self.origin + 1
        try Self.write(&animator, Self.push("move", 0.5), at: written)
        var tick = written
        _ = animator.frame(at: tick)
        var published: [Int64] = []
        while let next = animator.nextTick(after: tick), next <= written + 3 * 60 * Self.minute {
            let (frame, base) = animator.frames(at: next)
            #expect(frame.rings.map(\.stale) != base.rings.map(\.stale), "tick \(next)")
            var unmarked = frame
            for index in unmarked.rings.indices { unmarked.rings[index].stale = base.rings[index].stale }
            #expect(unmarked.rings == base.rings)
            published.append(next)
            tick = next
        }
        // Entering at 30 s, each minute from 1 to 119, each hour from 2 to 3.
        let expected =
            [written + 30 * Int64(Self.fps)] + (1...119).map { written + Int64($0) * Self.minute }
            + [2, 3].map { written + Int64($0) * 60 * Self.minute }
        #expect(published == expected)
    }

    /// A seeded random run of writes at random ticks to random rings, checked against the definition at every
    /// tick: the stale text is the one of the newest write that counts, and no text changes at a tick `nextTick`
    /// did not name.
    @Test(arguments: [1, 2, 3])
    func randomWrites_matchTheDefinitionAtEveryTick_andNextTickNamesEveryChange(seed: UInt64) throws {
        var random = ArrangerTests.SeededGenerator(state: seed)
        let fps = 2
        let ids = ["move", "exercise", "task1", "task2"]
        var spec = Self.spec(board: Int(random.next() % 120) + 1)
        for index in spec.rings.indices where random.next() % 3 == 0 {
            spec.rings[index].staleAfter = Int(random.next() % 200) + 1
        }
        let start: Int64 = 1_000_000
        var animator = Animator(spec: spec, fps: fps, tick: start)
        var writes: [(tick: Int64, ring: String)] = []
        var announced: Int64? = nil
        var previous: [String?] = []
        for tick in (start + 1)...(start + 3 * 3600 * Int64(fps)) {
            if random.next() % 1500 == 0 {
                let ring = ids[Int(random.next() % UInt64(ids.count))]
                try animator.accept(Self.push(ring, Double(random.next() % 10) / 10), at: tick + 1, now: tick)
                writes.append((tick + 1, ring))
            }
            let texts = animator.frame(at: tick).rings.map(\.stale)
            let board = writes.last { $0.tick <= tick }?.tick
            for (ring, text) in zip(spec.rings, texts) {
                var since = ring.staleAfter == nil ? board : writes.last { $0.tick <= tick && $0.ring == ring.id }?.tick
                if case .derived(let sources) = ring.kind, ring.staleAfter != nil {
                    since = writes.last { $0.tick <= tick && sources.sources.contains($0.ring) }?.tick
                }
                let seconds = ring.staleAfter ?? spec.staleAfter!
                let expected = since.flatMap { since in
                    tick - since >= Int64(seconds * fps) ? StaleLabel.string(elapsed: tick - since, fps: fps) : nil
                }
                #expect(text == expected, "seed \(seed), tick \(tick), ring \(ring.id)")
            }
            if !previous.isEmpty, texts != previous, !writes.contains(where: { $0.tick == tick }) {
                #expect(announced == tick, "seed \(seed): the texts changed at \(tick), unannounced")
            }
            previous = texts
            announced = animator.nextTick(after: tick)
            if let announced { #expect(announced > tick) }
        }
        #expect(!writes.isEmpty)
    }

    // MARK: Stored

    @Test func state_keepsTheWriteTicks_andARestoredAnimatorShowsTheSameStaleFrames() throws {
        var animator = Self.animator(Self.spec(board: 600, rings: ["move": 60]))
        try Self.write(&animator, Self.push("move", 0.5), at: Self.origin + 1)
        try Self.write(&animator, .startCountdown(seconds: 5), at: Self.origin + 7)
        let state = try AnimatorTests.roundTrip(animator.state)
        #expect(
            state.written
                == BoardState.Written(board: Self.origin + 7, rings: ["move": Self.origin + 1, "countdown": Self.origin + 7]))
        var restored = try Animator(spec: Self.spec(board: 600, rings: ["move": 60]), fps: Self.fps, state: state)
        for tick in [Self.origin + 100, Self.origin + 2 * Self.minute, Self.origin + 11 * Self.minute] {
            #expect(restored.frame(at: tick) == animator.frame(at: tick), "tick \(tick)")
        }
        #expect(Self.stale(&restored, at: Self.origin + 11 * Self.minute)["stand"] == "updated 10 min ago")
    }

    @Test func aStateStoredBeforeStaleData_loadsAsWrittenAtItsEpoch() throws {
        var animator = Self.animator(Fixtures.board)
        try Self.write(&animator, Self.push("move", 0.5), at: Self.origin + 1)
        var state = animator.state
        state.written = nil
        state.spec = Self.spec(board: 60, rings: ["move": 120])
        let restored = try Animator(spec: Fixtures.board, fps: Self.fps, state: state)
        #expect(restored.freshness == Freshness(board: state.epoch, rings: ["move": state.epoch]))
    }

    @Test func writeTicks_moveWithTheEpochToAnotherFps() throws {
        var animator = Self.animator(Self.spec())
        try Self.write(&animator, Self.push("move", 0.5), at: Self.origin + 1)
        let restored = try Animator(spec: Self.spec(), fps: 30, state: animator.state)
        let moved = Int64((Double(Self.origin + 1) / 2).rounded())
        #expect(restored.freshness == Freshness(board: moved, rings: ["move": moved]))
    }

    @Test(arguments: [
        (BoardState.Written(board: -1), "written.board"),
        (BoardState.Written(board: 1 << 60), "written.board"),
        (BoardState.Written(board: 5, rings: ["move": -3]), "written.rings.move"),
    ])
    func aWriteTickOutOfRange_isRefusedNamingItsKey(written: BoardState.Written, key: String) throws {
        var state = Self.animator(Self.spec()).state
        state.written = written
        #expect(throws: BoardStateError.self) { try Animator(spec: Self.spec(), fps: Self.fps, state: state) }
        do {
            _ = try Animator(spec: Self.spec(), fps: Self.fps, state: state)
        } catch {
            #expect(error.key == key)
        }
    }

    @Test func writeTicksOfRingsTheBoardNoLongerHas_areDropped() throws {
        var state = Self.animator(Self.spec()).state
        state.written = BoardState.Written(board: 5, rings: ["gone": 4, "move": 3])
        let restored = try Animator(spec: Self.spec(), fps: Self.fps, state: state)
        #expect(restored.freshness == Freshness(board: 5, rings: ["move": 3]))
    }

    @Test func aStoredSpecWithStaleAfterOutOfRange_isRefused() throws {
        var state = Self.animator(Self.spec()).state
        state.spec = Self.spec(board: 0)
        #expect(throws: BoardStateError(key: "spec.staleAfter", message: Limits.staleAfterRange)) {
            try Animator(spec: Self.spec(), fps: Self.fps, state: state)
        }
        state.spec = Self.spec(board: nil, rings: ["move": 604_801])
        #expect(
            throws: BoardStateError(
                key: "spec.rings.0.staleAfter", message: "staleAfter \(Limits.staleAfterRange), got 604801")
        ) {
            try Animator(spec: Self.spec(), fps: Self.fps, state: state)
        }
    }

    // MARK: Snapshot

    @Test func snapshot_showsStaleAfterUpdatedAtAndTheText() throws {
        var animator = Self.animator(Self.spec(board: 600, rings: ["move": 60]))
        // 2026-11-18T11:06:40Z is 1,795,000,000 s after the Unix epoch; one tick on is 16.666… ms.
        try Self.write(&animator, Self.push("move", 0.5), at: Self.origin + 1)
        let snapshot = animator.snapshot(at: Self.origin + 2 * Self.minute)
        #expect(snapshot.staleAfter == 600)
        #expect(snapshot.updatedAt == "2026-11-18T11:06:40.016Z")
        #expect(snapshot.stale == nil)
        let move = try #require(snapshot.rings.first { $0.id == "move" })
        #expect(move.staleAfter == 60)
        #expect(move.updatedAt == "2026-11-18T11:06:40.016Z")
        #expect(move.stale == "updated 1 min ago")
        let stand = try #require(snapshot.rings.first { $0.id == "stand" })
        #expect(stand.staleAfter == nil && stand.updatedAt == nil && stand.stale == nil)
        let json = try String(decoding: snapshot.jsonBody(), as: UTF8.self)
        #expect(json.contains(#""staleAfter":600"#) && json.contains(#""stale":"updated 1 min ago""#))
    }

    @Test(arguments: [
        (Int64(0), 1, "1970-01-01T00:00:00.000Z"), (Int64(951_782_400), 1, "2000-02-29T00:00:00.000Z"),
        (Int64(4_107_542_399), 1, "2100-02-28T23:59:59.000Z"), (Int64(61), 60, "1970-01-01T00:00:01.016Z"),
    ])
    func isoTime_isUTCWithMilliseconds(tick: Int64, fps: Int, expected: String) {
        #expect(BoardSnapshot.isoTime(tick: tick, fps: fps) == expected)
    }

    // MARK: Wire

    @Test func json_carriesStaleOnlyWhileStale_andADeltaCarriesTheRingWhoseTextChanged() throws {
        var animator = Self.animator(Self.spec(board: 60))
        try Self.write(&animator, Self.push("move", 0.5), at: Self.origin + 1)
        let (frame, base) = animator.frames(at: Self.origin + 1 + Self.minute)
        let keyframe = try #require(
            JSONSerialization.jsonObject(with: Data(try FrameEncoder.json(frame, previous: nil))) as? [String: Any])
        let rings = try #require(keyframe["rings"] as? [[String: Any]])
        #expect(rings.allSatisfy { $0["stale"] as? String == "updated 1 min ago" })
        let delta = try #require(
            JSONSerialization.jsonObject(with: Data(try FrameEncoder.json(frame, previous: base))) as? [String: Any])
        #expect((delta["rings"] as? [[String: Any]])?.count == Fixtures.board.rings.count)
        let fresh = try #require(
            JSONSerialization.jsonObject(with: Data(try FrameEncoder.json(base, previous: nil))) as? [String: Any])
        #expect((fresh["rings"] as? [[String: Any]])?.allSatisfy { $0["stale"] == nil } == true)
    }

    @Test func binary_stalesInVersion5_aKeyframeListsEveryStaleRing_aDeltaEachChange() throws {
        var animator = Self.animator(Self.spec(board: 60, rings: ["move": 120]))
        try Self.write(&animator, Self.push("move", 0.5), at: Self.origin + 1)
        try Self.write(&animator, Self.push("stand", 0.5), at: Self.origin + 2)
        let layout = try BinaryWidgetTests.layout(of: Board(spec: animator.spec))
        let entering = Self.origin + 2 + Self.minute
        let (frame, base) = animator.frames(at: entering)
        let keyframe = BinaryFrame.encode(frame, previous: nil)
        #expect(keyframe[1] == BinaryFrame.staleVersion && keyframe[3] & 0x02 != 0)
        let decoded = try BinaryWidgetTests.decodedFrame(keyframe, layout: layout)
        #expect(decoded.stale.count == Fixtures.board.rings.count - 1)
        #expect(decoded.stale[0] == nil && decoded.stale[2] == "updated 1 min ago")
        // The delta names the rings that went stale and nothing else: no ring entry changed.
        let delta = try BinaryWidgetTests.decodedFrame(BinaryFrame.encode(frame, previous: base), layout: layout)
        #expect(delta.rings.isEmpty && delta.stale == decoded.stale)
        // A push clears the board's texts: "" for each.
        let pushed = entering + 10
        try Self.write(&animator, Self.push("task1", 0.25), at: pushed)
        let (after, before) = animator.frames(at: pushed)
        let cleared = try BinaryWidgetTests.decodedFrame(BinaryFrame.encode(after, previous: before), layout: layout)
        #expect(Set(cleared.stale.values) == [""] && cleared.stale.count == decoded.stale.count)
        // Cut anywhere, a version 5 frame is refused, not trapped.
        for end in 0..<keyframe.count {
            #expect(throws: BinaryFrame.DecodingError.self) {
                try BinaryFrame.decode(Array(keyframe.prefix(end)), layout: layout)
            }
        }
    }

    @Test func aStaleSectionInAnOlderVersion_isRefused() throws {
        var animator = Self.animator(Self.spec(board: 60))
        try Self.write(&animator, Self.push("move", 0.5), at: Self.origin + 1)
        var bytes = BinaryFrame.encode(animator.frame(at: Self.origin + 1 + Self.minute), previous: nil)
        bytes[1] = BinaryFrame.version
        let layout = try BinaryWidgetTests.layout(of: Board(spec: animator.spec))
        #expect(throws: BinaryFrame.DecodingError(description: "a stale section before version 5")) {
            try BinaryFrame.decode(bytes, layout: layout)
        }
    }

    /// The page's node test decodes these bytes (Tests/web/fixtures/stale.json); regenerate them with
    /// `RINGCAST_WRITE_FIXTURES=1 swift test --filter StaleTests` when the encoding changes.
    @Test func webFixture_matchesTheEncoder() throws {
        var spec = try WidgetBoardTests.spec()
        spec.staleAfter = 60
        var animator = Animator(spec: spec, fps: Self.fps, tick: Self.origin - 1000)
        try Self.write(
            &animator, .patch(try WidgetBoardTests.patch(#"{"rings":{"move":0.4,"tests":{"value":7}}}"#)), at: Self.origin + 1)
        let entering = Self.origin + 1 + Self.minute
        let (stale, fresh) = animator.frames(at: entering)
        try Self.write(&animator, Self.push("move", 0.6), at: entering + 1)
        let cleared = animator.frames(at: entering + 1).frame
        let fixture = StaleFixture(
            layout: BinaryFrame.encode(FrameComposer.layout(of: spec)),
            keyframe: BinaryFrame.encode(fresh, previous: nil),
            staleDelta: BinaryFrame.encode(stale, previous: fresh),
            clearedDelta: BinaryFrame.encode(cleared, previous: stale),
            jsonStale: String(decoding: try FrameEncoder.json(stale, previous: nil), as: UTF8.self),
            jsonCleared: String(decoding: try FrameEncoder.json(cleared, previous: nil), as: UTF8.self))
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("web/fixtures/stale.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        if ProcessInfo.processInfo.environment["RINGCAST_WRITE_FIXTURES"] != nil {
            try encoder.encode(fixture).write(to: url)
        }
        let stored = try JSONDecoder().decode(StaleFixture.self, from: Data(contentsOf: url))
        #expect(stored == fixture)
    }

    struct StaleFixture: Codable, Equatable {
        var layout: [UInt8]
        var keyframe: [UInt8]
        var staleDelta: [UInt8]
        var clearedDelta: [UInt8]
        var jsonStale: String
        var jsonCleared: String
    }
}
