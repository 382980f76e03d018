/// A countdown ring's definition: the board's countdown, 0 → 1 linearly over N seconds once started, shown with
/// the ring look and its own options (seed 004: style, tenths, what happens at 0, a webhook); read-only through
/// the ring API.
public struct CountdownRing: KindDefinition {
    public var look: RingLook
    /// nil: the defaults (`CountdownOptions.standard`), and none written.
    public var options: CountdownOptions?

    public init(look: RingLook = RingLook(), options: CountdownOptions? = nil) {
        self.look = look
        self.options = options
    }

    static let keys = RingLook.keys + ["style", "tenths", "then", "webhook"]
    static let pushKeys = DerivedRing.pushKeys

    init(reading object: KeyedDecodingContainer<AnyCodingKey>, id: String, from boundary: RingSpec.Boundary) throws {
        look = try RingLook(reading: object, countdown: true)
        options = try RequestField.countdownOptions(in: object)
    }

    func validate(field: String?, from boundary: RingSpec.Boundary) throws(APIError) {
        try look.validate(field: field, from: boundary)
        if let webhook = options?.webhook {
            try CountdownOptions.checkWebhook(webhook, field: RequestField.path(field, "webhook"))
        }
    }

    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        try look.write(to: &object)
        guard let options else { return }
        try object.encode(options.style, forKey: Self.key("style"))
        try object.encode(options.tenths, forKey: Self.key("tenths"))
        try object.encode(options.then, forKey: Self.key("then"))
        try object.encodeIfPresent(options.webhook, forKey: Self.key("webhook"))
    }
}
