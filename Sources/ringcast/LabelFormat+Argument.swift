import RingCastCore

extension LabelFormat {
    /// What `--label` takes, as its help and its error list it.
    static let choices = "percent, fraction, value, rate, eta or text:TEXT"

    /// `--label`'s argument: `percent`, `fraction`, `value`, `rate`, `eta`, or `text:TEXT` for fixed text of at
    /// most 32 characters (everything after the first colon, so TEXT may hold colons itself).
    init(argument: String) throws(CommandFailure) {
        switch argument {
        case "percent": self = .percent
        case "fraction": self = .fraction
        case "value": self = .value
        case "rate": self = .rate
        case "eta": self = .eta
        case let text where text.hasPrefix("text:"):
            let fixed = String(text.dropFirst("text:".count))
            guard fixed.count <= LabelFormat.maximumTextLength else {
                throw CommandFailure(
                    "--label text: at most \(LabelFormat.maximumTextLength) characters, got \(fixed.count) in \"\(fixed)\"")
            }
            self = .text(fixed)
        default:
            throw CommandFailure("unknown --label \"\(argument)\"; use \(Self.choices)")
        }
    }
}
