/// When a viewer's next message may be written: only where its peer's advertised receive window has
/// room for it, so that no frame ever waits in our kernel behind a closed window (docs/HTTP-EDGES.md,
/// "Viewer sockets").
///
/// A send buffer bounds bytes, not age: a viewer that stops reading fills its own receive buffer,
/// then its window closes, and whatever the server wrote after that waits in the server's kernel
/// (86 KB, ≈ 480 JSON frames, was measured) and then behind the zero-window probe timer (seconds)
/// once the viewer reads again. Pacing by the window keeps a reserve of it free instead, so the
/// window never closes on a frame of ours: a viewer that pauses is simply not written to (latest
/// wins, as for any slow viewer), and a viewer that reads again gets the newest frame as soon as its
/// kernel advertises the room, the frames already in its own receive buffer being the only old ones
/// it sees.
///
/// Asking the kernel (TCP_INFO) costs a system call, so a check leaves a budget: the room it found
/// less the reserve, which only our own writes consume (a window's right edge never moves back).
/// While the budget covers the next message, nothing is asked; a viewer that reads normally is asked
/// about once per window's worth of frames.
///
/// A pure value: `EventLoop+Viewers` feeds it what TCP_INFO read and acts on its answers.
struct SendPacing: Equatable {
    /// What TCP_INFO says about a socket's sending side.
    struct SocketState: Equatable {
        /// The peer's advertised receive window (`tcpi_snd_wnd`).
        var window: Int
        /// Bytes sent and not yet acknowledged.
        var inFlight: Int
        /// Bytes written and not yet sent (`tcpi_notsent_bytes`).
        var unsent: Int
    }

    /// The reserve is at most this, or a quarter of the largest window seen for a peer that
    /// advertises little.
    static let largestReserve = 8 * 1024

    /// Bytes that may be written before the socket is asked again.
    private(set) var budget = 0
    /// The largest window the peer has advertised.
    private(set) var largestWindow = 0

    /// Whether a message of `size` bytes may be written without asking the socket.
    func covers(_ size: Int) -> Bool {
        budget >= size
    }

    /// Takes what the socket said; true when a message of `size` bytes may be written now. A
    /// message larger than half the window the peer advertises now (a keyframe to a peer with a
    /// small buffer, a big board's layout) needs only that half to be free: it cannot wait for more,
    /// and the rest of it waits in the kernel as it must.
    mutating func check(_ state: SocketState, for size: Int) -> Bool {
        largestWindow = max(largestWindow, state.window)
        let reserve = min(Self.largestReserve, largestWindow / 4)
        let room = max(0, state.window - state.inFlight - state.unsent)
        budget = room - reserve
        return budget >= min(size, state.window / 2) && room > 0
    }

    /// The viewer has been held a while, the peer has taken everything written to it, and the window
    /// it offers is no larger than the reserve: the peer's kernel shrank its window below what it once
    /// offered (it does, under its own memory accounting of a small receive buffer), so the reserve
    /// follows the window it offers now. Without this such a peer would never be written to again. A
    /// peer that merely paused keeps a window above the reserve (writes stop before it gets there), so
    /// this never lets more into a paused viewer's buffer.
    ///
    /// `whateverTheWindow`: after a long hold (most of the stall timeout) the reserve follows the window offered now
    /// even above the reserve. A peer whose window shrank to just above it, too little for its next message, is
    /// otherwise never written to again and is evicted; a peer that paused that long may then get one message its
    /// window cannot hold whole (part of it waits in the kernel), which is the price of not evicting the other.
    mutating func settle(on state: SocketState, whateverTheWindow: Bool = false) {
        let reserve = min(Self.largestReserve, largestWindow / 4)
        guard state.inFlight == 0, state.unsent == 0, whateverTheWindow || state.window <= reserve else { return }
        largestWindow = state.window
    }

    /// A message of `size` bytes was written.
    mutating func spend(_ size: Int) {
        budget -= size
    }

    /// The viewer was held: the next message asks the socket again.
    mutating func forget() {
        budget = 0
    }
}
