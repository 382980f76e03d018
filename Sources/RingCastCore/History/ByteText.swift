/// Text written byte by byte into one buffer allocated at its largest size: a ring's history of 10,000 points as JSON
/// (360 KB) took 3 ms appended to an array piece by piece, about 1 ms this way (issue 33's target is 5 ms for the
/// whole answer). Every write checks the room left, so a wrong estimate of the size stops the program rather than
/// writing past the buffer.
struct ByteText {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    /// The most bytes `number(_:)` writes: `-1.7976931348623157e+308`.
    static let longestNumber = 24
    /// The most bytes `integer(_:)` writes: `-9223372036854775808`.
    static let longestInteger = 20

    /// The bytes `write` makes, in a buffer of `capacity` bytes.
    static func make(capacity: Int, _ write: (inout ByteText) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var text = ByteText(base: buffer.baseAddress!, capacity: capacity)
            write(&text)
            initialized = text.count
        }
    }

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    private func room(for bytes: Int) {
        precondition(count + bytes <= capacity, "ByteText: \(count + bytes) bytes do not fit in \(capacity)")
    }

    mutating func byte(_ byte: UInt8) {
        room(for: 1)
        base[count] = byte
        count += 1
    }

    mutating func bytes(_ bytes: [UInt8]) {
        room(for: bytes.count)
        bytes.withUnsafeBufferPointer { source in
            guard let start = source.baseAddress else { return }
            (base + count).update(from: start, count: source.count)
        }
        count += bytes.count
    }

    mutating func text(_ text: String) {
        bytes(Array(text.utf8))
    }

    /// `value`'s decimal digits, written in place from the last.
    mutating func integer(_ value: Int64) {
        room(for: Self.longestInteger)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var index = count + digits - 1
        repeat {
            base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        count += digits
    }

    /// A whole number without `.0`, else Swift's shortest round-trip form (`HistoryAnswer.number`).
    mutating func number(_ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 { return integer(Int64(value)) }
        var description = value.description
        description.withUTF8 { utf8 in
            room(for: utf8.count)
            (base + count).update(from: utf8.baseAddress!, count: utf8.count)
            count += utf8.count
        }
    }
}
