/// The body of `PATCH /api/v1/boards/{board}`: `{"rings":{ID: RingPatch, …},"animation":A}`.
///
/// `animation` applies to every entry that does not bring its own; without either, rings animate with
/// `Animation.default`. Decoding refuses unknown keys, an empty `rings` and every invalid entry.
public struct BoardPatch: Sendable, Equatable, Decodable {
    public var rings: [String: RingPatch]
    public var animation: Animation?

    public init(rings: [String: RingPatch], animation: Animation? = nil) {
        self.rings = rings
        self.animation = animation
    }

    public init(from decoder: any Decoder) throws {
        let object = try RequestField.object(
            decoder,
            allowing: ["rings", "animation"],
            expected: "an object such as {\"rings\":{\"move\":0.8}}"
        )
        let ringsKey = AnyCodingKey("rings")
        guard object.contains(ringsKey) else {
            throw APIError.malformed(
                "missing key \"rings\": say which rings to change, e.g. {\"rings\":{\"move\":0.8}}", field: "rings")
        }
        let ringsObject: KeyedDecodingContainer<AnyCodingKey>
        do {
            ringsObject = try object.nestedContainer(keyedBy: AnyCodingKey.self, forKey: ringsKey)
        } catch {
            throw APIError.malformed("rings must be an object of ring ids, e.g. {\"move\":0.8}", field: "rings")
        }
        var rings: [String: RingPatch] = [:]
        // Sorted so that the same body always reports the same error.
        for key in ringsObject.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            rings[key.stringValue] = try ringsObject.decode(RingPatch.self, forKey: key)
        }
        guard !rings.isEmpty else {
            throw APIError.invalidValue("rings is empty: name at least one ring to change", field: "rings")
        }
        self.rings = rings
        animation = try RequestField.animation(in: object)
    }
}
