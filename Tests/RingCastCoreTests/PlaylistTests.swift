import Foundation
import Testing

@testable import RingCastCore

/// Playlists are a pure function of their definition, the tick and the boards served: by tick, by table, and by
/// a seeded random sequence against the invariants every node relies on to switch on the same tick.
@Suite struct PlaylistTests {
    static let fps = 60
    /// 2025-11-21T00:00:00Z.
    static let anchor: Int64 = 1_763_683_200
    static let everything: @Sendable (String) -> Bool = { _ in true }

    static func playlist(_ boards: [String], seconds: Int = 2, anchor: Int64 = anchor, transition: SplashStyle? = .circle)
        -> Playlist
    {
        Playlist(name: "wall", boards: boards, seconds: seconds, transition: transition, anchor: anchor)
    }

    // MARK: - By tick

    @Test(
        arguments: [
            // Before the anchor the first slot holds: the first board from the moment the playlist is written.
            (-1_000, "ci"), (-1, "ci"),
            (0, "ci"), (119, "ci"),
            // A slot is seconds × fps = 120 ticks.
            (120, "sales"), (239, "sales"),
            (240, "ops"), (359, "ops"),
            // The order cycles.
            (360, "ci"), (480, "sales"), (120 * 3_000 + 5, "ci"),
        ] as [(Int64, String)])
    func eachSlotShowsTheNextBoard_inOrder_cycling(offset: Int64, board: String) {
        let playlist = Self.playlist(["ci", "sales", "ops"])
        let tick = playlist.anchorTick(fps: Self.fps) + offset
        #expect(playlist.shown(at: tick, fps: Self.fps, served: Self.everything)?.board == board)
    }

    @Test func switchTicks_areTheSlotBoundaries_andThePositionNamesTheNeighbours() throws {
        let timeline = PlaylistTimeline(current: Self.playlist(["ci", "sales"]), fps: Self.fps)
        let anchor = timeline.current.anchorTick(fps: Self.fps)

        let first = try #require(timeline.position(at: anchor + 5, served: Self.everything))
        #expect(
            first == PlaylistPosition(board: "ci", index: 0, switched: nil, previous: nil, next: anchor + 120, nextBoard: "sales")
        )

        let atSwitch = try #require(timeline.position(at: anchor + 120, served: Self.everything))
        #expect(atSwitch.board == "sales" && atSwitch.switched == anchor + 120 && atSwitch.previous == "ci")
        #expect(atSwitch.next == anchor + 240 && atSwitch.nextBoard == "ci")

        let later = try #require(timeline.position(at: anchor + 250, served: Self.everything))
        #expect(later.board == "ci" && later.switched == anchor + 240 && later.previous == "sales")
    }

    @Test func switchTicks_fallOnWholeTicksAtAnyFPS() {
        for fps in [1, 24, 30, 60, 144, 1000] {
            let timeline = PlaylistTimeline(current: Self.playlist(["a", "b"], seconds: 7), fps: fps)
            let next = timeline.position(at: timeline.current.anchorTick(fps: fps), served: Self.everything)?.next
            // The same wall-clock instant on every grid: anchor + 7 s.
            #expect(next.map { Double($0) / Double(fps) } == Double(Self.anchor + 7))
        }
    }

    // MARK: - Skipped boards

    @Test func aBoardNotServed_isSkipped_itsSlotShowingTheNextServedBoard() throws {
        let timeline = PlaylistTimeline(current: Self.playlist(["a", "b", "c"]), fps: Self.fps)
        let anchor = timeline.current.anchorTick(fps: Self.fps)
        let served: (String) -> Bool = { $0 != "b" }

        #expect(timeline.shown(at: anchor + 120, served: served)?.board == "c")
        // Slots 1 and 2 both show c: one switch at slot 1, none at slot 2, the next back to a at slot 3.
        let position = try #require(timeline.position(at: anchor + 250, served: served))
        #expect(position.board == "c" && position.index == 2)
        #expect(position.switched == anchor + 120 && position.previous == "a")
        #expect(position.next == anchor + 360 && position.nextBoard == "a")
    }

    @Test func oneServedBoard_neverSwitches_andNoneServed_hasNoPosition() throws {
        let timeline = PlaylistTimeline(current: Self.playlist(["a", "b", "c"]), fps: Self.fps)
        let anchor = timeline.current.anchorTick(fps: Self.fps)
        let position = try #require(timeline.position(at: anchor + 1_000, served: { $0 == "b" }))
        #expect(position == PlaylistPosition(board: "b", index: 1))
        #expect(timeline.position(at: anchor, served: { _ in false }) == nil)
    }

    // MARK: - A replaced definition

    @Test func aReplacement_takesEffectAtItsAnchor_theOldOneHoldingTheTicksBefore() throws {
        let old = Self.playlist(["a", "b"], seconds: 10, anchor: Self.anchor)
        let new = Self.playlist(["c", "a"], seconds: 3, anchor: Self.anchor + 25)
        let timeline = PlaylistTimeline(current: new, previous: old, fps: Self.fps)
        let newAnchor = new.anchorTick(fps: Self.fps)

        // 24 s after the old anchor: the old third slot, b… until the new anchor, where c begins.
        let before = try #require(timeline.position(at: newAnchor - 1, served: Self.everything))
        #expect(before.board == "a" && before.next == newAnchor && before.nextBoard == "c")
        let after = try #require(timeline.position(at: newAnchor + 10, served: Self.everything))
        #expect(after.board == "c" && after.switched == newAnchor && after.previous == "a")
        #expect(after.next == newAnchor + 180 && after.nextBoard == "a")
        #expect(timeline.transition(at: newAnchor) == .circle)
    }

    // MARK: - The splash

    @Test func theSplash_growsWithEaseInOutOverHalfASecond_thenEnds() throws {
        let switched: Int64 = 1_000
        #expect(Playlist.transitionTicks(fps: 60) == 30)
        #expect(Playlist.splashProgress(at: switched - 1, switched: switched, fps: 60) == nil)
        #expect(Playlist.splashProgress(at: switched, switched: switched, fps: 60) == 0)
        let half = try #require(Playlist.splashProgress(at: switched + 15, switched: switched, fps: 60))
        #expect(abs(half - 0.5) < 1e-9)
        var last = -1.0
        for tick in switched..<(switched + 30) {
            let progress = try #require(Playlist.splashProgress(at: tick, switched: switched, fps: 60))
            #expect(progress > last && progress < 1)
            last = progress
        }
        #expect(Playlist.splashProgress(at: switched + 30, switched: switched, fps: 60) == nil)
    }

    @Test func aSwitchingFrame_growsTheNewBackgroundOverThePreviousOne() throws {
        let spec = Fixtures.board
        var animator = Animator(spec: spec, fps: 60, tick: 0)
        let frame = animator.frame(at: 10)
        let previous = try #require(RGBAColor(hex: "#4533c9"))

        let switching = frame.switching(from: previous, style: .circle, progress: 0.25, spec: spec)
        #expect(switching.background.color == previous)
        #expect(switching.background.splash.first?.color == frame.background.color)
        #expect(switching.background.splash.first?.progress == 0.25)
        #expect(switching.background.splash.first?.shapes.count == spec.arrangements.count)
        #expect(switching.rings == frame.rings && switching.seq == frame.seq)
    }

    // MARK: - Seeded random sequences

    @Test(arguments: [1, 7, 42, 2024, 90_210])
    func randomPlaylists_switchOnlyAtBoundaries_andThePositionIsConsistent(seed: UInt64) throws {
        var generator = ArrangerTests.SeededGenerator(state: seed)
        for _ in 0..<40 {
            let names = ["a", "b", "c", "d", "e"].shuffled(using: &generator)
            let count = Int.random(in: 1...5, using: &generator)
            let fps = [1, 10, 30, 60].randomElement(using: &generator)!
            let seconds = Int.random(in: 1...4, using: &generator)
            let current = Self.playlist(
                Array(names.prefix(count)), seconds: seconds, anchor: Self.anchor + Int64.random(in: 0...20, using: &generator))
            var previous: Playlist?
            if Bool.random(using: &generator) {
                previous = Self.playlist(
                    Array(names.shuffled(using: &generator).prefix(Int.random(in: 1...5, using: &generator))),
                    seconds: Int.random(in: 1...4, using: &generator),
                    anchor: Self.anchor - Int64.random(in: 0...20, using: &generator))
            }
            let timeline = PlaylistTimeline(current: current, previous: previous, fps: fps)
            let servedSet = Set(names.filter { _ in Int.random(in: 0..<4, using: &generator) > 0 })
            let served: (String) -> Bool = { servedSet.contains($0) }
            let start = current.anchorTick(fps: fps) - Int64(40 * fps)
            let ticks = (0..<30).map { _ in start + Int64.random(in: 0...Int64(120 * fps), using: &generator) }
            try check(timeline, served: served, at: ticks)
        }
    }

    /// The invariants, at each of `ticks`.
    private func check(_ timeline: PlaylistTimeline, served: (String) -> Bool, at ticks: [Int64]) throws {
        let fps = Int64(timeline.fps)
        for tick in ticks {
            guard let position = timeline.position(at: tick, served: served) else {
                // Nothing is shown only when no board of the definition holding the tick is served.
                let anyServed = timeline.definition(at: tick).boards.contains(where: served)
                #expect(!anyServed)
                continue
            }
            let here = position.board
            // The board changes between two ticks only at a boundary.
            for probe in (tick - 2 * fps)...(tick + 2 * fps) {
                let board = timeline.shown(at: probe, served: served)?.board
                let before = timeline.shown(at: probe - 1, served: served)?.board
                if board != before { #expect(timeline.boundary(atOrBefore: probe) == probe) }
            }
            // The switch that brought the board: its board from there to the tick, another one just before.
            if let switched = position.switched {
                #expect(switched <= tick)
                #expect(timeline.shown(at: switched - 1, served: served)?.board == position.previous)
                #expect(position.previous != here)
                for probe in stride(from: switched, through: tick, by: max(1, Int((tick - switched) / 50))) {
                    #expect(timeline.shown(at: probe, served: served)?.board == here)
                }
            }
            // The next switch: the board until then, another one from then on.
            if let next = position.next {
                #expect(next > tick)
                #expect(timeline.shown(at: next, served: served)?.board == position.nextBoard)
                #expect(position.nextBoard != here)
                #expect(timeline.shown(at: next - 1, served: served)?.board == here)
                #expect(timeline.boundary(atOrBefore: next) == next)
            }
        }
    }

    @Test(arguments: [3, 11, 77])
    func withEveryBoardServed_theOrderCycles(seed: UInt64) {
        var generator = ArrangerTests.SeededGenerator(state: seed)
        let boards = ["a", "b", "c", "d", "e", "f"].shuffled(using: &generator)
        let playlist = Self.playlist(boards, seconds: Int.random(in: 1...9, using: &generator))
        for slot in Int64(0)..<50 {
            let tick =
                playlist.start(ofSlot: slot, fps: Self.fps)
                + Int64.random(in: 0..<playlist.periodTicks(fps: Self.fps), using: &generator)
            #expect(playlist.shown(at: tick, fps: Self.fps, served: Self.everything)?.board == boards[Int(slot) % boards.count])
        }
    }

    // MARK: - The body and the stored form

    @Test func theBody_takesBoardsSecondsAndTransition_defaultingToCircle() throws {
        let body = #"{"boards":["ci","sales"],"seconds":30}"#
        let definition = try RequestDecoder.decode(PlaylistDefinition.self, from: Array(body.utf8))
        #expect(definition == PlaylistDefinition(boards: ["ci", "sales"], seconds: 30, transition: .circle))
        let none = try RequestDecoder.decode(
            PlaylistDefinition.self, from: Array(#"{"boards":["ci"],"seconds":5,"transition":"none"}"#.utf8))
        #expect(none.transition == nil)
        let angle = try RequestDecoder.decode(
            PlaylistDefinition.self, from: Array(#"{"boards":["ci"],"seconds":5,"transition":{"angle":45}}"#.utf8))
        #expect(angle.transition == .angle(45))
    }

    @Test(arguments: [
        (#"{"boards":["ci"]}"#, 400, "malformed", "seconds"),
        (#"{"seconds":3}"#, 400, "malformed", "boards"),
        (#"{"boards":"ci","seconds":3}"#, 400, "malformed", "boards"),
        (#"{"boards":["ci",7],"seconds":3}"#, 400, "malformed", "boards.1"),
        (#"{"boards":["ci","Sales!"],"seconds":3}"#, 422, "invalid_value", "boards.1"),
        (#"{"boards":["ci","sales","ci"],"seconds":3}"#, 422, "invalid_value", "boards.2"),
        (#"{"boards":[],"seconds":3}"#, 422, "invalid_value", "boards"),
        (
            #"{"boards":["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"],"seconds":3}"#, 422,
            "invalid_value", "boards"
        ),
        (#"{"boards":["ci"],"seconds":0}"#, 422, "out_of_range", "seconds"),
        (#"{"boards":["ci"],"seconds":2.5}"#, 422, "out_of_range", "seconds"),
        (#"{"boards":["ci"],"seconds":86401}"#, 422, "out_of_range", "seconds"),
        (#"{"boards":["ci"],"seconds":"30"}"#, 400, "malformed", "seconds"),
        (#"{"boards":["ci"],"seconds":3,"transition":"fade"}"#, 422, "invalid_value", "transition"),
        (#"{"boards":["ci"],"seconds":3,"transition":{"angle":1e9}}"#, 422, "out_of_range", "transition.angle"),
        (#"{"boards":["ci"],"seconds":3,"loop":true}"#, 400, "unknown_field", "loop"),
    ])
    func theBody_refusesWhatIsWrong_namingTheField(body: String, status: Int, code: String, field: String) {
        #expect(throws: APIError.self) { try RequestDecoder.decode(PlaylistDefinition.self, from: Array(body.utf8)) }
        do {
            _ = try RequestDecoder.decode(PlaylistDefinition.self, from: Array(body.utf8))
        } catch {
            #expect(error.status == status && error.code == code && error.field == field, "\(error)")
        }
    }

    @Test(arguments: [SplashStyle?.none, .circle, .leftToRight, .angle(-30)])
    func aStoredPlaylist_loadsAsItWasStored(transition: SplashStyle?) throws {
        let playlist = Self.playlist(["ci", "sales"], seconds: 30, transition: transition)
        #expect(try Playlist.loading(playlist.stored()) == playlist)
    }

    @Test func theStoredForm_isSortedJSON() throws {
        let playlist = Self.playlist(["ci", "sales"], seconds: 30)
        #expect(
            String(decoding: try playlist.stored(), as: UTF8.self)
                == #"{"anchor":1763683200,"boards":["ci","sales"],"name":"wall","seconds":30,"transition":"circle"}"#)
    }

    @Test(arguments: [
        (#"{"anchor":-1,"boards":["ci"],"name":"wall","seconds":30,"transition":"circle"}"#, "anchor"),
        (#"{"anchor":1,"boards":["ci"],"name":"Wall Screen","seconds":30,"transition":"circle"}"#, "name"),
        (#"{"anchor":1,"boards":["ci"],"name":"wall","seconds":0,"transition":"circle"}"#, "seconds"),
        (#"{"anchor":1,"boards":["ci"],"seconds":30,"transition":"circle"}"#, "name"),
        (#"{"anchor":1,"anchor":2,"boards":["ci"],"name":"wall","seconds":30}"#, "anchor"),
    ])
    func aDamagedStoredPlaylist_isRefused_namingTheKey(bytes: String, key: String) {
        do {
            _ = try Playlist.loading(Array(bytes.utf8))
            Issue.record("loaded \(bytes)")
        } catch {
            #expect(error.field == key, "\(error)")
        }
    }
}
