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
