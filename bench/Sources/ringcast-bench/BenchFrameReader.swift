import RingCastCore
import Synchronization

/// What `ringcast-bench` needs from one WebSocket message, read without decoding it whole:
/// thousands of viewers at 60 frames a second leave no room for a full decode of each.
///
/// One reader per wire format, shared by every viewer of one board. `sequence(in:)` runs for every message of
/// every viewer, so it must be a few dozen byte comparisons; `probeProgress(in:)` runs only for the viewers that
/// measure latency. Messages are lent, not copied: the bytes are valid only during the call.
protocol BenchFrameReader: Sendable {
    /// `probeRing`: the id of the ring the latency probes set.
    init(probeRing: String)

    /// What kind of message this is and, for a frame, its `seq`.
    func sequence(in message: UnsafeRawBufferPointer, isBinary: Bool) -> BenchMessageKind

    /// The probe ring's displayed progress in a frame; nil when it has none (`p: null`) or the
    /// frame cannot be read.
    func probeProgress(in message: UnsafeRawBufferPointer) -> Double?

    /// A pushed value as this format carries it, so a probe is recognised in a frame.
    func wireValue(of pushed: Double) -> Double

    /// Whether a frame is a keyframe (every ring) rather than a delta: the same `seq` is sent
    /// as either, and only frames of the same `seq` and kind must be the same bytes.
    func isKeyframe(_ message: UnsafeRawBufferPointer) -> Bool
}

extension BenchFrameReader {
    func wireValue(of pushed: Double) -> Double { pushed }
}

/// `format=binary` (docs/PROTOCOL.md, "Binary encoding"), read by RingCastCore's `BinaryFrame`, every version the
/// server sends: each message's header in place (`BinaryFrame.Header`), and the probe ring's `p` from a whole
/// `BinaryFrame.decode` against the board's layout, which a frame of version 4 or later needs.
final class BinaryFrameReader: BenchFrameReader {
    /// The board's newest layout as a viewer received it, decoded, and the probe ring's index in it. Every viewer
    /// of one reader watches one board, so one is enough: it is decoded again only when its bytes change.
    private struct Layout {
        var bytes: [UInt8]
        var decoded: BinaryFrame.DecodedLayout
        var probeIndex: Int?
    }

    private let probeRing: String
    private let layout = Mutex<Layout?>(nil)

    init(probeRing: String) {
        self.probeRing = probeRing
    }

    func sequence(in message: UnsafeRawBufferPointer, isBinary: Bool) -> BenchMessageKind {
        guard isBinary, let header = BinaryFrame.Header(message) else { return .unreadable }
        switch header.kind {
        case .keyframe, .delta: return header.frameSeq.map { .frame(seq: UInt64($0)) } ?? .unreadable
        case .layout:
            // Only a reader with a probe decodes layouts: the others (load runs, a cluster's frame comparison)
            // read headers alone.
            if !probeRing.isEmpty { keep(layout: message) }
            return .other
        case .event: return .other
        }
    }

    func probeProgress(in message: UnsafeRawBufferPointer) -> Double? {
        guard let layout = layout.withLock({ $0 }), let probeIndex = layout.probeIndex,
            case .frame(let frame) = try? BinaryFrame.decode(Array(message), layout: layout.decoded),
            let ring = frame.rings.first(where: { $0.index == probeIndex }), ring.fields.contains(.progress)
        else { return nil }
        return Double(ring.values.p)
    }

    func wireValue(of pushed: Double) -> Double { Double(Float(pushed)) }

    func isKeyframe(_ message: UnsafeRawBufferPointer) -> Bool { BinaryFrame.Header(message)?.kind == .keyframe }

    /// Decodes a layout unless it is the one kept already (the same bytes reach every viewer).
    private func keep(layout message: UnsafeRawBufferPointer) {
        let unchanged = layout.withLock { kept in kept.map { $0.bytes.elementsEqual(message) } ?? false }
        guard !unchanged, case .layout(let decoded) = try? BinaryFrame.decode(Array(message)) else { return }
        let kept = Layout(bytes: Array(message), decoded: decoded, probeIndex: decoded.ringIDs.firstIndex(of: probeRing))
        layout.withLock { $0 = kept }
    }
}

enum BenchMessageKind: Equatable {
    case frame(seq: UInt64)
    /// The layout, or another message that is not a frame.
    case other
    /// Looks like neither: the format changed under the reader.
    case unreadable
}

/// `format=json`. The server writes keys sorted, so a frame always ends
/// `…,"seq":812,"t":1763700000123.4,"type":"frame"}` and `seq` is found by scanning back from
/// the end; inside a ring object `"id"` comes before `"p"` and no key between them ends in `p`.
struct JSONFrameReader: BenchFrameReader {
    private static let frameEnd = Array(#""type":"frame"}"#.utf8)
    private static let layoutType = Array(#""type":"layout""#.utf8)
    private static let seqKey = Array(#""seq":"#.utf8)
    private static let progressKey = Array(#""p":"#.utf8)
    private static let keyframeTrue = Array(#""keyframe":true"#.utf8)
    /// `seq` lies within this many bytes of the end (its digits, `t` and `type` follow it).
    private static let tailWindow = 96

    private let ringKey: [UInt8]

    init(probeRing: String) {
        ringKey = Array(#""id":"\#(probeRing)""#.utf8)
    }

    func sequence(in message: UnsafeRawBufferPointer, isBinary: Bool) -> BenchMessageKind {
        guard !isBinary else { return .unreadable }
        guard Self.hasSuffix(message, Self.frameEnd) else {
            return Self.find(Self.layoutType, in: message, from: 0) != nil ? .other : .unreadable
        }
        var index = message.count - Self.frameEnd.count - Self.seqKey.count
        let lowest = max(0, message.count - Self.tailWindow)
        while index >= lowest {
            if Self.matches(Self.seqKey, in: message, at: index) {
                return Self.unsignedInteger(in: message, from: index + Self.seqKey.count).map { .frame(seq: $0) } ?? .unreadable
            }
            index -= 1
        }
        return .unreadable
    }

    func probeProgress(in message: UnsafeRawBufferPointer) -> Double? {
        guard let ring = Self.find(ringKey, in: message, from: 0),
            let key = Self.find(Self.progressKey, in: message, from: ring + ringKey.count)
        else { return nil }
        let start = key + Self.progressKey.count
        var end = start
        while end < message.count, message[end] != UInt8(ascii: ","), message[end] != UInt8(ascii: "}") {
            end += 1
        }
        return Double(String(decoding: message[start..<end], as: UTF8.self))
    }

    func isKeyframe(_ message: UnsafeRawBufferPointer) -> Bool {
        Self.find(Self.keyframeTrue, in: message, from: 0) != nil
    }

    private static func hasSuffix(_ message: UnsafeRawBufferPointer, _ suffix: [UInt8]) -> Bool {
        message.count >= suffix.count && matches(suffix, in: message, at: message.count - suffix.count)
    }

    private static func matches(_ pattern: [UInt8], in message: UnsafeRawBufferPointer, at index: Int) -> Bool {
        guard index >= 0, index + pattern.count <= message.count else { return false }
        for offset in 0..<pattern.count where message[index + offset] != pattern[offset] {
            return false
        }
        return true
    }

    private static func find(_ pattern: [UInt8], in message: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let first = pattern.first, message.count >= pattern.count else { return nil }
        var index = start
        let last = message.count - pattern.count
        while index <= last {
            if message[index] == first, matches(pattern, in: message, at: index) { return index }
            index += 1
        }
        return nil
    }

    private static func unsignedInteger(in message: UnsafeRawBufferPointer, from start: Int) -> UInt64? {
        var value: UInt64 = 0
        var index = start
        while index < message.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(message[index]) {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(message[index] - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
            index += 1
        }
        return index > start ? value : nil
    }
}
