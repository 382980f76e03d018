extension Arranger {
    /// A cell's measures (`Cell`'s rules) from plain numbers: the plans of a 255-ring board measure cells some
    /// million times, and a cell's id and size arrays cost a retain and a release at every copy.
    struct Footprint: Hashable {
        /// The radius of the whole cell's rings.
        var reach: Double
        /// Rings in the cell.
        var count: Int
        var grouped: Bool
        /// A group's texts take at most this many rows (`Cell.textRows`).
        var textRows: Int
        /// A lone ring's `Cell.labelFit`, the biggest label its hole holds (0 for a group).
        var hole = 0.0

        /// Whether a lone ring's label goes under its title, for titles of `size`: when its hole cannot hold a
        /// label as big as the title (issue 34: a label, or a counter's or text's value, is never smaller than its
        /// title). Its rings then keep an empty hole.
        func labelBelow(size: Double) -> Bool {
            !grouped && hole < size
        }

        /// Text columns of a group: as many as fit under the rings, or as `textRows` asks if more;
        /// at least one, at most one per ring.
        func columns(size: Double) -> Int {
            guard grouped else { return 1 }
            let pitch = (Cell.minimumTextWidth + Cell.columnGap) * size
            let fitting = Int(((2 * reach + Cell.columnGap * size) / pitch).rounded(.down))
            let asked = (count + textRows - 1) / textRows
            return max(1, min(count, max(fitting, asked)))
        }

        func width(size: Double) -> Double {
            let columns = Double(columns(size: size))
            let texts = columns * (Cell.minimumTextWidth + Cell.columnGap) * size - Cell.columnGap * size
            return max(2 * reach, texts)
        }

        func height(size: Double) -> Double {
            guard grouped else {
                let label = labelBelow(size: size) ? Cell.lineGap * size + Cell.labelSize(size) : 0
                return 2 * reach + (Cell.titleGap + 1) * size + label
            }
            let columns = columns(size: size)
            let rows = Double((count + columns - 1) / columns)
            let entry = (1 + Cell.lineGap) * size + Cell.labelSize(size)
            return 2 * reach + Cell.gridGap * size + rows * entry + (rows - 1) * Cell.rowGap * size
        }
    }

    /// A board's cells as the few different footprints they have (every lone ring has the same, every group of
    /// a count the same), so a canvas measures each once per text size instead of once per cell.
    struct Footprints {
        /// The different footprints, in the order first met.
        let kinds: [Footprint]
        /// For each cell in ring order, its footprint's index in `kinds`.
        let cells: [Int]

        init(_ footprints: [Footprint]) {
            var index: [Footprint: Int] = [:]
            var kinds: [Footprint] = []
            cells = footprints.map { footprint in
                if let known = index[footprint] { return known }
                index[footprint] = kinds.count
                kinds.append(footprint)
                return kinds.count - 1
            }
            self.kinds = kinds
        }

        var count: Int { cells.count }
    }
}
