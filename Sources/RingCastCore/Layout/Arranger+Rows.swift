extension Arranger {
    /// The gap between cells and the canvas margin, in title sizes.
    static let gapRatio = 1.0

    /// The plan with the smallest canvas over every count of cells per row and every limit on a
    /// group's text rows; on a tie the first tried (the loosest limit, then the fewest per row). One
    /// cell per row always settles in portrait and one row in landscape, where the text stacks least
    /// along the shorter side. Text is at least the shorter side over `readable`; `givingUpEarly` as `plan` takes it.
    static func best(
        _ footprints: [Footprint], aspect: Double, readable: Double = readableDivisor, givingUpEarly: Bool = true
    ) -> Plan {
        var best: Plan?
        // A limit at or above the biggest group's ring count changes nothing.
        let biggest = footprints.filter(\.grouped).map(\.count).max() ?? 1
        for textRows in [biggest] + textRowLimits.filter({ $0 < biggest }) {
            let limited = Footprints(limit(footprints, textRows: textRows))
            for columns in 1...footprints.count {
                let bound = best.map { $0.width * $0.height }
                guard
                    let plan = plan(
                        limited, columns: columns, textRows: textRows, aspect: aspect, readable: readable,
                        givingUpEarly: givingUpEarly, within: bound)
                else { continue }
                if let current = best, current.width * current.height <= plan.width * plan.height { continue }
                best = plan
            }
        }
        // Unreachable for the inputs the caller admits (the tests try them); a plan that does not
        // settle still places everything apart, only with text below the readable size.
        return best
            ?? plan(
                Footprints(limit(footprints, textRows: biggest)), columns: footprints.count, textRows: biggest,
                aspect: aspect, readable: readable, settling: false)!
    }

    /// The limits on a group's text rows each arrangement tries: a group's texts fill the width under
    /// its rings, and take more columns where that makes too many rows. A big group's texts in few
    /// wide rows suit a landscape canvas; under the rings, a portrait one.
    static let textRowLimits = [24, 12, 8, 6, 4, 3, 2, 1]

    /// The text size and canvas for `columns` cells per row of `cells` (limited to `textRows`): starting from
    /// `baseTextSize`, the size grows to the readable minimum of the canvas it makes (its shorter side over
    /// `readable`, at least `minimumTextSize`) until it is at least that.
    /// Nil if that does not settle (the text stacks `readable` sizes or more along the shorter side), or once the
    /// canvas is no smaller than `bound`: every measure grows with the text size, so the canvas only grows
    /// from round to round, and such a plan could not take the place of the one that set the bound.
    /// `givingUpEarly`: a board of lone rings gives up once a step is no shorter than the last (below); that also
    /// gives up on some plans that would settle in steps of 0.5, so a hand-placed board's portrait, whose rings of
    /// every size make that common, takes every round instead (the server's own layouts keep the rule: their
    /// bytes follow from it).
    static func plan(
        _ cells: Footprints, columns: Int, textRows: Int, aspect: Double, readable: Double = readableDivisor,
        givingUpEarly: Bool = true, settling: Bool = true, within bound: Double? = nil
    ) -> Plan? {
        let lone = givingUpEarly && !cells.kinds.contains(where: \.grouped)
        var size = baseTextSize
        var step = 0.0
        for _ in 0..<maximumRounds {
            let (width, height) = canvas(cells, columns: columns, size: size, aspect: aspect)
            if let bound, width * height >= bound { return nil }
            let minimum = max(minimumTextSize, min(width, height) / readable)
            if size >= minimum || !settling {
                return Plan(columns: columns, textRows: textRows, size: size, minimum: minimum, width: width, height: height)
            }
            let next = halves(minimum, .up)
            // Lone rings only: their canvas is a convex function of the text size, so once a step is as long
            // as the last one the text outgrows nothing (the shorter side stacks `readable` sizes or more) and this never
            // settles; following it to the last round took seconds on boards of a hundred rings. (A group's text
            // columns change with the size, so a board with groups takes every round.)
            if lone, step > 0, next - size >= step { return nil }
            step = next - size
            size = next
        }
        return nil
    }

    /// The canvas the rows of `cells` need at text `size`, widened or heightened to `aspect` and
    /// rounded up to whole units.
    static func canvas(_ cells: Footprints, columns: Int, size: Double, aspect: Double) -> (Double, Double) {
        let gap = gapRatio * size
        let widths = cells.kinds.map { $0.width(size: size) }
        let heights = cells.kinds.map { $0.height(size: size) }
        var widest = 0.0
        var height = 0.0
        for start in stride(from: 0, to: cells.count, by: columns) {
            let end = min(start + columns, cells.count)
            // As `rowWidth` and `rowHeight` add and compare them, in the same order.
            var rowWidth = 0.0
            var rowHeight = 0.0
            for index in start..<end {
                rowWidth = rowWidth + widths[cells.cells[index]]
                rowHeight = max(rowHeight, heights[cells.cells[index]])
            }
            rowWidth += Double(end - start - 1) * gapRatio * size
            widest = max(widest, rowWidth)
            height += rowHeight + gap
        }
        let contentWidth = widest + 2 * gap
        let contentHeight = height + gap
        return (
            max(contentWidth, contentHeight * aspect).rounded(.up),
            max(contentHeight, contentWidth / aspect).rounded(.up)
        )
    }

    /// Places the cells as `plan` says: the spare room of the canvas is spread evenly over the
    /// spaces above, between and below the rows, and in each row over the spaces beside and between
    /// its cells; a cell lower than its row is centred in it. Placements come in `order`.
    static func arrangement(named name: String, cells: [Cell], plan: Plan, order: [String]) -> Arrangement {
        let size = plan.size
        let gap = gapRatio * size
        let cells = limit(cells, textRows: plan.textRows)
        let rows = rows(cells, columns: plan.columns)
        let footprints = self.rows(cells.map(\.footprint), columns: plan.columns)
        let contentHeight = footprints.reduce(gap) { $0 + rowHeight($1, size: size) + gap }
        let spareY = (plan.height - contentHeight) / Double(rows.count + 1)
        var placements: [String: RingPlacement] = [:]
        var y = gap + spareY
        for (row, footprint) in zip(rows, footprints) {
            let height = rowHeight(footprint, size: size)
            let spareX = (plan.width - 2 * gap - rowWidth(footprint, size: size)) / Double(row.count + 1)
            var x = gap + spareX
            for cell in row {
                let top = y + (height - cell.height(size: size)) / 2
                for placement in cell.placements(x: halves(x, .down), y: halves(top, .down), size: size) {
                    placements[placement.id] = placement
                }
                x += cell.width(size: size) + gap + spareX
            }
            y += height + gap + spareY
        }
        return Arrangement(name: name, width: plan.width, height: plan.height, placements: order.compactMap { placements[$0] })
    }

    /// `cells` with their groups' texts in at most `textRows` rows.
    static func limit(_ cells: [Cell], textRows: Int) -> [Cell] {
        cells.map { cell in
            var cell = cell
            cell.textRows = textRows
            return cell
        }
    }

    static func limit(_ cells: [Footprint], textRows: Int) -> [Footprint] {
        cells.map { cell in
            var cell = cell
            cell.textRows = textRows
            return cell
        }
    }

    static func rows<Item>(_ items: [Item], columns: Int) -> [ArraySlice<Item>] {
        stride(from: 0, to: items.count, by: columns).map { items[$0..<min($0 + columns, items.count)] }
    }

    static func rowWidth(_ row: ArraySlice<Footprint>, size: Double) -> Double {
        row.reduce(0) { $0 + $1.width(size: size) } + Double(row.count - 1) * gapRatio * size
    }

    static func rowHeight(_ row: ArraySlice<Footprint>, size: Double) -> Double {
        row.reduce(0) { max($0, $1.height(size: size)) }
    }
}
