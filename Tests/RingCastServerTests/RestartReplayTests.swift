import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// Issue 32, item 5, in process with the shipped wiring: two servers (`Application` on a real SQLite store) take the
/// same seeded random writes at the same ticks — every kind of write, every animation, repeats, countdowns, rings
/// added and removed, refusals among them. One runs on, watched (so it composes every frame); the other is killed now
/// and then (no shutdown, no snapshot) and started again on its data directory, which replays its change log. After
/// each restart both boards must show the same frames, byte for byte, and the same snapshot.
@Suite("A restart replays the log")
struct RestartReplayTests {
    typealias Generator = ChangeLogReplayTests.Generator

    /// One random write: method, path and body.
    static func write(_ generator: inout Generator, extra: inout Bool) -> (String, String, String?) {
        let board = "/api/v1/boards/main"
        let ring = ChangeLogReplayTests.rings.randomElement(using: &generator)!
        let progress = Double.random(in: 0...1.5, using: &generator)
        let animation = ChangeLogReplayTests.animation(&generator)
        switch Int.random(in: 0..<24, using: &generator) {
        case 0: return ("PUT", board + "/rings/nope", #"{"progress":0.5}"#)  // refused
        case 1: return ("PUT", board + "/background", ##"{"color":"#4533c9","transition":"circle","duration":0.4}"##)
        case 2: return ("POST", board + "/countdown", #"{"seconds":\#(Int.random(in: 1...3, using: &generator))}"#)
        case 3: return ("DELETE", board + "/countdown", nil)
        case 4:
            // A ring added, or the added one removed: the board laid out again (a restructure in the log).
            defer { extra.toggle() }
            return extra
                ? ("DELETE", board + "/rings/extra", nil) : ("POST", board + "/rings", #"{"id":"extra","title":"Extra"}"#)
        case 5, 6:
            return (
                "PATCH", board,
                ##"{"rings":{"\##(ring)":\##(progress),"stand":{"colors":["#2ecc71","#3498db"]}},"animation":\##(animation)}"##
            )
        case 7: return ("PATCH", board, #"{"title":"Wall \#(Int.random(in: 0...9, using: &generator))"}"#)
        default: return ("PUT", board + "/rings/\(ring)", #"{"progress":\#(progress),"animation":\#(animation)}"#)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aServerKilledAtAnyPoint_continuesWithTheFramesOfOneThatNeverStopped(seed: UInt64) throws {
        var generator = Generator(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        let steady = try TestApplication()
        let watching = steady.connect()
        var killed = try TestApplication(seconds: steady.time.now)
        var extra = false
        var (restarts, writes, refusals) = (0, 0, 0)
        for _ in 0..<240 {
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let (method, path, body) = Self.write(&generator, extra: &extra)
                let expected = try steady.send(method, path, body: body)
                let got = try killed.send(method, path, body: body)
                #expect(got.status == expected.status, "seed \(seed): \(method) \(path) \(body ?? "")")
                if expected.status < 300 { writes += 1 } else { refusals += 1 }
            }
            if Int.random(in: 0..<20, using: &generator) == 0 {
                killed = try killed.killedAndRestarted()
                restarts += 1
                let from = steady.tick + 1
                var ahead = try #require(steady.boards["main"]).animator
                var started = try #require(killed.boards["main"]).animator
                for tick in from...(from + 30) {
                    guard started.frames(at: tick).frame == ahead.frames(at: tick).frame else {
                        Issue.record("seed \(seed): after restart \(restarts), frame \(tick) differs")
                        return
                    }
                }
                #expect(started.spec == ahead.spec)
                var expected = ahead.snapshot(at: from)
                expected.revision = started.snapshot(at: from).revision
                #expect(started.snapshot(at: from) == expected, "seed \(seed): restart \(restarts), the snapshots differ")
            }
            steady.advance(ticks: 1)
            killed.advance(ticks: 1)
            _ = watching.frames
        }
        #expect(restarts > 5 && writes > 150 && refusals > 5, "\(restarts) restarts, \(writes) writes, \(refusals) refused")
    }
}
