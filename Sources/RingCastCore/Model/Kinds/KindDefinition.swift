/// What one kind of ring or widget is (DESIGN §3, §12): the keys its definition takes, how it reads them, the
/// rules they obey and the keys a push to it may set. Each kind's struct is the only place its rules are written:
/// the API body, the configuration file, the stored spec and the CLI's request all go through
/// `RingSpec`'s one codec (`RingSpec+Codable`), which hands each kind its own keys.
protocol KindDefinition: Sendable, Hashable {
    /// The keys of a definition this kind takes besides the ones every kind takes (`id`, `title`, `kind`,
    /// `staleAfter`).
    static var keys: [String] { get }

    /// The keys a push to a ring of this kind may set, besides `staleAfter`, which every kind takes.
    static var pushKeys: [String] { get }

    /// Reads the kind's keys from `object` (whose keys of other kinds were refused already), checking each
    /// against `Limits` as it reads; `reading` says where the object comes from.
    init(reading object: KeyedDecodingContainer<AnyCodingKey>, id: String, from boundary: RingSpec.Boundary) throws

    /// The first of the kind's values outside `Limits`, as an `APIError` naming the key under `field`: the same
    /// rules `init(reading:)` reads with, for definitions made otherwise (templates, older stored specs, code).
    func validate(field: String?, from boundary: RingSpec.Boundary) throws(APIError)

    /// Writes the kind's keys, those given only (what was left out reads back as left out).
    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws
}

extension KindDefinition {
    static func key(_ name: String) -> AnyCodingKey { AnyCodingKey(name) }
}

extension KeyedEncodingContainer<AnyCodingKey> {
    /// Colours as a definition writes them: `#rrggbb` when opaque, as people write them, else `#rrggbbaa`.
    mutating func encode(colors: [RGBAColor]?, forKey key: String) throws {
        guard let colors else { return }
        try encode(colors.map(\.definitionHex), forKey: AnyCodingKey(key))
    }

    mutating func encode(color: RGBAColor?, forKey key: String) throws {
        guard let color else { return }
        try encode(color.definitionHex, forKey: AnyCodingKey(key))
    }
}

extension RGBAColor {
    /// `#rrggbb` when opaque, else `#rrggbbaa`.
    var definitionHex: String { alpha == 1 ? String(hex.prefix(7)) : hex }
}
