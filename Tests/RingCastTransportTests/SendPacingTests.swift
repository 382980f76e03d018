import Testing

@testable import RingCastTransport

/// `SendPacing` by table: a message is written only where the peer's window has room for it and a reserve, a check
/// leaves a budget that only writes consume, and a message larger than half the window needs only that half.
@Suite("Send pacing")
struct SendPacingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var window: Int
        var inFlight: Int
        var unsent: Int
        var size: Int
        var writes: Bool
        var budget: Int

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "an open window", window: 65_536, inFlight: 0, unsent: 0, size: 300, writes: true, budget: 57_344),
        Case(name: "frames in flight count", window: 65_536, inFlight: 40_000, unsent: 0, size: 300, writes: true, budget: 17_344),
        Case(name: "unsent bytes count", window: 65_536, inFlight: 0, unsent: 60_000, size: 300, writes: false, budget: -2_656),
        Case(name: "a closed window", window: 0, inFlight: 0, unsent: 0, size: 300, writes: false, budget: 0),
        Case(name: "room only for the reserve", window: 65_536, inFlight: 57_300, unsent: 0, size: 300, writes: false, budget: 44),
        Case(name: "room for the frame past the reserve", window: 65_536, inFlight: 57_000, unsent: 0, size: 300, writes: true, budget: 344),
        Case(name: "a small window keeps a quarter", window: 4_096, inFlight: 0, unsent: 0, size: 300, writes: true, budget: 3_072),
        Case(name: "a small window, nearly full", window: 4_096, inFlight: 3_000, unsent: 0, size: 300, writes: false, budget: 72),
        Case(name: "a layout larger than half the window", window: 65_536, inFlight: 0, unsent: 0, size: 200_000, writes: true, budget: 57_344),
        Case(name: "a large layout waits for half", window: 65_536, inFlight: 30_000, unsent: 0, size: 200_000, writes: false, budget: 27_344),
        Case(name: "acknowledged bytes beyond the window", window: 1_000, inFlight: 5_000, unsent: 0, size: 10, writes: false, budget: -250),
    ]

    @Test(arguments: cases)
    func aCheck_writesOnlyWhereTheWindowHasRoom(_ example: Case) {
        var pacing = SendPacing()
        let state = SendPacing.SocketState(window: example.window, inFlight: example.inFlight, unsent: example.unsent)
        let writes = pacing.check(state, for: example.size)
        #expect(writes == example.writes)
        #expect(pacing.budget == example.budget)
    }

    @Test func aBudget_coversWritesUntilItIsSpent_thenTheSocketIsAskedAgain() {
        var pacing = SendPacing()
        #expect(!pacing.covers(1), "nothing is known before the first check")
        let writes = pacing.check(SendPacing.SocketState(window: 16_384, inFlight: 0, unsent: 0), for: 1_000)
        #expect(writes)
        var written = 0
        while pacing.covers(1_000) {
            pacing.spend(1_000)
            written += 1
        }
        // 16 KiB less a 4 KiB reserve: twelve frames of 1,000 bytes, then ask again.
        #expect(written == 12)
        pacing.forget()
        #expect(!pacing.covers(1))
    }

    /// A peer with a small buffer whose window shrank to about half of what it once offered: a keyframe larger than
    /// its window goes out once half of the window it offers now is free (held forever before, and evicted).
    @Test func aMessageLargerThanTheWindow_needsHalfOfTheWindowOfferedNow() {
        var pacing = SendPacing()
        _ = pacing.check(SendPacing.SocketState(window: 4_096, inFlight: 4_096, unsent: 0), for: 600)
        let writes = pacing.check(SendPacing.SocketState(window: 2_128, inFlight: 0, unsent: 0), for: 4_435)
        #expect(writes)
        #expect(pacing.budget == 2_128 - 1_024)
    }

    /// A peer whose window shrank below the reserve of the largest it offered is written to again once the pacing
    /// settles on the window it offers now (the peer having taken everything); not while bytes are still in flight.
    @Test func settling_letsTheReserveFollowAWindowThatShrank() {
        var pacing = SendPacing()
        _ = pacing.check(SendPacing.SocketState(window: 16_384, inFlight: 0, unsent: 0), for: 600)
        let shrunk = SendPacing.SocketState(window: 2_000, inFlight: 0, unsent: 0)
        let before = pacing.check(shrunk, for: 600)
        #expect(!before, "a reserve of 4 KiB leaves no room in a 2,000-byte window")
        pacing.settle(on: SendPacing.SocketState(window: 2_000, inFlight: 10, unsent: 0))
        #expect(pacing.largestWindow == 16_384, "bytes still in flight: the peer has not taken everything")
        pacing.settle(on: SendPacing.SocketState(window: 6_000, inFlight: 0, unsent: 0))
        #expect(pacing.largestWindow == 16_384, "a window above the reserve: a paused peer keeps its reserve")
        // Just above the reserve, too little for the next message: only a long hold settles on it.
        let justAbove = SendPacing.SocketState(window: 4_500, inFlight: 0, unsent: 0)
        let stuck = pacing.check(justAbove, for: 600)
        #expect(!stuck)
        pacing.settle(on: justAbove)
        #expect(pacing.largestWindow == 16_384)
        pacing.settle(on: justAbove, whateverTheWindow: true)
        #expect(pacing.largestWindow == 4_500)
        pacing = SendPacing()
        _ = pacing.check(SendPacing.SocketState(window: 16_384, inFlight: 0, unsent: 0), for: 600)
        pacing.settle(on: shrunk)
        let after = pacing.check(shrunk, for: 600)
        #expect(after)
        #expect(pacing.budget == 1_500)
    }

    @Test func theReserve_followsTheLargestWindowSeen() {
        var pacing = SendPacing()
        let first = pacing.check(SendPacing.SocketState(window: 1 << 20, inFlight: 0, unsent: 0), for: 100)
        #expect(first)
        #expect(pacing.budget == (1 << 20) - SendPacing.largestReserve)
        // The window shrinks as the peer stops reading; the reserve stays what the largest window allowed.
        let second = pacing.check(SendPacing.SocketState(window: 8_000, inFlight: 0, unsent: 0), for: 100)
        #expect(!second)
        #expect(pacing.largestWindow == 1 << 20)
    }
}
