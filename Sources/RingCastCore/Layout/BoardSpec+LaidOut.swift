extension BoardSpec {
    /// A board the server lays out itself: `Arranger`'s sizes and landscape placement on the rings,
    /// the landscape canvas as the board's size and the portrait one as its only alternate.
    /// `rings` and `groups` as `Arranger.arrange` takes them; the rings' own geometry is ignored. The plans
    /// come from `planner` when given.
    public static func laidOut(
        name: String, title: String?, background: RGBAColor, rings: [RingSpec], groups: [[String]],
        planner: LayoutPlanner? = nil
    ) -> BoardSpec {
        let arranged = Arranger.arrange(rings, groups: groups, planner: planner)
        // Both come in ring order, one per ring.
        let placed = zip(rings, arranged.landscape.placements).map { ring, placement in
            var ring = ring
            let size = arranged.sizes[ring.id] ?? RingSize(r: ring.r, thickness: ring.thickness)
            ring.cx = placement.cx
            ring.cy = placement.cy
            ring.r = size.r
            ring.thickness = size.thickness
            ring.titleText = placement.titleText
            ring.labelText = placement.labelText
            return ring
        }
        return BoardSpec(
            name: name, title: title, width: arranged.landscape.width, height: arranged.landscape.height,
            background: background, rings: placed, groups: groups, alternates: [arranged.portrait])
    }
}

extension BoardSpec {
    /// A board placed by hand (the config's) with a portrait arrangement as its alternate: `portrait` when given
    /// (the config's own), else the server's (`Arranger.portrait(ofPlaced:)`) when the board is wider than tall
    /// and nothing in it overlaps (`LayoutCheck`; the tests find no board where something does, and a board that
    /// loaded before must still load). Its rings that share a centre become its groups, so that a ring added
    /// through the API still joins them. A given portrait is the caller's to check.
    public func withPortrait(_ portrait: Arrangement? = nil) -> BoardSpec {
        var spec = self
        spec.groups = ringsSharingACentre
        if let portrait {
            spec.alternates = [portrait]
            return spec
        }
        guard let made = Arranger.portrait(ofPlaced: self) else { return spec }
        var candidate = spec
        candidate.alternates = [made]
        return LayoutCheck.problems(in: candidate).isEmpty ? candidate : spec
    }
}
