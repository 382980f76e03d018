/// `GET /api/v1/boards` as `ringcast board list` reads it (docs/openapi.yaml, `BoardList`).
struct BoardListing: Decodable {
    struct Board: Decodable {
        struct Ring: Decodable {
            var id: String
            var title: String
            /// "plain", "derived" or "countdown".
            var kind: String
        }

        var name: String
        var title: String
        var rings: [Ring]
        /// Pages showing the board now.
        var viewers: Int
        /// The server's configuration defines the board; absent from servers before 0.5.
        var configured: Bool?
    }

    var boards: [Board]

    /// A header, then a line per board: name, title, ring count, viewers and the ring ids.
    var table: String {
        let rows = boards.map { board in
            [
                board.name, board.title, String(board.rings.count), String(board.viewers),
                board.rings.map(\.id).joined(separator: ","),
            ]
        }
        return TextTable(rows: [["board", "title", "rings", "viewers", "ids"]] + rows).description
    }
}
