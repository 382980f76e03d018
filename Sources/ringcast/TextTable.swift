/// Rows of cells as the client commands print them (`ringcast get`, `ringcast board list`): every
/// cell but a line's last padded to its column's width and two spaces between columns, so no line
/// ends in spaces; a line may have fewer cells than another (a trailing note such as `animating`).
struct TextTable: CustomStringConvertible {
    var rows: [[String]]

    /// Each row on a line of its own, the last one ending in a newline too.
    var description: String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { cells in
            cells.enumerated().map { column, cell in
                column < cells.count - 1 ? cell + String(repeating: " ", count: widths[column] - cell.count) : cell
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n") + "\n"
    }
}
