import RingCastCore
import RingCastTransport

/// One board as the service thread holds it: the model, its encoded layouts, the latest frame and
/// who watches it in which encoding. Touched only on the service thread.
final class BoardChannel {
    var board: Board
    /// What is on disk for this board: the ETag is computed from it.
    var stored: StoredBoard
    /// The layout never changes while the server runs, so it is encoded once per format.
    let layouts: [WireFormat: OutgoingMessage]
    /// Sequence number of the latest frame.
    var seq: UInt64 = 0
    /// The latest composed frame: what a joining viewer is shown, and what the next delta is
    /// computed against.
    var latestFrame: Frame?
    /// Something changed (a push, or time while animating) since `latestFrame` was composed.
    var needsFrame = true
    /// Viewers per encoding; frames are encoded only for formats someone watches.
    var viewers: [WireFormat: Int] = [:]
    private var keyframes: [WireFormat: (seq: UInt64, message: OutgoingMessage)] = [:]

    init(board: Board, stored: StoredBoard) {
        self.board = board
        self.stored = stored
        let layout = FrameComposer.layout(of: board.spec)
        self.layouts = Dictionary(
            uniqueKeysWithValues: WireFormat.allCases.map { ($0, OutgoingMessage(format: $0, $0.encode(layout))) })
    }

    var name: String { board.spec.name }
    var totalViewers: Int { viewers.values.reduce(0, +) }

    /// The transport channel of one encoding; `resting` viewers (`motion=reduced`) get only the
    /// keyframes of the frames that show the board at rest.
    func channel(_ format: WireFormat, resting: Bool) -> String {
        "\(name)/\(format.rawValue)" + (resting ? "/resting" : "")
    }

    /// The latest frame as a self-contained message, encoded at most once per seq and format.
    func keyframe(_ format: WireFormat) -> OutgoingMessage? {
        guard let frame = latestFrame else { return nil }
        if let cached = keyframes[format], cached.seq == seq { return cached.message }
        let message = OutgoingMessage(format: format, format.encode(frame, previous: nil))
        keyframes[format] = (seq, message)
        return message
    }
}

@available(*, unavailable)
extension BoardChannel: Sendable {}

extension OutgoingMessage {
    convenience init(format: WireFormat, _ bytes: [UInt8]) {
        switch format {
        case .json: self.init(text: bytes)
        case .binary: self.init(binary: bytes)
        }
    }
}
