/// A colour as gamma-encoded sRGB components in 0...1, the space the seeds' `colorMixer` mixes in.
///
/// On the wire a colour is always `"#rrggbbaa"` in lowercase; requests may also say `"#rrggbb"`.
public struct RGBAColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `"#rrggbb"` or `"#rrggbbaa"` (hex digits in either case); nil for anything else.
    public init?(hex: String) {
        let bytes = Array(hex.utf8)
        guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 9 else { return nil }
        var components: [Double] = []
        var index = 1
        while index < bytes.count {
            guard let high = Self.hexDigitValue(bytes[index]), let low = Self.hexDigitValue(bytes[index + 1]) else {
                return nil
            }
            components.append(Double(high * 16 + low) / 255)
            index += 2
        }
        self.init(
            red: components[0],
            green: components[1],
            blue: components[2],
            alpha: components.count == 4 ? components[3] : 1
        )
    }

    /// `"#rrggbbaa"` in lowercase; each component is clamped to 0...1 and rounded to the nearest 1/255.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        for component in [red, green, blue, alpha] {
            let byte = Self.byte(component)
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The seeds' `colorMixer` (seed 003): c1 + (c2 − c1)·f per component, alpha included, f not clamped.
    public func mixed(with other: RGBAColor, fraction: Double) -> RGBAColor {
        RGBAColor(
            red: red + (other.red - red) * fraction,
            green: green + (other.green - green) * fraction,
            blue: blue + (other.blue - blue) * fraction,
            alpha: alpha + (other.alpha - alpha) * fraction
        )
    }

    /// A component as the byte a `#rrggbbaa` string carries; NaN counts as 0.
    private static func byte(_ component: Double) -> UInt8 {
        guard component > 0 else { return 0 }
        guard component < 1 else { return 255 }
        return UInt8((component * 255).rounded())
    }

    private static func hexDigitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}

extension RGBAColor: Codable {
    /// Decodes `"#rrggbb"` or `"#rrggbbaa"`; any other string is `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let color = RGBAColor(hex: string) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a colour as \"#rrggbb\" or \"#rrggbbaa\", got \"\(string)\""
            )
        }
        self = color
    }

    /// Encodes as `"#rrggbbaa"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
