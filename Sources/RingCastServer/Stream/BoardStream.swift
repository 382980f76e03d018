import RingCastCore
import RingCastTransport

/// What the broadcaster keeps of one board between ticks: its encoded layouts, its newest
/// keyframes, and where its frames stand on the grid. The board itself (its animator) belongs to
/// the request side; this type only reads it.
/// Touched only on the service thread.
final class BoardStream {
    let board: LiveBoard
    /// Fixed for the stream's life (a reload that changes the spec makes a new stream), so it is
    /// encoded once per format.
    let layouts: [WireFormat: OutgoingMessage]
    /// The newest tick published to viewers.
    var lastPublished: Int64?
    /// The next tick this board needs a frame for (nil: it rests, nothing pending).
    var nextTick: Int64?
    /// The first tick of a run of frames that all show the same picture up to now (the board
    /// rests): a delta against the last of them applies to a viewer holding any of them.
    var unchangedSince: Int64?
    /// The next frame must reach every viewer as a keyframe (the state was reverted).
    var forceKeyframe = false
    private var keyframes: [WireFormat: (tick: Int64, message: OutgoingMessage)] = [:]

    init(board: LiveBoard) {
        self.board = board
        let layout = FrameComposer.layout(of: board.spec)
        self.layouts = Dictionary(
            uniqueKeysWithValues: WireFormat.allCases.map { ($0, OutgoingMessage(format: $0, $0.encode(layout))) })
    }

    var name: String { board.name }

    /// The stream of one encoding and motion of this board.
    func key(_ format: WireFormat, _ motion: StreamKey.Motion) -> StreamKey {
        StreamKey(board: name, format: format, motion: motion)
    }

    /// `frame` (of `tick`) as a self-contained message, encoded at most once per tick and format.
    func keyframe(_ format: WireFormat, of frame: Frame, at tick: Int64) -> OutgoingMessage {
        if let cached = keyframes[format], cached.tick == tick { return cached.message }
        let message = OutgoingMessage(format: format, format.encode(frame, previous: nil))
        keyframes[format] = (tick, message)
        return message
    }

    /// Forgets the encoded keyframes (after a revert the same tick shows another picture).
    func dropKeyframes() {
        keyframes = [:]
    }
}

@available(*, unavailable)
extension BoardStream: Sendable {}

extension OutgoingMessage {
    convenience init(format: WireFormat, _ bytes: [UInt8]) {
        switch format {
        case .json: self.init(text: bytes)
        case .binary: self.init(binary: bytes)
        }
    }
}
