/// What `Arranger`'s sizes and canvases depend on: the board's cells in ring order, each a ring standing alone
/// or a concentric group of some count. Ids, titles and labels do not count (every text gets the same room), so
/// two boards of one shape have the same plans, and a plan found once serves every board of that shape.
public struct LayoutShape: Hashable, Sendable, CustomStringConvertible {
    /// One per cell: 0 for a ring standing alone, else the count of rings in the group.
    let cells: [Int]

    /// The shape of `rings` (drawing order) with `groups` (outermost first), as `Arranger.arrange` takes them.
    public init(rings: [RingSpec], groups: [[String]]) {
        cells = Arranger.cells(of: rings, groups: groups, single: Arranger.singleBase).map { $0.grouped ? $0.ids.count : 0 }
    }

    /// The rings of the board.
    public var ringCount: Int { cells.reduce(0) { $0 + max(1, $1) } }

    public var description: String { "\(ringCount) rings in \(cells.count) cells" }

    /// The cells' footprints, lone rings of size `single`: the same measures as `Arranger.cells(of:groups:single:)`.
    func footprints(single: RingSize) -> [Arranger.Footprint] {
        cells.map { count in
            count == 0
                ? Arranger.Footprint(
                    reach: single.outer, count: 1, grouped: false, textRows: .max, hole: Arranger.Cell.labelFit(single))
                : Arranger.Footprint(
                    reach: Arranger.groupSizes(count: count)[0].outer, count: count, grouped: true, textRows: .max)
        }
    }
}
