/// Appends little-endian values to a byte buffer, for `BinaryFrame`.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func i16(_ value: Int16) { u16(UInt16(bitPattern: value)) }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func f32(_ value: Float) { u32(value.bitPattern) }

    mutating func f64(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    mutating func bytes(_ values: [UInt8]) { bytes.append(contentsOf: values) }

    /// Length-prefixed UTF-8: `text` as `Limits.fitting` cuts it, at most 255 bytes of whole characters, so
    /// the page never decodes half of one. The composer has already cut every title, label and text the same
    /// way (so JSON carries the same string); this keeps any other text safe too.
    mutating func str8(_ text: String) {
        str8(Array(Limits.fitting(text).utf8))
    }

    mutating func str8(_ utf8: [UInt8]) {
        let cut = utf8.prefix(255)
        u8(UInt8(cut.count))
        bytes.append(contentsOf: cut)
    }
}
