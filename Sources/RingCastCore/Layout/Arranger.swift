/// Lays a board out by itself (issue 13): every ring gets a size, and a place in a landscape (16:9)
/// and a portrait (9:19.5) canvas, with its title and label, so that nothing overlaps and every text
/// is readable once the page scales the canvas to its window.
///
/// The board is cut into cells: a concentric group is one cell, its titles and labels in columns
/// below it; every other ring is a cell of its own, its label in its hole and its title below it.
/// The cells go in rows of equally many cells, in ring order (a group where its first ring is); each
/// arrangement tries every count per row and keeps the one with the smallest canvas, in which the
/// rings look biggest. The canvas is then widened or heightened to the exact aspect ratio and the
/// spare room spread evenly between the rows and between the cells of each row.
///
/// Ring sizes come first and hold in both arrangements (one frame serves both). Text sizes follow
/// from each canvas: every text is at least `max(14, shorter side / 45)`, which grows the canvas a
/// little, so the size is found by iterating until it holds. Pure arithmetic on `Double`s in a fixed
/// order: the same input gives the same bytes on any IEEE 754 machine.
public enum Arranger {
    /// Sizes and placements for `rings` (drawing order) with `groups` (outermost first). The caller
    /// has checked the input: 1...255 rings (`Limits.maximumRingsPerBoard`), unique ids, each id in at
    /// most one group, groups non-empty and naming existing rings. The plans come from `planner` when
    /// given (remembered, or planned elsewhere), else are planned here.
    public static func arrange(_ rings: [RingSpec], groups: [[String]], planner: LayoutPlanner? = nil) -> Arranged {
        let shape = LayoutShape(rings: rings, groups: groups)
        let plans = planner?.plans(for: shape) ?? Self.plans(for: shape)
        let cells = cells(of: rings, groups: groups, single: plans.single)
        var sizes: [String: RingSize] = [:]
        for cell in cells {
            for (id, size) in zip(cell.ids, cell.sizes) { sizes[id] = size }
        }
        let arrangements = zip(shapes, [plans.landscape, plans.portrait]).map { shape, plan in
            arrangement(named: shape.name, cells: cells, plan: plan, order: rings.map(\.id))
        }
        return Arranged(sizes: sizes, landscape: arrangements[0], portrait: arrangements[1])
    }

    /// The size of a lone ring and each arrangement's plan for boards of `shape`: the expensive part of a
    /// layout (a board of 255 rings tries some thousand plans), pure, so any thread may find it.
    public static func plans(for shape: LayoutShape) -> Plans {
        var single = singleBase
        var cells = shape.footprints(single: single)
        var plans = shapes.map { best(cells, aspect: $0.aspect, readable: $0.readable) }
        let base = (cells, plans)
        // A lone ring's label sits in its hole, so the hole must hold a label of the readable size;
        // a canvas that asks for bigger text gets bigger lone rings (which grows it less than them).
        for _ in 0..<maximumRounds where cells.contains(where: { !$0.grouped }) {
            let needed = plans.map(\.minimum).max() ?? minimumTextSize
            guard Cell.labelFit(single) < needed else { break }
            single = singleSize(holding: halves(needed, .up))
            // With many lone rings the canvas grows as fast as they do, and no size holds a readable label
            // (the sizes grew 2.5 times a round, for 64 rounds, at 100 rings): they keep their base size and
            // their labels shrink to the hole, as the text of a plan that does not settle does.
            guard single.r <= maximumSingleRadius else {
                single = singleBase
                (cells, plans) = base
                break
            }
            cells = shape.footprints(single: single)
            plans = shapes.map { best(cells, aspect: $0.aspect, readable: $0.readable) }
        }
        return Plans(single: single, landscape: plans[0], portrait: plans[1])
    }

    /// What `plans(for:)` finds for a shape: all a layout needs besides the board's ids.
    public struct Plans: Sendable, Equatable {
        var single: RingSize
        var landscape: Plan
        var portrait: Plan

        /// Plans made at once, in one row of text that need not settle, which `LayoutPlanner` gives while the real
        /// ones are being found elsewhere; never shown (the pipeline throws away what was made with them).
        static func standIn(for shape: LayoutShape) -> Plans {
            let footprints = shape.footprints(single: singleBase)
            let biggest = footprints.filter(\.grouped).map(\.count).max() ?? 1
            let cells = Footprints(limit(footprints, textRows: biggest))
            let plans = shapes.map { shape in
                plan(
                    cells, columns: cells.count, textRows: biggest, aspect: shape.aspect, readable: shape.readable,
                    settling: false)!
            }
            return Plans(single: singleBase, landscape: plans[0], portrait: plans[1])
        }
    }

    /// Width / height of each arrangement, 16:9 and a 390×844 phone's 9:19.5, and the divisor of its shorter side
    /// that is its smallest text: a 45th of a landscape canvas's height (16 CSS pixels on a 1280×720 screen), a
    /// 26th of a portrait canvas's width (`phoneReadableDivisor`: 14 CSS pixels on the phone, issue 34; it was a
    /// 45th, some 8 CSS pixels there).
    static let shapes: [(name: String, aspect: Double, readable: Double)] = [
        ("landscape", 16.0 / 9.0, readableDivisor), ("portrait", 9.0 / 19.5, phoneReadableDivisor),
    ]

    /// The smallest size any text may have, whatever the canvas.
    static let minimumTextSize = 14.0
    /// The shorter side of a landscape canvas over this is the smallest readable text size there (`shapes`).
    static let readableDivisor = 45.0
    /// The title size to start from: config/ringcast.json's titles are 18 to 22.
    static let baseTextSize = 18.0
    /// A ring standing alone, before the text asks for more: config/ringcast.json's task rings.
    static let singleBase = RingSize(r: 72, thickness: 20)
    /// Enough for the text size to settle; it grows by at least 0.5 a round and converges fast.
    static let maximumRounds = 64
    /// The largest lone ring the rounds above grow to, four times the base: past it the growth does not
    /// converge.
    static let maximumSingleRadius = 4 * singleBase.r

    /// One arrangement's text size and canvas for some count of cells per row.
    struct Plan: Sendable, Equatable {
        var columns: Int
        /// The most rows a group's texts take (`Cell.textRows`).
        var textRows: Int
        /// The title size; labels are bigger.
        var size: Double
        /// The smallest readable text size on this canvas: max(14, shorter side / 45).
        var minimum: Double
        var width: Double
        var height: Double
    }

    /// The cells in ring order: a group where its first ring is drawn, every other ring on its own.
    static func cells(of rings: [RingSpec], groups: [[String]], single: RingSize) -> [Cell] {
        var groupOf: [String: Int] = [:]
        for (index, group) in groups.enumerated() {
            for id in group { groupOf[id] = index }
        }
        var placedGroups = Set<Int>()
        var cells: [Cell] = []
        for ring in rings {
            if let index = groupOf[ring.id] {
                guard placedGroups.insert(index).inserted else { continue }
                cells.append(Cell(ids: groups[index], sizes: groupSizes(count: groups[index].count), grouped: true))
            } else {
                cells.append(Cell(ids: [ring.id], sizes: [single], grouped: false, valueOnly: Cell.drawsOnlyItsValue(ring)))
            }
        }
        return cells
    }

    /// A concentric group of `count` rings, outermost first, in config/ringcast.json's proportions:
    /// Move, Exercise, Stand are r 220, 178, 136 with thickness 38 (bands 4 apart), reaching 239 from
    /// the centre. Bigger groups keep that reach with thinner rings, down to thickness 12, then grow.
    /// Sizes are rounded to 0.5; the 4/38 gap between bands stays above 1.
    static func groupSizes(count: Int) -> [RingSize] {
        let steps = Double(count - 1)
        // The reach r + thickness / 2 of the outermost ring is (136 + 19 + 42 × steps) × thickness / 38.
        let fit = 239 * 38 / (136 + 19 + 42 * steps)
        let thickness = halves(min(38, max(12, fit)), .down)
        return (0..<count).map { index in
            let r = (136 + Double(count - 1 - index) * 42) * thickness / 38
            return RingSize(r: halves(r, .toNearestOrAwayFromZero), thickness: thickness)
        }
    }

    /// A lone ring in config's task proportions (thickness 20/72 of r) whose hole holds a label of
    /// `size`, a multiple of 0.5.
    static func singleSize(holding size: Double) -> RingSize {
        // The hole r − thickness / 2 is 62/72 of r; Cell.labelFit uses 0.96 of it.
        let r = (Cell.labelBoxDiagonal * size / Cell.holeUse * 72 / 62).rounded(.up)
        return RingSize(r: r, thickness: halves(r * 20 / 72, .down))
    }

    /// `value` rounded to a multiple of 0.5.
    static func halves(_ value: Double, _ rule: FloatingPointRoundingRule) -> Double {
        (value * 2).rounded(rule) / 2
    }
}
