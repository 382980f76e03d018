/// What each kind of widget takes from a push and shows (DESIGN §12), kept beside `Board`'s rules for rings.
extension Board {
    /// The animation a push uses when it names none: seed 003's `.spring()` for a counter, the seeds'
    /// easeInOut 1 s for everything else.
    func defaultAnimation(of id: String) -> Animation {
        if case .counter = ring(id)?.kind { return .spring(Spring()) }
        return .default
    }

    /// A text widget's wave position (seed 003's `pct`) at `time`: 0 before any wave.
    public func wave(ofRing id: String, at time: Double) -> Double {
        rings[id]?.wave?.value(at: time) ?? 0
    }

    /// The range a kind's pushed number lies in: a counter's number or a ring's progress.
    static func targets(of kind: RingKind) -> ClosedRange<Double> {
        if case .counter = kind { return Limits.counterValues }
        return Limits.progress
    }

    /// The keys an entry for `kind` may set, as an error message lists them.
    static func keysTaken(by kind: RingKind) -> String {
        let keys: [String]
        switch kind {
        case .plain, .indicator: keys = ["progress", "value", "max", "colors", "labelColor", "label", "title"]
        case .derived, .countdown: keys = ["label", "title"]
        case .counter: keys = ["value", "labelColor", "title"]
        case .text: keys = ["text", "wave", "labelColor", "title"]
        case .gradient: keys = ["colors", "title"]
        }
        return keys.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// 422 `invalid_value` for a key the ring's kind does not take (a counter's `progress`, a ring's `text`),
    /// naming the key and what the kind takes instead.
    func validateKeys(of entry: RingPatch, for ring: RingSpec, field: String?) throws(APIError) {
        func path(_ key: String) -> String { field.map { RequestField.path($0, key) } ?? key }
        var refused: [(key: String, given: Bool)] = []
        switch ring.kind {
        case .plain, .derived, .countdown:
            refused = [("text", entry.text != nil), ("wave", entry.startsWave)]
        case .indicator:
            refused = [("text", entry.text != nil), ("wave", entry.startsWave), ("label", entry.label != nil)]
        case .counter:
            refused = [
                ("progress", entry.progress != nil), ("max", entry.maximum != nil), ("label", entry.label != nil),
                ("colors", entry.colors != nil), ("text", entry.text != nil), ("wave", entry.startsWave),
            ]
        case .text:
            refused = [
                ("progress", entry.progress != nil), ("value", entry.value != nil || entry.clearsData),
                ("max", entry.maximum != nil), ("label", entry.label != nil), ("colors", entry.colors != nil),
            ]
        case .gradient:
            refused = [
                ("progress", entry.progress != nil), ("value", entry.value != nil || entry.clearsData),
                ("max", entry.maximum != nil), ("label", entry.label != nil), ("labelColor", entry.labelColor != nil),
                ("text", entry.text != nil), ("wave", entry.startsWave),
            ]
        }
        if let key = refused.first(where: \.given)?.key {
            let what = ring.kind.isRing ? "ring" : "\(ring.kind.name) widget"
            throw .invalidValue(
                "\(what) \(RequestField.quoted(ring.id)) takes no \"\(key)\": give \(Self.keysTaken(by: ring.kind))",
                field: path(key))
        }
    }
}
