/// Version 5's stale section (DESIGN §13; the byte diagram is on `BinaryFrame`): after a frame's ring entries,
/// `count u8 | count × (index u8 | text str8)`, flagged by bit 1 of the header's flags.
extension BinaryFrame {
    /// The header flag of a frame with a stale section.
    static let staleFlag: UInt8 = 0x02

    /// What a frame's stale section lists, in ring order: in a keyframe (`previous` nil) every stale ring's
    /// text; in a delta every ring whose text changed since `previous`, `""` for one no longer stale. Empty: the
    /// frame has no section (and keeps the bytes of version 3 or 4).
    static func staleEntries(of frame: Frame, previous: Frame?) -> [(index: Int, text: String)] {
        frame.rings.prefix(255).enumerated().compactMap { index, ring in
            let before = previous.flatMap { index < $0.rings.count ? $0.rings[index].stale : nil }
            guard ring.stale != before else { return nil }
            return (index, ring.stale ?? "")
        }
    }

    static func write(_ stale: [(index: Int, text: String)], to w: inout BinaryWriter) {
        w.u8(UInt8(stale.count))
        for entry in stale {
            w.u8(UInt8(entry.index))
            w.str8(entry.text)
        }
    }

    static func readStale(from r: inout BinaryReader) throws(DecodingError) -> [Int: String] {
        var stale: [Int: String] = [:]
        for _ in 0..<(try r.u8()) {
            let index = Int(try r.u8())
            stale[index] = try r.str8()
        }
        return stale
    }
}
