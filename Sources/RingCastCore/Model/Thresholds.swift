/// Colours a ring picks from its displayed value (DESIGN §13): `[[0,"#e74c3c"],[0.5,"#f1c40f"],[0.9,"#2ecc71"]]`.
/// Each threshold starts a band that runs up to the next one's value; a displayed value takes the colours of the
/// last threshold whose value is at most it, so a value exactly at 0.5 takes the 0.5 colour, and a value below
/// the first threshold (or no data) the first's. Values are progress (1 is one full turn), whatever `max` the ring
/// counts to. How the colours move when the value crosses into another band is `ThresholdFollower`'s business.
public struct Thresholds: Sendable, Hashable {
    /// One threshold: where its band starts and the gradient's start and end colours in it (one colour given is
    /// both).
    public struct Entry: Sendable, Hashable {
        public var value: Double
        public var colors: [RGBAColor]

        public init(value: Double, colors: [RGBAColor]) {
            self.value = value
            self.colors = colors
        }

        /// A threshold of one colour: the gradient's start and end alike.
        public init(value: Double, color: RGBAColor) {
            self.init(value: value, colors: [color, color])
        }
    }

    /// Ascending by value, `Limits.thresholds` of them.
    public var entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The position of the band `value` lies in: the last threshold at most `value`, else the first.
    public func band(of value: Double?) -> Int {
        guard let value else { return 0 }
        return entries.lastIndex { $0.value <= value } ?? 0
    }

    /// The gradient's start and end for a displayed `value` (nil: no data, which is the first band).
    public func colors(for value: Double?) -> [RGBAColor] {
        entries.isEmpty ? [] : entries[band(of: value)].colors
    }

    /// The first way these thresholds break `Limits` (what the API refuses), as the key under `thresholds`
    /// (`1.0`: the second threshold's value) and why; nil when they are valid. The one definition the request
    /// decoder, the configuration and the store check against.
    public var problem: (key: String?, message: String)? {
        guard Limits.thresholds.contains(entries.count) else {
            return (
                nil,
                "thresholds holds \(Limits.thresholds.lowerBound) to \(Limits.thresholds.upperBound) [value, colour] pairs, got \(entries.count)"
            )
        }
        for (index, entry) in entries.enumerated() {
            guard entry.value.isFinite, Limits.progress.contains(entry.value) else {
                return (
                    "\(index).0",
                    "a threshold's value must be a progress from 0 to 10 (1 is one full turn), got \(RequestField.describe(entry.value))"
                )
            }
            if index > 0, entry.value <= entries[index - 1].value {
                return (
                    "\(index).0",
                    "threshold values must rise strictly: \(RequestField.describe(entry.value)) follows \(RequestField.describe(entries[index - 1].value))"
                )
            }
            guard entry.colors.count == 2 else {
                return ("\(index).1", "a threshold has one colour or two (gradient start and end), got \(entry.colors.count)")
            }
            if let component = entry.colors.flatMap(\.components).first(where: { !($0.isFinite && (0...1).contains($0)) }) {
                return ("\(index).1", "a colour's components lie from 0 to 1, got \(component)")
            }
        }
        return nil
    }
}

/// As the API and the store write them: `[[value, "#rrggbbaa"], [value, ["#start", "#end"]], …]`, one colour where
/// the start and end are the same.
extension Thresholds: Codable {
    public init(from decoder: any Decoder) throws {
        var list = try decoder.unkeyedContainer()
        var entries: [Entry] = []
        while !list.isAtEnd, entries.count <= Limits.thresholds.upperBound {
            var pair = try list.nestedUnkeyedContainer()
            let value = try pair.decode(Double.self)
            entries.append(Entry(value: value, colors: try pair.decode(StoredColors.self).colors))
            guard pair.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: pair, debugDescription: "a threshold is [value, colour]")
            }
        }
        self.init(entries)
    }

    public func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for entry in entries {
            var pair = list.nestedUnkeyedContainer()
            try pair.encode(entry.value)
            if entry.colors.count == 2, entry.colors[0] == entry.colors[1] {
                try pair.encode(entry.colors[0])
            } else {
                try pair.encode(entry.colors)
            }
        }
    }
}

/// A threshold's colours as stored: one colour, or the gradient's start and end.
private struct StoredColors: Decodable {
    var colors: [RGBAColor]

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let color = try? value.decode(RGBAColor.self) {
            colors = [color, color]
        } else {
            colors = try value.decode([RGBAColor].self)
        }
    }
}
