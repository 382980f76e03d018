/// How a new background colour spreads over the old one (seed 002's `SplashAnimation`).
public enum SplashStyle: Sendable, Hashable {
    case leftToRight
    case rightToLeft
    case topToBottom
    case bottomToTop
    /// A circle from the board's centre.
    case circle
    /// A triangle from a corner whose front moves at this angle, in degrees clockwise from 3 o'clock (canvas
    /// orientation, y down): 0 is left to right, 90 top to bottom.
    case angle(Double)

    /// The named styles, in the API's spelling.
    static let named: [(name: String, style: SplashStyle)] = [
        ("leftToRight", .leftToRight), ("rightToLeft", .rightToLeft), ("topToBottom", .topToBottom),
        ("bottomToTop", .bottomToTop), ("circle", .circle),
    ]

    /// The style as frames name it: `leftToRight`, `rightToLeft`, `topToBottom`, `bottomToTop`, `circle` or
    /// `angle`.
    public var name: String {
        switch self {
        case .leftToRight: "leftToRight"
        case .rightToLeft: "rightToLeft"
        case .topToBottom: "topToBottom"
        case .bottomToTop: "bottomToTop"
        case .circle: "circle"
        case .angle: "angle"
        }
    }
}

extension SplashStyle: Decodable {
    /// `"leftToRight"`, `"rightToLeft"`, `"topToBottom"`, `"bottomToTop"`, `"circle"` or `{"angle":DEG}` with
    /// any finite number of degrees. An unknown name is 422 `invalid_value`; another JSON type, or an object
    /// without a number `angle`, 400 `malformed`; another key 400 `unknown_field`.
    public init(from decoder: any Decoder) throws {
        let field = RequestField.path(decoder.codingPath)
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            guard let entry = Self.named.first(where: { $0.name == name }) else {
                let names = Self.named.map { "\"\($0.name)\"" }.joined(separator: ", ")
                let hint = name == "none" ? "; to change the colour at once, send \"animation\":\"none\"" : ""
                throw APIError.invalidValue(
                    "unknown transition \(RequestField.quoted(name)); expected one of \(names) or {\"angle\":45}\(hint)",
                    field: field
                )
            }
            self = entry.style
            return
        }
        let object = try RequestField.object(
            decoder,
            allowing: ["angle"],
            expected: "a transition: \"leftToRight\", \"rightToLeft\", \"topToBottom\", \"bottomToTop\", \"circle\" "
                + "or {\"angle\":45}"
        )
        let key = AnyCodingKey("angle")
        let angleField = RequestField.path(field, key.stringValue)
        guard object.contains(key) else {
            throw APIError.malformed("missing key \"angle\": the direction in degrees, e.g. {\"angle\":45}", field: angleField)
        }
        self = .angle(try RequestField.number(field: angleField, named: "angle") { try object.decode(Double.self, forKey: key) })
    }
}
