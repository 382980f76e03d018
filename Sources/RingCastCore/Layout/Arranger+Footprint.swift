extension Arranger {
    /// A cell's measures (`Cell`'s rules) from plain numbers: the plans of a 255-ring board measure cells some
    /// million times, and a cell's id and size arrays cost a retain and a release at every copy.
    struct Footprint {
        /// The radius of the whole cell's rings.
        var reach: Double
        /// Rings in the cell.
        var count: Int
        var grouped: Bool
        /// A group's texts take at most this many rows (`Cell.textRows`).
        var textRows: Int

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
            guard grouped else { return 2 * reach + (Cell.titleGap + 1) * size }
            let columns = columns(size: size)
            let rows = Double((count + columns - 1) / columns)
            let entry = (1 + Cell.lineGap) * size + Cell.labelSize(size)
            return 2 * reach + Cell.gridGap * size + rows * entry + (rows - 1) * Cell.rowGap * size
        }
    }
}
