extension Arranger {
    /// One ring standing alone, or one concentric group, with its texts; measured and placed for a
    /// title size `size` (the unit of every text measure below).
    ///
    /// A lone ring: the ring, 0.4 below it its title (as wide as the cell, at least 6 sizes), the
    /// label (1.4 sizes, less if the hole is smaller) in the hole. A counter or text widget draws no
    /// ring, only its value: that is 1.4 sizes whatever the hole, as wide as the cell (issue 34: a
    /// value at least its title's size). A lone ring whose hole cannot hold a label of the title's size
    /// (a portrait full of text, whose size grows with the canvas) has its label, 1.4 sizes, under its
    /// title, 0.25 apart, as a group's texts. A group: the rings, 0.5 below them
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
        /// A lone counter or text widget: no ring around its value (`drawsOnlyItsValue`).
        var valueOnly = false

        static let titleGap = 0.4
        static let labelRatio = 1.4
        static let gridGap = 0.5
        static let columnGap = 0.5
        static let rowGap = 0.5
        static let lineGap = 0.25
        static let minimumTextWidth = 6.0
        /// The part of a hole's radius a label box may reach, keeping it clear of the stroke.
        static let holeUse = 0.96
        /// The narrowest a lone ring's label box is, in label sizes: "100%" is some 2.7 sizes in the page's bold
        /// font, and a longer label is fitted to the box (docs/PROTOCOL.md, "Fitting text"). It was 3.5, which kept
        /// a portrait's labels under its readable size (a 26th of its width, issue 34) on boards of 17 lone rings
        /// or more; 3 keeps them readable up to 24.
        static let labelBoxWidth = 3.0
        /// Half the diagonal of a label box `labelBoxWidth` sizes wide and 1 high, in sizes: √(1.5² + 0.5²).
        static let labelBoxDiagonal = ((labelBoxWidth / 2) * (labelBoxWidth / 2) + 0.5 * 0.5).squareRoot()

        /// Whether `ring` draws only its value where a ring would be: a counter's digits, a text widget's text.
        static func drawsOnlyItsValue(_ ring: RingSpec) -> Bool {
            ring.kind.tag == .counter || ring.kind.tag == .text
        }

        /// The biggest label a lone ring's hole holds `labelBoxWidth` sizes wide, rounded down to 0.5.
        static func labelFit(_ ring: RingSize) -> Double {
            halves(holeUse * ring.inner / labelBoxDiagonal, .down)
        }

        /// A label's size for titles of `size`, rounded to 0.5.
        static func labelSize(_ size: Double) -> Double {
            halves(labelRatio * size, .toNearestOrAwayFromZero)
        }

        /// What the cell's measures depend on, without the ids: planning measures cells thousands of times.
        var footprint: Footprint {
            Footprint(
                reach: sizes[0].outer, count: ids.count, grouped: grouped, textRows: textRows,
                hole: grouped ? 0 : Self.labelFit(sizes[0]))
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
            if footprint.labelBelow(size: size) {
                // The hole cannot hold a label as big as the title: the label goes under the title, a line
                // apart, as a group's do.
                let titleY = bottom + (Self.titleGap + 0.5) * size
                let labelSize = Self.labelSize(size)
                return [
                    RingPlacement(
                        id: ids[0], cx: cx, cy: cy,
                        titleText: TextSpec(x: cx, y: titleY, size: size, align: "center", width: width),
                        labelText: TextSpec(
                            x: cx, y: titleY + (0.5 + Self.lineGap) * size + labelSize / 2, size: labelSize,
                            align: "center", width: width))
                ]
            }
            if valueOnly {
                return [
                    RingPlacement(
                        id: ids[0], cx: cx, cy: cy,
                        titleText: TextSpec(
                            x: cx, y: bottom + (Self.titleGap + 0.5) * size, size: size, align: "center", width: width),
                        labelText: TextSpec(x: cx, y: cy, size: Self.labelSize(size), align: "center", width: width))
                ]
            }
            guard grouped else {
                let hole = Self.holeUse * sizes[0].inner
                let labelSize = min(Self.labelSize(size), Self.labelFit(sizes[0]))
                // The widest box of that height whose corners stay in the hole, rounded down to 0.5;
                // never under `labelBoxWidth` sizes, which labelFit keeps in the hole.
                let widest = 2 * (hole * hole - labelSize * labelSize / 4).squareRoot()
                let labelWidth = max(Self.labelBoxWidth * labelSize, halves(widest, .down))
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
