import RingCastCore

/// How frames are encoded for a viewer (`/ws?format=`).
enum WireFormat: String, CaseIterable, Sendable {
    case json
    case binary

    func encode(_ layout: Layout) -> [UInt8] {
        switch self {
        case .json: FrameEncoder.json(layout)
        case .binary: BinaryFrame.encode(layout)
        }
    }

    func encode(_ event: BoardEvent) -> [UInt8] {
        switch self {
        case .json: FrameEncoder.json(event)
        case .binary: BinaryFrame.encode(event)
        }
    }

    /// A keyframe when `previous` is nil, else a delta since `previous`.
    func encode(_ frame: Frame, previous: Frame?) -> [UInt8] {
        switch self {
        case .json: FrameEncoder.json(frame, previous: previous)
        case .binary: BinaryFrame.encode(frame, previous: previous)
        }
    }
}
