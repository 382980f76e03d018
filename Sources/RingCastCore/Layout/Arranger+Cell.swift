extension Arranger {
    /// One ring standing alone, or one concentric group, with its texts; measured and placed for a
    /// title size `size` (the unit of every text measure below).
    ///
    /// A lone ring: the ring, 0.4 below it its title (as wide as the cell, at least 6 sizes), the
    /// label (1.4 sizes, less if the hole is smaller) in the hole. A group: the rings, 0.5 below them
    /// a grid of columns at least 6 sizes wide, 0.5 apart, one per ring in group order, each a title
    /// over a label (1.4 sizes) 0.25 apart, rows 0.5 apart, a short last row centred.
    struct Cell {
        /// Outermost first; one id for a ring standing alone.
        var ids: [String]
        /// One per id.
        var sizes: [RingSize]
        var grouped: Bool
        /// A group's texts take at most this many rows: if the columns that fit under its rings are
        /// too few for that, it takes more and the cell grows wider than the rings.
        var textRows = Int.max

        static let titleGap = 0.4
        static let labelRatio = 1.4
        static let gridGap = 0.5
        static let columnGap = 0.5
        static let rowGap = 0.5
        static let lineGap = 0.25
        static let minimumTextWidth = 6.0
        /// The part of a hole's radius a label box may reach, keeping it clear of the stroke.
        static let holeUse = 0.96
        /// Half the diagonal of a label box 3.5 sizes wide and 1 high, in sizes: √(1.75² + 0.5²).
        static let labelBoxDiagonal = (1.75 * 1.75 + 0.5 * 0.5).squareRoot()

        /// The biggest label a lone ring's hole holds 3.5 sizes wide, rounded down to 0.5.
        static func labelFit(_ ring: RingSize) -> Double {
            halves(holeUse * ring.inner / labelBoxDiagonal, .down)
        }

        /// A label's size for titles of `size`, rounded to 0.5.
        static func labelSize(_ size: Double) -> Double {
            halves(labelRatio * size, .toNearestOrAwayFromZero)
        }

        /// What the cell's measures depend on, without the ids: planning measures cells thousands of times.
        var footprint: Footprint {
            Footprint(reach: sizes[0].outer, count: ids.count, grouped: grouped, textRows: textRows)
        }

        var reach: Double { sizes[0].outer }

        func columns(size: Double) -> Int { footprint.columns(size: size) }
        func width(size: Double) -> Double { footprint.width(size: size) }
        func height(size: Double) -> Double { footprint.height(size: size) }

        /// The cell's rings and texts with its top left corner at (x, y).
        func placements(x: Double, y: Double, size: Double) -> [RingPlacement] {
            let width = width(size: size)
            let cx = x + width / 2
            let cy = y + reach
            let bottom = y + 2 * reach
            guard grouped else {
                let hole = Self.holeUse * sizes[0].inner
                let labelSize = min(Self.labelSize(size), Self.labelFit(sizes[0]))
                // The widest box of that height whose corners stay in the hole, rounded down to 0.5;
                // never under 3.5 sizes, which labelFit keeps in the hole.
                let widest = 2 * (hole * hole - labelSize * labelSize / 4).squareRoot()
                let labelWidth = max(3.5 * labelSize, halves(widest, .down))
                return [
                    RingPlacement(
                        id: ids[0], cx: cx, cy: cy,
                        titleText: TextSpec(
                            x: cx, y: bottom + (Self.titleGap + 0.5) * size, size: size, align: "center", width: width),
                        labelText: TextSpec(x: cx, y: cy, size: labelSize, align: "center", width: labelWidth))
                ]
            }
            let columns = columns(size: size)
            let pitch = (width + Self.columnGap * size) / Double(columns)
            let textWidth = pitch - Self.columnGap * size
            let entry = (1 + Self.lineGap) * size + Self.labelSize(size)
            return ids.enumerated().map { index, id in
                let row = index / columns
                let inRow = min(columns, ids.count - row * columns)
                let rowStart = x + (width - (Double(inRow) * pitch - Self.columnGap * size)) / 2
                let textX = rowStart + Double(index % columns) * pitch + textWidth / 2
                let top = bottom + Self.gridGap * size + Double(row) * (entry + Self.rowGap * size)
                let labelSize = Self.labelSize(size)
                return RingPlacement(
                    id: id, cx: cx, cy: cy,
                    titleText: TextSpec(x: textX, y: top + size / 2, size: size, align: "center", width: textWidth),
                    labelText: TextSpec(
                        x: textX, y: top + (1 + Self.lineGap) * size + labelSize / 2, size: labelSize, align: "center",
                        width: textWidth))
            }
        }
    }
}
