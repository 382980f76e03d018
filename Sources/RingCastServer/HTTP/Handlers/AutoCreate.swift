import RingCastCore

/// Push-to-create (`autoCreate`, DESIGN §14): what a write to rings a board lacks, or to a board that does not
/// exist, becomes when the server is configured to create them. The writes stay one write each: the board grown
/// (or created) and the write itself start at the same tick as one revision (`Animator.Change.grow`), and in a
/// cluster the grown structure travels with the write, so every node builds the same board.
///
/// The ring added is a plain ring titled by its id, laid out by the server as `POST …/rings` lays one out; a new
/// board is the template's rings and the written ones. The limits are the API's (`limits.maxBoards`,
/// `limits.maxRingsPerBoard`, 422). Without `autoCreate` a write to what does not exist is 404, with a hint.
struct AutoCreate {
    /// `autoCreate.template`; nil: push-to-create is off.
    let template: BoardTemplate?
    let maximumRings: Int
    let planner: LayoutPlanner

    /// What writing `change` (to rings `ids`) to `board`, named `name`, does.
    func write(
        _ change: Animator.Change, toRings ids: [String], of board: LiveBoard?, named name: String
    ) throws(APIError) -> BoardWrite {
        guard let board else {
            guard let template else {
                throw .notFound(
                    "no board named \"\(name)\" (create it with PUT /api/v1/boards/\(name), or turn on the server's autoCreate)",
                    field: "board")
            }
            var spec = try BoardDefinition(rings: .template(template, count: nil)).spec(
                named: name, maximumRings: maximumRings, planner: planner)
            spec = try adding(ids, to: spec, by: change)
            return .create(spec, then: change)
        }
        let missing = ids.filter { !board.animator.willHaveRing(withID: $0) }
        if missing.isEmpty { return .change(change) }
        let spec = board.animator.projected.specAtRest
        guard template != nil else {
            let field = ids.count == 1 && change.isRingWrite ? nil : "rings.\(missing[0])"
            throw .notFound(
                "board \(name) has no ring \"\(missing[0])\" (add it with POST /api/v1/boards/\(name)/rings, or turn on the "
                    + "server's autoCreate)",
                field: field)
        }
        return .change(.grow(try adding(missing, to: spec, by: change), then: change))
    }

    /// `spec` with a plain ring for each of `ids` it lacks; a ring is created only under a name the API takes
    /// (`Name`), the URL's (field `ring`) or a PATCH's key (`rings.ID`).
    private func adding(_ ids: [String], to spec: BoardSpec, by change: Animator.Change) throws(APIError) -> BoardSpec {
        var spec = spec
        for id in ids.sorted() where spec.ring(withID: id) == nil {
            try Name.check(id, as: .ring, field: change.isRingWrite ? "ring" : "rings.\(id)")
            spec = try spec.adding(RingSpec(id: id), maximumRings: maximumRings, planner: planner)
        }
        return spec
    }
}

extension Animator.Change {
    /// Whether the change is a `PUT …/rings/{ring}`, whose ring is in the URL rather than a field.
    fileprivate var isRingWrite: Bool {
        if case .ring = self { return true }
        return false
    }
}
