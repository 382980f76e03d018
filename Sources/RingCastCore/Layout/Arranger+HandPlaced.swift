extension Arranger {
    /// The shorter side of any portrait arrangement over this is its smallest text, a hand-placed board's or one the
    /// server lays out (`shapes`). The page draws a 9:19.5 canvas at least 364 CSS pixels wide on a 390×844
    /// phone held upright (its header takes 35 of the 844), so text of a 26th of the width is at least 14 CSS
    /// pixels there.
    public static let phoneReadableDivisor = 26.0

    /// A portrait arrangement (9:19.5) of a board placed by hand, for a board wider than tall (nil otherwise: the
    /// board's own placement is its portrait). Laid out as the server lays out its own boards (cells in ring
    /// order, rows of equally many, the smallest canvas, texts below the rings and a lone ring's label in its
    /// hole), except that every ring keeps its own radius and thickness, which every arrangement shares, and
    /// that text is at least a `phoneReadableDivisor`th of the width. Rings sharing a centre stay one group
    /// (`BoardSpec.ringsSharingACentre`).
    public static func portrait(ofPlaced spec: BoardSpec) -> Arrangement? {
        guard spec.width > spec.height, !spec.rings.isEmpty else { return nil }
        let cells = placedCells(of: spec.rings, groups: spec.ringsSharingACentre)
        let shape = shapes[1]
        let plan = best(cells.map(\.footprint), aspect: shape.aspect, readable: shape.readable, givingUpEarly: false)
        return arrangement(named: shape.name, cells: cells, plan: plan, order: spec.rings.map(\.id))
    }

    /// The cells of hand-placed `rings` in ring order, a group (outermost first) where its first ring is drawn,
    /// each ring at its own size.
    static func placedCells(of rings: [RingSpec], groups: [[String]]) -> [Cell] {
        var groupOf: [String: Int] = [:]
        for (index, group) in groups.enumerated() {
            for id in group { groupOf[id] = index }
        }
        var sizes: [String: RingSize] = [:]
        for ring in rings {
            sizes[ring.id] = RingSize(r: ring.r, thickness: ring.thickness)
        }
        var placedGroups = Set<Int>()
        var cells: [Cell] = []
        for ring in rings {
            if let index = groupOf[ring.id] {
                guard placedGroups.insert(index).inserted else { continue }
                let ids = groups[index]
                cells.append(Cell(ids: ids, sizes: ids.map { sizes[$0]! }, grouped: true))
            } else {
                cells.append(
                    Cell(ids: [ring.id], sizes: [sizes[ring.id]!], grouped: false, valueOnly: Cell.drawsOnlyItsValue(ring)))
            }
        }
        return cells
    }
}
