extension FrameEncoder {
    /// A JSON frame message: a keyframe (`"keyframe":true`, every ring) when `previous` is nil,
    /// else a delta with only the rings whose values changed since `previous`. The background is
    /// always included: it is small, and it carries the splash layers that change while they play.
    /// A `previous` with other rings (the board was reshaped) gives a keyframe, as in binary. A ring's `spark` is sent
    /// in a keyframe and when it changed: a delta's entry without it keeps the one the viewer holds, and `[]` says the
    /// ring no longer has a line.
    public static func json(_ frame: Frame, previous: Frame?) throws(EncodingFailure) -> [UInt8] {
        let previous = previous.flatMap { frame.hasTheRings(of: $0) ? $0 : nil }
        var message = frame
        if let previous {
            message.rings = frame.rings.enumerated().compactMap { index, ring in
                guard index < previous.rings.count else { return ring }
                let before = previous.rings[index]
                guard before != ring else { return nil }
                var entry = ring
                if entry.spark == before.spark {
                    entry.spark = nil
                } else if entry.spark == nil {
                    entry.spark = []
                }
                return entry
            }
        }
        return try JSONBytes.encode(FrameMessage(frame: message, keyframe: previous == nil))
    }

    /// `frame` plus the `keyframe` flag, with the frame's own keys.
    private struct FrameMessage: Encodable {
        var frame: Frame
        var keyframe: Bool

        private enum CodingKeys: String, CodingKey { case keyframe }

        func encode(to encoder: any Encoder) throws {
            try frame.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(keyframe, forKey: .keyframe)
        }
    }
}

extension Frame {
    /// The same rings in the same order as `other`: only then can a delta from `other` be applied by
    /// a viewer that holds the layout both frames were composed for.
    func hasTheRings(of other: Frame) -> Bool {
        rings.count == other.rings.count && zip(rings, other.rings).allSatisfy { $0.id == $1.id }
    }
}
