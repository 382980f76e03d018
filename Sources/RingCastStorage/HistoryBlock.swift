/// Up to `size` of one ring's points, oldest first, packed into one row of `history_blocks` (format 4): a query of
/// 10,000 points then steps about 40 rows rather than 10,000, which was most of its time (SQLite's per-row work).
///
/// A point is its milliseconds and revision (8 bytes each, little-endian), its value (the 8 bytes of the double) and
/// its status: a 2-byte length, 0xFFFF for none, then that many bytes of UTF-8.
enum HistoryBlock {
    /// The points a block holds; a ring's newest points wait in `history`, one row each, until this many are there.
    static let size = 256

    private static let none = UInt16.max

    static func encode(_ rows: ArraySlice<HistoryRow>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.count * 26 + rows.reduce(0) { $0 + ($1.status?.utf8.count ?? 0) })
        func append<Value: FixedWidthInteger>(_ value: Value) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for row in rows {
            append(row.milliseconds)
            append(row.revision)
            append(row.value.bitPattern)
            if let status = row.status {
                let utf8 = Array(status.utf8.prefix(Int(none) - 1))
                append(UInt16(utf8.count))
                bytes.append(contentsOf: utf8)
            } else {
                append(none)
            }
        }
        return bytes
    }

    /// Appends the points of `bytes` from millisecond `oldest` on to `rows`; nil when the bytes are not a block
    /// (cut short or overlong).
    static func decode(_ bytes: UnsafeRawBufferPointer, from oldest: Int64, into rows: inout [HistoryRow]) -> Bool {
        var offset = 0
        func load<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
            guard bytes.count - offset >= MemoryLayout<Value>.size else { return nil }
            defer { offset += MemoryLayout<Value>.size }
            return Value(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Value.self))
        }
        while offset < bytes.count {
            guard let milliseconds = load(Int64.self), let revision = load(Int64.self), let value = load(UInt64.self),
                let length = load(UInt16.self)
            else { return false }
            var status: String?
            if length != none {
                guard bytes.count - offset >= Int(length) else { return false }
                status = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)]), as: UTF8.self)
                offset += Int(length)
            }
            if milliseconds >= oldest {
                rows.append(
                    HistoryRow(milliseconds: milliseconds, revision: revision, value: Double(bitPattern: value), status: status))
            }
        }
        return true
    }
}

extension HistoryRow {
    /// The point a `SELECT time, revision, value, status …` statement is on.
    init(columnsOf statement: SQLiteStatement) {
        self.init(
            milliseconds: statement.int64(at: 0), revision: statement.int64(at: 1), value: statement.double(at: 2),
            status: statement.optionalText(at: 3))
    }

    /// Oldest first: by time, then by revision.
    static func precedes(_ left: HistoryRow, _ right: HistoryRow) -> Bool {
        (left.milliseconds, left.revision) < (right.milliseconds, right.revision)
    }
}
