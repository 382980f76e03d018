/// Seed 003's percentage indicator label: `"\(Int(pct * 100)) %"`, truncated toward zero with a space before
/// the sign (0.999 shows `99 %`); `—` without data.
public enum IndicatorLabel {
    public static func string(for progress: Double?) -> String {
        guard let progress, progress.isFinite else { return PercentLabel.string(for: nil) }
        // Progress is within 0…10 (a spring may overshoot a little below 0): the product fits an Int.
        return "\(Int((progress * 100).rounded(.towardZero))) %"
    }
}
