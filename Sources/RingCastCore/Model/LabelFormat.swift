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
        }
    }
}

/// As the API and the store write it: `"percent"`, `"fraction"`, `"value"` or `{"text":"…"}`.
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
        default:
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected \"percent\", \"fraction\", \"value\" or {\"text\":…}, got \"\(name)\""))
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
