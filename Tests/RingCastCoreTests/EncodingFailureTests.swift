import Testing

@testable import RingCastCore

/// A value that JSON cannot carry (a non-finite number) is a typed error where it is encoded: no frame, state,
/// digest or body is ever made of the empty bytes that stood in for it before.
@Suite("Encoding failures")
struct EncodingFailureTests {
    private static func board() -> Board {
        var board = Board(spec: GoldenJSONTests.spec)
        board.restore(targets: ["move": 0.5], colors: [:])
        return board
    }

    @Test func aFrameWithANonFiniteNumber_throwsNamingTheKey_inEveryJSONForm() throws {
        let frame = FrameComposer.frame(of: Self.board(), at: 100, seq: 1, wallClockMilliseconds: .nan)
        let keyframe = #expect(throws: EncodingFailure.self) { try FrameEncoder.json(frame) }
        #expect(keyframe?.type == "Frame")
        #expect(keyframe?.reason.hasPrefix("t:") == true, "\(keyframe?.reason ?? "")")
        let good = FrameComposer.frame(of: Self.board(), at: 100, seq: 1, wallClockMilliseconds: 0)
        #expect(throws: EncodingFailure.self) { try FrameEncoder.json(frame, previous: good) }
        #expect(throws: EncodingFailure.self) { try FrameEncoder.json(frame, previous: nil) }
        // The same frame with a finite time encodes.
        #expect(try !FrameEncoder.json(good).isEmpty)
    }

    @Test func aStateWithANonFiniteNumber_hasNoDigest_andAFiniteOneHasOne() throws {
        let animator = Animator(spec: GoldenJSONTests.spec, fps: 60, tick: 0)
        var state = animator.state
        let digest = try ClusterUpdate.digest(of: state)
        #expect(digest.count == 16)
        state.countdown = BoardState.CountdownState(seconds: 60, start: .infinity)
        let failure = #expect(throws: EncodingFailure.self) { try ClusterUpdate.digest(of: state) }
        #expect(failure?.type == "BoardState")
        #expect(failure?.reason.hasPrefix("countdown.start:") == true, "\(failure?.reason ?? "")")
    }
}
