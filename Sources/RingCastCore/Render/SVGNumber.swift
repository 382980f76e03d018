/// Numbers and text as an SVG document writes them: the same value always gives the same characters, so the
/// same frame gives the same bytes (and the same ETag) in every process.
enum SVGNumber {
    /// `value` rounded to thousandths of a logical unit, without trailing zeros: "12", "-0.5", "3.142". NaN
    /// and values beyond ±10⁷ (no board is that large; `Double`'s description would switch to exponents)
    /// are written as 0 and ±10⁷.
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let clamped = min(max(value, -1e7), 1e7)
        let thousandths = Int64((clamped * 1000).rounded())
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = thousandths.magnitude
        let whole = magnitude / 1000
        var fraction = magnitude % 1000
        guard fraction > 0 else { return sign + String(whole) }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
        return sign + String(whole) + "." + padded
    }

    /// `text` safe inside an element or an attribute in double quotes (XML 1.0 §2.4); characters XML 1.0
    /// does not allow (C0 controls other than tab, newline and carriage return) become U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
