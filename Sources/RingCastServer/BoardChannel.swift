import RingCastCore
import RingCastTransport

/// One board as the service thread holds it: the model, the cached layout, the latest frame and
/// how many viewers watch it. Touched only on the service thread.
final class BoardChannel {
    var board: Board
    /// The transport channel the board's JSON frames are published on.
    let channel: String
    /// The channel of viewers that asked for end states only (`motion=reduced`): it gets the
    /// same frame bytes, but only the frames that show the board at rest.
    let restingChannel: String
    /// The layout never changes while the server runs, so it is encoded once.
    let layout: OutgoingMessage
    /// Sequence number of the latest frame.
    var seq: UInt64 = 0
    /// The latest frame, sent to a viewer that joins while nothing moves.
    var latestFrame: OutgoingMessage?
    /// Something changed (a push, or time while animating) since `latestFrame` was composed.
    var needsFrame = true
    var viewers = 0

    init(board: Board) {
        self.board = board
        self.channel = board.spec.name + "/json"
        self.restingChannel = board.spec.name + "/json/resting"
        self.layout = OutgoingMessage(text: FrameEncoder.json(FrameComposer.layout(of: board.spec)))
    }

    var name: String { board.spec.name }
}

@available(*, unavailable)
extension BoardChannel: Sendable {}
