import Foundation
import RingCastCore

/// A grid frame's identity: its tick and whether it is the keyframe or the delta of that tick.
/// Every viewer of a board gets the same bytes for the same key and format, on whichever node.
struct FrameKey: Hashable, Comparable, CustomStringConvertible {
    var seq: UInt64
    var keyframe: Bool

    static func < (a: FrameKey, b: FrameKey) -> Bool {
        (a.seq, a.keyframe ? 1 : 0) < (b.seq, b.keyframe ? 1 : 0)
    }

    var description: String { "\(seq)\(keyframe ? " keyframe" : "")" }
}

/// What a viewer received, in order: a live `TestViewer` over a socket, or a `MemoryViewer` of the in-process
/// harness (`TestApplication`). The frames of both are read the same way (the extension below).
protocol ReceivedMessages {
    /// Text messages, decoded.
    var messages: [ViewerMessage] { get }
    /// Binary messages (`format=binary`), in order.
    var binaryMessages: [[UInt8]] { get }
}

/// A viewer's frames, by the format it asked for, split into its greeting (the keyframe composed
/// for it alone when it joined) and the broadcast frames after it.
extension ReceivedMessages {
    /// The JSON frames, in order.
    var frames: [TestFrame] { messages.compactMap(\.frame) }

    /// The JSON events, in order.
    var events: [TestEvent] { messages.compactMap(\.event) }

    /// The first JSON frame: the joining viewer's own keyframe.
    var jsonGreeting: TestFrame? { frames.first }

    /// The JSON frames after the greeting, by key, as sent (the first of a key, should one repeat).
    var jsonBroadcast: [FrameKey: [UInt8]] {
        var result: [FrameKey: [UInt8]] = [:]
        for case .frame(let frame, let bytes) in messages.drop(while: { $0.frame == nil }).dropFirst()
        where frame.type == "frame" {
            let key = FrameKey(seq: frame.seq, keyframe: frame.keyframe ?? false)
            if result[key] == nil { result[key] = bytes }
        }
        return result
    }

    /// The binary frames, decoded with their bytes (layouts left out).
    var binaryFrames: [(frame: BinaryFrame.DecodedFrame, bytes: [UInt8])] {
        // A version 4 frame (a board with widgets) is read with the newest layout before it.
        var layout: BinaryFrame.DecodedLayout?
        return binaryMessages.compactMap { bytes in
            switch try? BinaryFrame.decode(bytes, layout: layout) {
            case .layout(let decoded)?:
                layout = decoded
                return nil
            case .frame(let frame)?:
                return (frame, bytes)
            case .event?, nil:
                return nil
            }
        }
    }

    /// The binary frames after the greeting, by key (`seq` is the low 32 bits of the tick).
    var binaryBroadcast: [FrameKey: [UInt8]] {
        var result: [FrameKey: [UInt8]] = [:]
        for (frame, bytes) in binaryFrames.dropFirst() {
            let key = FrameKey(seq: UInt64(frame.seq), keyframe: frame.kind == .keyframe)
            if result[key] == nil { result[key] = bytes }
        }
        return result
    }

    /// The newest JSON tick this viewer got, if any.
    var lastSeq: UInt64? { frames.last { $0.type == "frame" }?.seq }

    /// The newest binary tick (low 32 bits) this viewer got, if any.
    var lastBinarySeq: UInt32? { binaryFrames.last?.frame.seq }

    /// The rings a viewer shows after `frames`, in order: a keyframe replaces every ring, a delta
    /// the rings it carries.
    static func picture(of frames: [TestFrame]) -> [String: TestFrame.Ring] {
        var picture: [String: TestFrame.Ring] = [:]
        for frame in frames where frame.type == "frame" {
            if frame.keyframe == true { picture = [:] }
            for ring in frame.rings { picture[ring.id] = ring }
        }
        return picture
    }

    /// The rings as this viewer shows them once it has the JSON frame of tick `seq`; nil when it
    /// got no frame of that tick.
    func jsonPicture(at seq: UInt64) -> [String: TestFrame.Ring]? {
        let upTo = frames.filter { $0.type == "frame" && $0.seq <= seq }
        return upTo.last?.seq == seq ? Self.picture(of: upTo) : nil
    }

    /// The same for binary frames: ring values by ring index once it has the frame of tick `seq`.
    func binaryPicture(at seq: UInt32) -> [Int: BinaryFrame.RingValues]? {
        var state: [Int: BinaryFrame.RingValues] = [:]
        var found = false
        for (frame, _) in binaryFrames where frame.seq <= seq {
            BinaryFrame.apply(frame, to: &state)
            found = frame.seq == seq
        }
        return found ? state : nil
    }
}

extension TestViewer {
    /// Waits until the viewer got its layout and greeting in its format.
    func waitForGreeting(binary: Bool = false, timeout: Double = 10) async throws {
        if binary {
            let deadline = Date().addingTimeInterval(timeout)
            while binaryFrames.isEmpty {
                if let failure { throw ViewerError.failed("binary viewer failed before its greeting: \(failure)") }
                guard Date() < deadline else { throw ViewerError.timeout("no binary greeting within \(timeout) s") }
                try await Task.sleep(for: .milliseconds(5))
            }
        } else {
            try await waitUntil(timeout: timeout, "layout and greeting") { $0.contains { $0.frame != nil } }
        }
    }

    /// Waits until the viewer got a frame of tick `seq` or a later one, in its format.
    func waitForSeq(atLeast seq: UInt64, binary: Bool = false, timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let last = binary ? lastBinarySeq.map(UInt64.init) : lastSeq
            let target = binary ? seq & 0xffff_ffff : seq
            if let last, last >= target { return }
            if let failure { throw ViewerError.failed("viewer failed while waiting for seq \(seq): \(failure)") }
            guard Date() < deadline else {
                throw ViewerError.timeout("no frame of seq ≥ \(seq) within \(timeout) s; last \(String(describing: last))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Compares the frames viewers on different nodes got: for every key two of them share, the bytes
/// must be equal. Returns the keys every viewer got and a line per pair and key that differ.
func compareBroadcasts(_ viewers: [(node: String, frames: [FrameKey: [UInt8]])]) -> (common: Set<FrameKey>, mismatches: [String])
{
    var mismatches: [String] = []
    for (i, a) in viewers.enumerated() {
        for b in viewers[(i + 1)...] {
            for (key, bytes) in a.frames.sorted(by: { $0.key < $1.key }) {
                guard let other = b.frames[key], other != bytes else { continue }
                mismatches.append(
                    "seq \(key): \(a.node) sent \(bytes.count) bytes \(preview(bytes)), \(b.node) sent \(other.count) bytes \(preview(other))"
                )
            }
        }
    }
    var common = viewers.first.map { Set($0.frames.keys) } ?? []
    for viewer in viewers.dropFirst() { common.formIntersection(viewer.frames.keys) }
    return (common, mismatches)
}

private func preview(_ bytes: [UInt8]) -> String {
    if bytes.first == UInt8(ascii: "{") { return String(decoding: bytes.prefix(300), as: UTF8.self) }
    return bytes.prefix(48).map { String(format: "%02x", $0) }.joined()
}
