/// Seed 003's rolling counter (Example13) generalised to N columns: for a displayed number, the digit each
/// column shows and the fraction of a row by which it has rolled toward the next digit (DESIGN §12).
///
/// With s = |value|·10^decimals, w = ⌊s⌋ and f = s − w, column k from the right (k = 0 the last decimal or the
/// units) shows digit ⌊w / 10^k⌋ mod 10 and rolls by f only while every column to its right shows 9
/// (w mod 10^k = 10^k − 1), as an odometer's wheels carry; otherwise it rests (fraction 0). A falling value
/// rolls the same wheels backward. The sign is shown apart from the columns.
public enum Odometer {
    /// One column, most significant first: the digit shown and how far (0 ≤ f < 1) it has rolled toward the
    /// next one.
    public struct Column: Sendable, Equatable {
        public var digit: Int
        public var fraction: Double

        public init(digit: Int, fraction: Double) {
            self.digit = digit
            self.fraction = fraction
        }
    }

    /// The columns for `value` in `format`: `format.digits` integer columns at least (more when the number
    /// needs them: as many as the larger of the two whole numbers it rolls between), then the decimals.
    public static func columns(for value: Double, format: CounterFormat) -> [Column] {
        let (whole, fraction) = split(value, decimals: format.decimals)
        // The number rolls between `whole` and `whole + 1`, so it is as wide as the wider of the two.
        let widest = fraction > 0 ? whole + 1 : whole
        let needed = digitCount(widest / power(format.decimals))
        let integerColumns = max(format.digits ?? 1, needed)
        let count = integerColumns + format.decimals
        var columns: [Column] = []
        columns.reserveCapacity(count)
        for k in (0..<count).reversed() {
            let place = power(k)
            let digit = Int((whole / place) % 10)
            // Every column to the right shows 9: this one is carried along.
            let carried = whole % place == place - 1
            columns.append(Column(digit: digit, fraction: carried ? fraction : 0))
        }
        return columns
    }

    /// `"-"` before a negative number, `"+"` before a positive one when the format asks, else empty. A value
    /// that rounds to 0 at the format's decimals has no sign.
    public static func sign(for value: Double, format: CounterFormat) -> String {
        let (whole, fraction) = split(value, decimals: format.decimals)
        guard whole > 0 || fraction > 0 else { return "" }
        if value < 0 { return "-" }
        return format.sign ? "+" : ""
    }

    /// The number as text, as the columns spell it (the digits they show, each column's roll not yet
    /// counted, so the text never runs ahead of the wheels): sign, grouped integer part, decimals and unit
    /// (`"+1,234.5 tests"`).
    public static func label(for value: Double, format: CounterFormat) -> String {
        let (whole, _) = split(value, decimals: format.decimals)
        let integer = String(whole / power(format.decimals))
        let minimum = format.digits ?? 1
        var digits = String(repeating: "0", count: max(0, minimum - integer.count)) + integer
        if let separator = format.grouping, !separator.isEmpty {
            var grouped = ""
            for (index, character) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { grouped += separator }
                grouped.append(character)
            }
            digits = grouped
        }
        if format.decimals > 0 {
            let decimals = String(whole % power(format.decimals))
            digits += "." + String(repeating: "0", count: format.decimals - decimals.count) + decimals
        }
        let sign = sign(for: value, format: format)
        let unit = format.unit.map { " " + $0 } ?? ""
        return sign + digits + unit
    }

    // MARK: Private

    /// ⌊s⌋ and s − ⌊s⌋ for s = |value|·10^decimals, with s snapped to a whole number when it is one but for
    /// the binary rounding of the decimal (0.29 × 100 is 28.999999999999996, which shows 29, not 28 rolling).
    static func split(_ value: Double, decimals: Int) -> (whole: Int64, fraction: Double) {
        let scaled = snapped(value.magnitude * Double(power(decimals)))
        guard scaled.isFinite, scaled < 9e15 else { return (0, 0) }
        let whole = scaled.rounded(.down)
        return (Int64(whole), scaled - whole)
    }

    private static func snapped(_ scaled: Double) -> Double {
        let nearest = scaled.rounded()
        return (scaled - nearest).magnitude <= 1e-9 * max(1, scaled) ? nearest : scaled
    }

    private static func power(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent where result < Int64.max / 10 { result *= 10 }
        return result
    }

    private static func digitCount(_ number: Int64) -> Int {
        var count = 1
        var rest = number / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}
