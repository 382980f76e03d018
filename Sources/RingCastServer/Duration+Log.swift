extension Duration {
    /// The duration as a log line shows it, in the unit that suits it: `63 µs`, `1.2 ms`, `45 ms`,
    /// `2.35 s` (Swift's own description is `6.3077e-05 seconds`). Three significant figures at most.
    var logDescription: String {
        let (seconds, attoseconds) = components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        let (value, unit): (Double, String) =
            switch abs(nanoseconds) {
            case ..<1e3: (nanoseconds, "ns")
            case ..<1e6: (nanoseconds / 1e3, "µs")
            case ..<1e9: (nanoseconds / 1e6, "ms")
            default: (nanoseconds / 1e9, "s")
            }
        return "\(Self.figures(value)) \(unit)"
    }

    /// `value` with at most three significant figures and no trailing zeros: 63, 1.2, 2.35, 120.
    private static func figures(_ value: Double) -> String {
        let decimals = abs(value) < 10 ? 2 : abs(value) < 100 ? 1 : 0
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
