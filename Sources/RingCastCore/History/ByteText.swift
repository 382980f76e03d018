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

    /// `value`'s decimal digits, written in place from the last, two at a time (a time in milliseconds has 13).
    mutating func integer(_ value: Int64) {
        room(for: Self.longestInteger)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        count += Self.digits(value.magnitude, at: base + count)
    }

    /// `magnitude`'s decimal digits at `start`, and how many there are.
    private static func digits(_ magnitude: UInt64, at start: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var power: UInt64 = 10
        while digits < 20, magnitude >= power {
            digits += 1
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        var rest = magnitude
        var index = digits
        while index >= 2 {
            let pair = Int(rest % 100) * 2
            rest /= 100
            start[index - 1] = pairs[pair + 1]
            start[index - 2] = pairs[pair]
            index -= 2
        }
        if index == 1 { start[0] = UInt8(ascii: "0") + UInt8(rest) }
        return digits
    }

    /// "00" "01" … "99": the two digits of each number below 100, side by side.
    private static let pairs: [UInt8] = (0..<100).flatMap {
        [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)]
    }

    /// A whole number without `.0`, else Swift's shortest round-trip form (`HistoryAnswer.number`). A value that is
    /// exactly some decimal of at most six places between 0.001 and 10⁹ (every progress a person or a script pushes,
    /// 10,000 of which took a millisecond through `description`) is written from its digits: that decimal, trailing
    /// zeros dropped, is then the shortest that reads back as the value (any other of as few digits also has at most
    /// six places, and two of those lie 10⁻⁶ apart, far more than the value's spacing below 10⁹), so it is the text
    /// `description` makes; `ByteTextTests` checks the two agree over a seeded table.
    mutating func number(_ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 { return integer(Int64(value)) }
        let magnitude = abs(value)
        if magnitude >= 1e-3, magnitude < 1e9 {
            let millionths = (magnitude * 1e6).rounded()
            if millionths / 1e6 == magnitude {
                room(for: Self.longestNumber)
                if value < 0 {
                    base[count] = UInt8(ascii: "-")
                    count += 1
                }
                let scaled = UInt64(millionths)
                count += Self.digits(scaled / 1_000_000, at: base + count)
                var fraction = scaled % 1_000_000
                var places = 6
                while fraction % 10 == 0 {
                    fraction /= 10
                    places -= 1
                }
                base[count] = UInt8(ascii: ".")
                var index = count + places
                for _ in 0..<places {
                    base[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
                    fraction /= 10
                    index -= 1
                }
                count += 1 + places
                return
            }
        }
        var description = value.description
        description.withUTF8 { utf8 in
            room(for: utf8.count)
            (base + count).update(from: utf8.baseAddress!, count: utf8.count)
            count += utf8.count
        }
    }
}
