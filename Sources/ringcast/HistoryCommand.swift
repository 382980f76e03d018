import ArgumentParser
import Foundation
import RingCastClient
import RingCastCore

/// `ringcast history`: one ring's kept targets over a span of time (issue 33), as a table, or the server's CSV or JSON.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show a ring's history: the targets it was given over a span of time.",
        discussion: """
            Reads GET /api/v1/boards/BOARD/rings/RING/history and prints a line per point: when \
            the target was set (UTC), the target (a ring's progress as a percentage, 100% = one \
            full turn; a counter's number) and the status it set; then how many of the span's \
            kept points are shown. A span holding more than --points points is thinned by M4 (each \
            time bucket's first, lowest, highest and last point, so a spike, a drop and the newest \
            point always show). Plain and derived rings, counters and indicators keep history; \
            countdowns, texts and gradients do not. --csv prints the server's CSV \
            (time,t,progress,status; value for a counter) and --json its JSON, as they came.

            --since and --until take milliseconds since the Unix epoch, a UTC time such as \
            2026-12-02T21:00:00Z, now, or a span back from now: 90s, 15m, 1h, 7d.

            Examples:
              ringcast history main move --since 1h
              ringcast history ci passed --since 7d --points 200 --csv > passed.csv
            """
    )

    @Argument(help: "Board name, e.g. main.")
    var board: String

    @Argument(help: "Ring id, e.g. move.")
    var ring: String

    // Read `.unconditional`ly: a value starting with `-` reaches the server's reading of the query (its words,
    // naming the option) rather than "missing value".
    @Option(
        parsing: .unconditional,
        help: "Start of the span: ms since the Unix epoch, a UTC time, now, or back from now like 1h (default: all kept).")
    var since: String?

    @Option(parsing: .unconditional, help: "End of the span, as --since (default: the newest point, even one a write just made).")
    var until: String?

    @Option(
        parsing: .unconditional,
        help:
            "At most this many points, 2 to \(HistoryRequest.maximumPoints) (default: the server's, \(HistoryRequest.defaultPoints)); more are thinned by M4."
    )
    var points: String?

    @Flag(help: "Print the server's CSV as it came.")
    var csv = false

    @Flag(help: "Print the server's JSON as it came.")
    var json = false

    @OptionGroup var server: ServerOptions

    func validate() throws {
        if csv && json { throw ValidationError("--csv and --json both given; choose one") }
    }

    func run() throws {
        // --csv prints the server's CSV as `show` prints --json: the answer as it came.
        try server.connection().show(try request(), json: csv || json, as: Answer.self) { $0.table }
    }

    /// `GET /api/v1/boards/BOARD/rings/RING/history` with the options given, each checked first by the server's own
    /// reading of the query (`HistoryRequest`, at `now` in milliseconds since the Unix epoch) and refused in its words.
    /// The times go as given: a span back from now is the server's now.
    func request(now: Int64 = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))) throws(CommandFailure) -> APIRequest {
        var query: [URLQueryItem] = []
        if let since { query.append(URLQueryItem(name: "since", value: since)) }
        if let until { query.append(URLQueryItem(name: "until", value: until)) }
        if let points { query.append(URLQueryItem(name: "points", value: points)) }
        do {
            _ = try HistoryRequest(Dictionary(uniqueKeysWithValues: query.map { ($0.name, $0.value ?? "") }), now: now)
        } catch {
            throw CommandFailure("--\(error.field ?? "since"): \(error.message)")
        }
        var request = APIRequest("GET", ["boards", board, "rings", ring, "history"])
        if csv { request.headers["Accept"] = "text/csv" }
        request.query = query
        return request
    }
}

extension HistoryCommand {
    /// The server's JSON answer (`HistoryAnswer` in RingCastCore), as the table needs it.
    struct Answer: Decodable, Equatable {
        var board: String
        var ring: String
        /// `progress` (from 0, 1 = a full turn) or `value` (a counter's number): what each point's number is.
        var field: String
        /// Absent when the span starts at the first point kept.
        var since: Int64?
        /// Absent when the span runs through the newest point (a server that answered with now's time sends it).
        var until: Int64?
        var method: String
        /// How many points the span holds before thinning.
        var kept: Int
        var points: [Point]

        struct Point: Decodable, Equatable {
            /// Milliseconds since the Unix epoch.
            var t: Int64
            var value: Double
            var status: String?

            private enum CodingKeys: String, CodingKey {
                case t, progress, value, status
            }

            init(t: Int64, value: Double, status: String? = nil) {
                self.t = t
                self.value = value
                self.status = status
            }

            /// `{"t":…,"progress":…}` or `{"t":…,"value":…}`, with `status` when the point set one.
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                t = try container.decode(Int64.self, forKey: .t)
                value =
                    try container.decodeIfPresent(Double.self, forKey: .progress)
                    ?? container.decode(Double.self, forKey: .value)
                status = try container.decodeIfPresent(String.self, forKey: .status)
            }
        }

        /// As `ringcast history` prints it: the ring and the span, a line per point (its UTC time, its target as a
        /// percentage, or a counter's number, and its status; the column only when a point has one), and how many of
        /// the span's kept points are shown.
        var table: String {
            let from = since.map { UTCTime.iso(milliseconds: $0) } ?? "the first point kept"
            let to = until.map { UTCTime.iso(milliseconds: $0) } ?? "the newest"
            var text = "board \(board), ring \(ring), from \(from) to \(to)\n"
            if !points.isEmpty {
                let header = ["time", field] + (points.contains { $0.status != nil } ? ["status"] : [])
                let rows = points.map { point in
                    [UTCTime.iso(milliseconds: point.t), number(point.value)] + (point.status.map { [$0] } ?? [])
                }
                text += TextTable(rows: [header] + rows).description
            }
            return text + "\(points.count) of \(kept) kept point\(kept == 1 ? "" : "s") shown (\(method))\n"
        }

        /// A progress as a percentage to two decimals (`42.37%`, `100%`); a counter's number in full (`1234`, `-2.5`).
        private func number(_ value: Double) -> String {
            let shown = field == "progress" ? (value * 10_000).rounded() / 100 : value
            let text = shown == shown.rounded() && abs(shown) < 1e15 ? String(Int64(shown)) : String(shown)
            return field == "progress" ? text + "%" : text
        }
    }
}
