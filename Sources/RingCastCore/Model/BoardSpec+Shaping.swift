/// Rings added to and deleted from a board through the API. Either way the board is laid out again by the
/// server (a hand-placed board too: its concentric rings stay a group).
extension BoardSpec {
    /// The concentric groups: the spec's own, or for a hand-placed board without them the rings that share a
    /// centre (`ringsSharingACentre`).
    public var concentricGroups: [[String]] {
        guard groups.isEmpty, alternates.isEmpty else { return groups }
        return ringsSharingACentre
    }

    /// The rings (not widgets, which join no group) that share a centre with another ring, each such set
    /// outermost first, in the order of their first ring.
    public var ringsSharingACentre: [[String]] {
        var centres: [[Double]] = []
        var members: [[RingSpec]] = []
        for ring in rings where ring.kind.isRing {
            if let index = centres.firstIndex(of: [ring.cx, ring.cy]) {
                members[index].append(ring)
            } else {
                centres.append([ring.cx, ring.cy])
                members.append([ring])
            }
        }
        return members.filter { $0.count > 1 }.map { group in group.sorted { $0.r > $1.r }.map(\.id) }
    }

    /// The board with `ring` added, drawn last (or inside its `group`'s innermost ring), and laid out again.
    /// Throws 409 `already_exists` for a taken id, 422 `limit_exceeded` beyond `maximumRings`, 422
    /// `invalid_value` for a bad source or group.
    public func adding(
        _ ring: RingSpec, group: String? = nil, maximumRings: Int, planner: LayoutPlanner? = nil
    ) throws(APIError) -> BoardSpec {
        guard self.ring(withID: ring.id) == nil else {
            throw .alreadyExists("board \"\(name)\" already has a ring \"\(ring.id)\"", field: "id")
        }
        guard rings.count < maximumRings else {
            throw .limitExceeded(
                "board \"\(name)\" has \(rings.count) rings, the most this server allows (limits.maxRingsPerBoard)")
        }
        var kinds = Dictionary(rings.map { ($0.id, $0.kind.tag) }, uniquingKeysWith: { first, _ in first })
        kinds[ring.id] = ring.kind.tag
        try BoardDefinition.checkSources(of: ring, kinds: kinds, field: "sources")
        var groups = concentricGroups
        if let host = group {
            guard self.ring(withID: host) != nil else {
                throw .invalidValue("group names \(RequestField.quoted(host)), which is not a ring of this board", field: "group")
            }
            guard ring.kind.isRing, self.ring(withID: host)?.kind.isRing == true else {
                throw .invalidValue("only rings join concentric groups, and a widget is not a ring", field: "group")
            }
            if let index = groups.firstIndex(where: { $0.contains(host) }) {
                groups[index].append(ring.id)
            } else {
                groups.append([host, ring.id])
            }
        }
        return relaidOut(rings: rings + [ring.placed(at: rings.count)], groups: groups, planner: planner)
    }

    /// The board without ring `id`, laid out again; derived rings that averaged it drop it. Throws 404 for an
    /// unknown ring, 409 `conflict` for the board's last ring or a derived ring's last source.
    public func removing(ring id: String, planner: LayoutPlanner? = nil) throws(APIError) -> BoardSpec {
        guard ring(withID: id) != nil else {
            let known = rings.map { "\"\($0.id)\"" }.joined(separator: ", ")
            throw .notFound("board \"\(name)\" has no ring \(RequestField.quoted(id)); its rings are \(known)")
        }
        guard rings.count > 1 else {
            throw .conflict("ring \"\(id)\" is the last ring of board \"\(name)\"; delete the board instead")
        }
        var kept: [RingSpec] = []
        for var ring in rings where ring.id != id {
            if case .derived(var derived) = ring.kind, derived.sources.contains(id) {
                let remaining = derived.sources.filter { $0 != id }
                guard !remaining.isEmpty else {
                    throw .conflict(
                        "ring \"\(id)\" is the last source of derived ring \"\(ring.id)\"; delete \"\(ring.id)\" first or give it other sources"
                    )
                }
                derived.sources = remaining
                ring.kind = .derived(derived)
            }
            kept.append(ring)
        }
        let groups = concentricGroups.map { $0.filter { $0 != id } }.filter { !$0.isEmpty }
        return relaidOut(rings: kept, groups: groups, planner: planner)
    }

    /// The same board with new rings and groups, placed by the server (with `planner`'s plans when given).
    func relaidOut(rings: [RingSpec], groups: [[String]], planner: LayoutPlanner?) -> BoardSpec {
        var spec = BoardSpec.laidOut(
            name: name, title: title, background: background, rings: rings, groups: groups, planner: planner)
        spec.staleAfter = staleAfter
        spec.history = history
        return spec
    }
}
