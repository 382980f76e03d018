import RingCastCore
import RingCastTransport

/// One board as the service thread holds it: its animator, what is durably stored of it, its
/// encoded layouts and newest keyframes, and who watches it in which encoding.
/// Touched only on the service thread.
final class BoardChannel {
    var animator: Animator
    /// The state of the newest write the store has committed: what a failed write reverts to.
    var durable: BoardState
    /// The ETag of the board with every accepted write.
    var etag: String
    /// The layout never changes while the server runs, so it is encoded once per format.
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
    /// The newest answer to a GET of this board, with the tick and ETag it shows.
    var cachedResponse: (tick: Int64, etag: String, response: HTTPResponse)?
    /// Viewers per encoding; frames are encoded only for formats someone watches.
    var viewers: [WireFormat: Int] = [:]
    private var keyframes: [WireFormat: (tick: Int64, message: OutgoingMessage)] = [:]

    init(animator: Animator, etag: String) {
        self.animator = animator
        self.etag = etag
        self.durable = animator.state
        let layout = FrameComposer.layout(of: animator.spec)
        self.layouts = Dictionary(
            uniqueKeysWithValues: WireFormat.allCases.map { ($0, OutgoingMessage(format: $0, $0.encode(layout))) })
    }

    var name: String { animator.spec.name }
    var spec: BoardSpec { animator.spec }
    var totalViewers: Int { viewers.values.reduce(0, +) }

    /// The transport channel of one encoding; `resting` viewers (`motion=reduced`) get only the
    /// keyframes of the frames that show the board at rest.
    func channel(_ format: WireFormat, resting: Bool) -> String {
        "\(name)/\(format.rawValue)" + (resting ? "/resting" : "")
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
extension BoardChannel: Sendable {}

extension OutgoingMessage {
    convenience init(format: WireFormat, _ bytes: [UInt8]) {
        switch format {
        case .json: self.init(text: bytes)
        case .binary: self.init(binary: bytes)
        }
    }
}
