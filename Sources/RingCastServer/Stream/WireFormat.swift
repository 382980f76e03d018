import RingCastCore

/// How frames are encoded for a viewer (`/ws?format=`).
enum WireFormat: String, CaseIterable, Sendable {
    case json
    case binary

    // JSON throws for a non-finite number (`EncodingFailure`): the message is then not sent, and logged
    // (`Broadcaster.notSent`). Binary carries any float.

    func encode(_ layout: Layout) throws(EncodingFailure) -> [UInt8] {
        switch self {
        case .json: try FrameEncoder.json(layout)
        case .binary: BinaryFrame.encode(layout)
        }
    }

    func encode(_ event: BoardEvent) throws(EncodingFailure) -> [UInt8] {
        switch self {
        case .json: try FrameEncoder.json(event)
        case .binary: BinaryFrame.encode(event)
        }
    }

    /// A keyframe when `previous` is nil, else a delta since `previous`.
    func encode(_ frame: Frame, previous: Frame?) throws(EncodingFailure) -> [UInt8] {
        switch self {
        case .json: try FrameEncoder.json(frame, previous: previous)
        case .binary: BinaryFrame.encode(frame, previous: previous)
        }
    }
}
