/// Version 6's spark section (issue 33; the byte diagram is on `BinaryFrame`): after the stale section,
/// `count u8 | count × (index u8 | n u8 | n × (x u16 | y u16))`, each coordinate the JSON's thousandths
/// (`RingFrame.spark` rounds to them), flagged by bit 2 of the header's flags.
extension BinaryFrame {
    /// The header flag of a frame with a spark section.
    static let sparkFlag: UInt8 = 0x04

    /// What a frame's spark section lists, in ring order: in a keyframe (`previous` nil) every ring's line; in a
    /// delta every ring whose line changed since `previous`, `[]` for one that no longer has one. Empty: the frame
    /// has no section (and keeps the bytes of version 3, 4 or 5).
    static func sparkEntries(of frame: Frame, previous: Frame?) -> [(index: Int, points: [UInt16])] {
        frame.rings.prefix(255).enumerated().compactMap { index, ring in
            let before = previous.flatMap { index < $0.rings.count ? $0.rings[index].spark : nil }
            // The line is in thousandths already (`RingFrame.spark`): unchanged values, unchanged bytes.
            guard ring.spark != before else { return nil }
            return (index, ring.spark.map(sparkPoints) ?? [])
        }
    }

    /// A line's coordinates in thousandths, x and y alternating, at most 255 points (the newest kept).
    static func sparkPoints(_ line: [Double]) -> [UInt16] {
        let coordinates = line.map { UInt16(clamping: Int(($0 * 1_000).rounded()).clamped(0, 1_000)) }
        return Array(coordinates.suffix(min(coordinates.count / 2, 255) * 2))
    }

    static func write(_ sparks: [(index: Int, points: [UInt16])], to w: inout BinaryWriter) {
        w.u8(UInt8(sparks.count))
        for entry in sparks {
            w.u8(UInt8(entry.index))
            w.u8(UInt8(entry.points.count / 2))
            for coordinate in entry.points { w.u16(coordinate) }
        }
    }

    /// The section's lines by ring index, as the JSON carries them (`[]`: the ring no longer has one).
    static func readSparks(from r: inout BinaryReader) throws(DecodingError) -> [Int: [Double]] {
        var sparks: [Int: [Double]] = [:]
        for _ in 0..<(try r.u8()) {
            let index = Int(try r.u8())
            var line: [Double] = []
            for _ in 0..<(2 * Int(try r.u8())) {
                line.append(Double(try r.u16()) / 1_000)
            }
            sparks[index] = line
        }
        return sparks
    }
}
