import RingCastCore
import RingCastTransport

/// What the broadcaster keeps of one board between ticks: its encoded layouts, its newest
/// keyframes, and where its frames stand on the grid. The board itself (its animator) belongs to
/// the request side; this type only reads it.
/// Touched only on the service thread.
final class BoardStream {
    let board: LiveBoard
    /// The layout of `layoutSpec`, encoded once per format (or why it cannot be); a structure change through the
    /// API (at its tick) brings a new one, a reload that changes the spec a new stream.
    private var layouts: [WireFormat: Result<OutgoingMessage, EncodingFailure>]
    private var layoutSpec: BoardSpec
    /// Formats and motions whose viewers have not been published the current layout yet.
    var unpublishedLayout: Set<StreamKey.Motion> = []
    /// The newest tick published to viewers.
    var lastPublished: Int64?
    /// The next tick this board needs a frame for (nil: it rests, nothing pending).
    var nextTick: Int64?
    /// The first tick of a run of frames that all show the same picture up to now (the board
    /// rests): a delta against the last of them applies to a viewer holding any of them.
    var unchangedSince: Int64?
    /// The newest tick whose events (countdown ends) viewers were sent, or the tick the first of the
    /// current viewers joined at: events after it are still to send.
    var eventsThrough: Int64?
    /// The resting frame (`Animator.restingFrame(at:)`) reduced-motion viewers were last sent; a tick whose
    /// resting frame shows the same is not sent to them. Nil: nobody watches with reduced motion.
    var lastResting: Frame?
    /// The next frame must reach every viewer as a keyframe (the state was reverted).
    var forceKeyframe = false
    private var keyframes: [WireFormat: (tick: Int64, message: OutgoingMessage)] = [:]

    init(board: LiveBoard) {
        self.board = board
        layoutSpec = board.spec
        layouts = Self.encodeLayouts(of: board.spec)
    }

    private static func encodeLayouts(of spec: BoardSpec) -> [WireFormat: Result<OutgoingMessage, EncodingFailure>] {
        let layout = FrameComposer.layout(of: spec)
        return Dictionary(
            uniqueKeysWithValues: WireFormat.allCases.map { format in
                (format, Result { () throws(EncodingFailure) in OutgoingMessage(format: format, try format.encode(layout)) })
            })
    }

    /// The layout message in `format`; throws when the layout cannot be encoded (nothing of the board can be shown
    /// in that format then).
    func layout(_ format: WireFormat) throws(EncodingFailure) -> OutgoingMessage {
        try layouts[format]!.get()
    }

    /// Encodes the layout again if the board's structure changed (call after composing a frame,
    /// so it is the structure of that frame); its viewers then need it before the next frame.
    func refreshLayout() {
        guard board.spec != layoutSpec else { return }
        layoutSpec = board.spec
        layouts = Self.encodeLayouts(of: board.spec)
        unpublishedLayout = Set(StreamKey.Motion.allCases)
    }

    var name: String { board.name }

    /// The stream of one encoding and motion of this board.
    func key(_ format: WireFormat, _ motion: StreamKey.Motion) -> StreamKey {
        StreamKey(board: name, format: format, motion: motion)
    }

    /// `frame` (of `tick`) as a self-contained message, encoded at most once per tick and format.
    func keyframe(_ format: WireFormat, of frame: Frame, at tick: Int64) throws(EncodingFailure) -> OutgoingMessage {
        if let cached = keyframes[format], cached.tick == tick { return cached.message }
        let message = OutgoingMessage(format: format, try format.encode(frame, previous: nil))
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
