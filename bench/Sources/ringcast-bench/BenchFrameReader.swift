/// What `ringcast-bench` needs from one WebSocket message, read without decoding it whole:
/// thousands of viewers at 60 frames a second leave no room for a full decode of each.
///
/// One reader per wire format. `sequence(in:)` runs for every message of every viewer, so it
/// must be a few dozen byte comparisons; `probeProgress(in:)` runs only for the viewers that
/// measure latency. Messages are lent, not copied: the bytes are valid only during the call.
protocol BenchFrameReader: Sendable {
    /// `ringIDs`: the board's rings in layout order (from `GET /api/v1/boards/B`);
    /// `probeRing`: the ring the latency probes set.
    init(ringIDs: [String], probeRing: String)

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

/// `format=binary` version 3 (docs/PROTOCOL.md, "Binary encoding"): `seq` is the u32 at byte 4, and the probe
/// ring's `p` is the f32 of its progress field, reached by skipping the background section (each splash
/// layer with one shape per arrangement) and the entries before it.
struct BinaryFrameReader: BenchFrameReader {
    private let probeIndex: Int?

    init(ringIDs: [String], probeRing: String) {
        probeIndex = ringIDs.firstIndex(of: probeRing)
    }

    func sequence(in message: UnsafeRawBufferPointer, isBinary: Bool) -> BenchMessageKind {
        guard isBinary, message.count >= 8, message[0] == 0x52, message[1] == 3 else { return .unreadable }
        switch message[2] {
        case 1: return .other
        case 2, 3:
            let seq = (0..<4).reduce(UInt64(0)) { $0 | UInt64(message[4 + $1]) << UInt64(8 * $1) }
            return .frame(seq: seq)
        default: return .unreadable
        }
    }

    func probeProgress(in message: UnsafeRawBufferPointer) -> Double? {
        guard let probeIndex, message.count >= 17 else { return nil }
        var at = 16
        func byte() -> Int? {
            guard at < message.count else { return nil }
            defer { at += 1 }
            return Int(message[at])
        }
        if message[3] & 1 != 0 {
            at += 8  // colour and text colour
            guard let layers = byte() else { return nil }
            for _ in 0..<layers {
                guard let style = byte() else { return nil }
                at += (style == 5 ? 4 : 0) + 4 + 4
                guard let shapes = byte() else { return nil }
                for _ in 0..<shapes {
                    switch byte() {
                    case 0:
                        guard let points = byte() else { return nil }
                        at += 8 * points
                    case 1: at += 12
                    default: return nil
                    }
                }
            }
        }
        guard let count = byte() else { return nil }
        for _ in 0..<count {
            guard let index = byte(), let fields = byte() else { return nil }
            if fields & 0x01 != 0 { at += 1 }
            if index == probeIndex {
                guard fields & 0x02 != 0, at + 4 <= message.count else { return nil }
                let bits = (0..<4).reduce(UInt32(0)) { $0 | UInt32(message[at + $1]) << UInt32(8 * $1) }
                return Double(Float(bitPattern: bits))
            }
            if fields & 0x02 != 0 { at += 8 }
            if fields & 0x04 != 0 { at += 8 }
            if fields & 0x08 != 0 { at += 4 }
            if fields & 0x10 != 0 { at += 4 }
            if fields & 0x20 != 0 { at += 4 }
            if fields & 0x40 != 0 {
                guard let length = byte() else { return nil }
                at += length
            }
            if fields & 0x80 != 0 { at += 4 }
        }
        return nil
    }

    func wireValue(of pushed: Double) -> Double { Double(Float(pushed)) }

    func isKeyframe(_ message: UnsafeRawBufferPointer) -> Bool { message.count > 2 && message[2] == 2 }
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

    init(ringIDs: [String], probeRing: String) {
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
