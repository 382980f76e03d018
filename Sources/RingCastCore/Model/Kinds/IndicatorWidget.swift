/// Seed 003's percentage indicator: a dashed arc from 3 o'clock and a truncated `N %` label, coloured as a ring
/// is (colours, a status or thresholds), with a maximum; it shows no other label.
public struct IndicatorWidget: KindDefinition {
    /// Its colours and maximum (`label` is never set: the indicator shows `N %`).
    public var look: RingLook

    public init(look: RingLook = RingLook()) {
        self.look = look
    }

    static let keys = ["colors", "max", "status", "thresholds"]
    static let pushKeys = ["progress", "value", "max", "colors", "labelColor", "title", "status", "thresholds"]

    init(reading object: KeyedDecodingContainer<AnyCodingKey>, id: String, from boundary: RingSpec.Boundary) throws {
        look = try RingLook(reading: object, countdown: false)
    }

    func validate(field: String?, from boundary: RingSpec.Boundary) throws(APIError) {
        if look.label != nil {
            throw .invalidValue("label goes with a ring; an indicator shows its own", field: RequestField.path(field, "label"))
        }
        try look.validate(field: field, from: boundary)
    }

    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        try look.write(to: &object)
    }
}
