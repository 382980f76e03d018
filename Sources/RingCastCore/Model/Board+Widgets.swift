/// What each kind of widget takes from a push and shows (DESIGN §12), kept beside `Board`'s rules for rings.
extension Board {
    /// The animation a push uses when it names none: seed 003's `.spring()` for a counter, the seeds'
    /// easeInOut 1 s for everything else.
    func defaultAnimation(of id: String) -> Animation {
        if ring(id)?.kind.tag == .counter { return .spring(Spring()) }
        return .default
    }

    /// A text widget's wave position (seed 003's `pct`) at `time`: 0 before any wave.
    public func wave(ofRing id: String, at time: Double) -> Double {
        rings[id]?.wave?.value(at: time) ?? 0
    }

    /// The range a kind's pushed number lies in: a counter's number or a ring's progress.
    static func targets(of kind: RingKind) -> ClosedRange<Double> {
        if kind.tag == .counter { return Limits.counterValues }
        return Limits.progress
    }

    /// The keys an entry for `kind` may set: what a refusal lists, and what `validateKeys` lets through (the
    /// kind's own, `KindDefinition.pushKeys`).
    static func keysTaken(by kind: RingKind) -> [String] {
        kind.pushKeys
    }

    /// `keysTaken(by:)` as a message lists them: `"value", "labelColor", "title"`.
    static func listOfKeysTaken(by kind: RingKind) -> String {
        keysTaken(by: kind).map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// 422 `invalid_value` for a key the ring's kind does not take (a counter's `progress`, a ring's `text`),
    /// naming the key and what the kind takes instead. Derived and countdown rings are only checked for the keys
    /// no ring takes: `validate` says why they take no values (they are read-only).
    func validateKeys(of entry: RingPatch, for ring: RingSpec, field: String?) throws(APIError) {
        // Every kind takes `staleAfter` (DESIGN §13), so no message lists it.
        let given = (ring.kind.takesPushes ? entry.givenKeys : entry.givenKeys.filter { ["text", "wave"].contains($0) })
            .filter { $0 != "staleAfter" }
        let taken = Self.keysTaken(by: ring.kind)
        guard let key = given.first(where: { !taken.contains($0) }) else { return }
        let what = ring.kind.isRing ? "ring" : "\(ring.kind.name) widget"
        throw .invalidValue(
            "\(what) \(RequestField.quoted(ring.id)) takes no \"\(key)\": give \(Self.listOfKeysTaken(by: ring.kind))",
            field: field.map { RequestField.path($0, key) } ?? key)
    }
}
