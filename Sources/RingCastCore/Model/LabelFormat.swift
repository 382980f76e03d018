/// What a ring's label shows (DESIGN §11). It counts along with the animation like the percentage:
/// every frame formats the displayed value.
public enum LabelFormat: Sendable, Hashable {
    /// `73%`: the displayed progress as `NumberFormatter`'s `.percent` shows it (`PercentLabel`).
    case percent
    /// `12/20`: the displayed value (progress × the ring's `maximum`), rounded half-to-even to an
    /// integer, over the maximum.
    case fraction
    /// `12`: the displayed value alone, rounded likewise.
    case value
    /// Fixed text, at most `LabelFormat.maximumTextLength` characters.
    case text(String)
    /// `12 %/min`: how fast the ring moves, from its recent history (`RecentHistory`, issue 33); in the ring's
    /// own units (`3.5/min`) when it has a `max` other than 100.
    case rate
    /// `~4 min left`, then `done`: when the ring will reach 100 % at that rate (`RecentHistory`, issue 33).
    case eta

    /// What a countdown ring's label shows, as its GET names it: the seconds left, whatever its format.
    public static let countdownName = "seconds"

    /// The longest fixed text a label may show.
    public static let maximumTextLength = 32

    /// The format as the API names it: `"percent"`, `"fraction"`, `"value"`, or `{"text":T}`'s text.
    public var name: String {
        switch self {
        case .percent: "percent"
        case .fraction: "fraction"
        case .value: "value"
        case .text: "text"
        case .rate: "rate"
        case .eta: "eta"
        }
    }

    /// Whether the label is read from the ring's recent history (`rate`, `eta`).
    public var readsHistory: Bool {
        switch self {
        case .rate, .eta: true
        case .percent, .fraction, .value, .text: false
        }
    }
}

/// As the API and the store write it: `"percent"`, `"fraction"`, `"value"`, `"rate"`, `"eta"` or `{"text":"…"}`.
extension LabelFormat: Codable {
    private enum CodingKeys: String, CodingKey { case text }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: CodingKeys.self) {
            self = .text(try object.decode(String.self, forKey: .text))
            return
        }
        let name = try decoder.singleValueContainer().decode(String.self)
        switch name {
        case "percent": self = .percent
        case "fraction": self = .fraction
        case "value": self = .value
        case "rate": self = .rate
        case "eta": self = .eta
        default:
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "expected \"percent\", \"fraction\", \"value\", \"rate\", \"eta\" or {\"text\":…}, got \"\(name)\""))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .text(let text) = self {
            var object = encoder.container(keyedBy: CodingKeys.self)
            try object.encode(text, forKey: .text)
        } else {
            var value = encoder.singleValueContainer()
            try value.encode(name)
        }
    }
}
