/// A ring's label in its format (DESIGN §11), counting along with the displayed progress every frame.
public enum ValueLabel {
    /// `progress` (nil: no data, `—`) shown as `format` on a ring whose progress 1 is `maximum`: `73%`
    /// (`PercentLabel`), `12/20`, `12`, or the fixed text. Values are progress × maximum rounded half-to-even
    /// to an integer, with `,` between groups of three digits like the percentage.
    public static func string(for progress: Double?, format: LabelFormat, maximum: Double) -> String {
        switch format {
        case .percent:
            return PercentLabel.string(for: progress)
        case .fraction:
            guard let progress else { return PercentLabel.string(for: nil) }
            return integer(progress * maximum) + "/" + number(maximum)
        case .value:
            guard let progress else { return PercentLabel.string(for: nil) }
            return integer(progress * maximum)
        case .text(let text):
            return progress == nil ? PercentLabel.string(for: nil) : text
        case .rate, .eta:
            // Read from the ring's history, which the board alone does not hold: the animator sets the text
            // (`RecentHistory.mark`); `—` until it does.
            return PercentLabel.string(for: nil)
        }
    }

    /// `value` rounded half-to-even, grouped; `—` if it is not finite or too large to print exactly.
    static func integer(_ value: Double) -> String {
        let rounded = value.rounded(.toNearestOrEven)
        guard rounded.isFinite, rounded.magnitude < 1e15 else { return PercentLabel.string(for: nil) }
        return (rounded < 0 ? "-" : "") + PercentLabel.grouped(Int64(rounded.magnitude))
    }

    /// A maximum as people write it: `20`, `2.5` (at most two decimals), grouped.
    static func number(_ value: Double) -> String {
        let hundredths = (value * 100).rounded(.toNearestOrEven)
        guard hundredths.isFinite, hundredths.magnitude < 1e15 else { return PercentLabel.string(for: nil) }
        let whole = Int64(hundredths.magnitude) / 100
        let fraction = Int64(hundredths.magnitude) % 100
        var text = (value < 0 ? "-" : "") + PercentLabel.grouped(whole)
        if fraction != 0 {
            let digits = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction)
            text += "." + digits
        }
        return text
    }
}
