extension BoardSpec {
    /// Checks what every board must hold, whoever made it (the configuration, the API or the store): at least
    /// one ring, unique ids, each ring's definition and place within its kind's rules (`RingSpec.validate`),
    /// derived rings averaging other plain rings, groups of existing rings each in at most one group, and every
    /// arrangement placing exactly the board's rings in order.
    /// Throws the first problem, its key under `key`.
    public static func check(_ spec: BoardSpec, key: String) throws(BoardStateError) {
        func fail(_ subkey: String, _ message: String) -> BoardStateError {
            BoardStateError(key: key + subkey, message: message)
        }
        guard !spec.rings.isEmpty else { throw fail(".rings", "a board needs at least one ring") }
        if let seconds = spec.staleAfter, !Limits.staleAfterSeconds.contains(seconds) {
            throw fail(".staleAfter", Limits.staleAfterRange)
        }
        do {
            try spec.history?.validate(field: "history")
        } catch {
            throw BoardStateError(key: key + "." + (error.field ?? "history"), message: error.message)
        }
        var kinds: [String: RingKind.Name] = [:]
        for (index, ring) in spec.rings.enumerated() {
            guard kinds.updateValue(ring.kind.tag, forKey: ring.id) == nil else {
                throw fail(".rings.\(index).id", "duplicate ring id \"\(ring.id)\"")
            }
            // The definition's own rules, as every reader applies them (`RingSpec.validate`).
            do {
                try ring.validate(field: "rings.\(index)", from: .store)
            } catch {
                throw BoardStateError(key: key + "." + (error.field ?? "rings.\(index)"), message: error.message)
            }
            if ring.kind.tag != .gradient, ring.kind.look != nil, ring.colors.count != 2 {
                throw fail(".rings.\(index).colors", "a ring needs 2 colours, its status's or thresholds'")
            }
        }
        for (index, ring) in spec.rings.enumerated() {
            if let problem = sourceProblem(of: ring.id, kind: ring.kind, kinds: kinds) {
                throw fail(".rings.\(index).sources.\(problem.index)", problem.reason)
            }
        }
        let widgets = Set(spec.rings.filter { !$0.kind.isRing }.map(\.id))
        if let problem = groupProblem(in: spec.groups, ids: Set(kinds.keys), widgets: widgets) {
            throw fail(".groups.\(problem.index)", problem.reason)
        }
        let ids = spec.rings.map(\.id)
        for arrangement in spec.arrangements {
            let subkey = ".arrangements.\(arrangement.name)"
            guard arrangement.width.isFinite, arrangement.height.isFinite, arrangement.width > 0, arrangement.height > 0
            else { throw fail(subkey, "width and height must be positive") }
            guard arrangement.placements.map(\.id) == ids else {
                throw fail(subkey, "must place the board's rings, in order")
            }
            for placement in arrangement.placements {
                let numbers = [
                    placement.cx, placement.cy, placement.titleText.x, placement.titleText.y, placement.titleText.size,
                    placement.labelText.x, placement.labelText.y, placement.labelText.size,
                ]
                guard numbers.allSatisfy(\.isFinite) else {
                    throw fail(subkey + ".\(placement.id)", "every coordinate must be finite")
                }
            }
        }
    }
}
