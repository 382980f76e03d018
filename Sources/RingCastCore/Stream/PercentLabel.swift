/// A ring's label: Foundation's `NumberFormatter` `.percent` output, computed without Foundation so it is the
/// same on every platform and cheap at 60 frames a second (DESIGN §5).
public enum PercentLabel {
    /// `"73%"` for 0.73. The rules of `.percent` with `percentSymbol = "%"`: p × 100 in binary floating point,
    /// rounded half-to-even to a whole number (0.505 → 50.5 → `"50%"`; 0.575 → 57.49999999999999 → `"57%"`),
    /// `,` between groups of three digits (10 → `"1,000%"`), `-` before negatives, which keep their sign even
    /// when they round to zero (−0.001 → `"-0%"`). `"—"` for nil (no data), and for values that are not
    /// finite or have more than 15 digits, which the API never lets through.
    public static func string(for p: Double?) -> String {
        guard let p else { return "—" }
        let percent = (p * 100).rounded(.toNearestOrEven)
        guard percent.isFinite, percent.magnitude < 1e15 else { return "—" }
        return (p < 0 ? "-" : "") + grouped(Int64(percent.magnitude)) + "%"
    }

    /// `number`'s digits with `,` between groups of three (`12,000`).
    static func grouped(_ number: Int64) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
