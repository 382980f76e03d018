/// The body of `PATCH /api/v1/boards/{board}`:
/// `{"rings":{ID: RingPatch, …},"animation":A,"title":"CI","background":"#102030","staleAfter":600}`, each key
/// optional but at least one of `rings`, `title`, `background` and `staleAfter`.
///
/// `animation` applies to every entry that does not bring its own; without either, rings animate with
/// `Animation.default`. `title`, `background` and `staleAfter` change the board without touching any ring's
/// values: `background` is a colour grown in as `PUT …/background` grows it, or that route's whole body;
/// `staleAfter` null removes the board's. Decoding refuses unknown keys, an empty `rings` and every invalid entry.
public struct BoardPatch: Sendable, Equatable, Decodable {
    public var rings: [String: RingPatch]
    public var animation: Animation?
    public var title: String?
    public var background: BackgroundUpdate?
    /// The board's new `staleAfter`: nil leaves it, `.some(nil)` removes it.
    public var staleAfter: Int??

    public init(
        rings: [String: RingPatch], animation: Animation? = nil, title: String? = nil, background: BackgroundUpdate? = nil,
        staleAfter: Int?? = nil
    ) {
        self.rings = rings
        self.animation = animation
        self.title = title
        self.background = background
        self.staleAfter = staleAfter
    }

    /// Whether the patch changes the board itself, not only rings.
    public var changesBoard: Bool { title != nil || background != nil || staleAfter != nil }

    public init(from decoder: any Decoder) throws {
        let object = try RequestField.object(
            decoder,
            allowing: ["rings", "animation", "title", "background", "staleAfter"],
            expected: "an object such as {\"rings\":{\"move\":0.8}} or {\"title\":\"CI\"}"
        )
        title = try RequestField.title(in: object)
        let backgroundKey = AnyCodingKey("background")
        if object.contains(backgroundKey) {
            if let update = try? object.decode(BackgroundUpdate.self, forKey: backgroundKey) {
                background = update
            } else if let color = try RequestField.color(named: "background", in: object) {
                background = BackgroundUpdate(color: color)
            }
        }
        let stale = try RequestField.staleAfter(in: object)
        staleAfter = stale.isNull ? .some(nil) : stale.value.map { .some($0) }
        animation = try RequestField.animation(in: object)
        let ringsKey = AnyCodingKey("rings")
        guard object.contains(ringsKey) else {
            guard title != nil || background != nil || staleAfter != nil else {
                throw APIError.malformed(
                    "missing key \"rings\": say which rings to change, e.g. {\"rings\":{\"move\":0.8}}, or give the "
                        + "board's title, background or staleAfter",
                    field: "rings")
            }
            rings = [:]
            return
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
    }
}
