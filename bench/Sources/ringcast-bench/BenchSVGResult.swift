/// One `ringcast-bench --scenario svg-flood` run, as printed and as written by `--json` (and read back by
/// `ringcast-bench report`). Rates are per second of the measurement window; times are milliseconds.
struct BenchSVGResult: Codable, Sendable {
    static let scenario = BenchScenario.svgFlood.rawValue
    /// The viewers' frame gap p99 a flood of SVG GETs must leave them (issue 30).
    static let frameGapTargetMilliseconds = 25.0

    struct Settings: Codable, Sendable {
        var server: String
        /// The board the viewers watch.
        var board: String
        var format: String
        /// The board whose SVG is fetched, and its rings.
        var svgBoard: String
        var rings: Int
        var clients: Int
        var viewers: Int
        var durationSeconds: Double
        var warmupSeconds: Double
        var animatedRing: String
    }

    struct Fetches: Codable, Sendable {
        /// 2xx answers read inside the window.
        var answered: Int
        var answeredPerSecond: Double
        var rejected: [String: Int]
        var failed: [String: Int]
        /// Request written → whole answer read.
        var latencyMilliseconds: BenchResult.Percentiles
    }

    var scenario = Self.scenario
    var date: String
    var command: [String]
    var settings: Settings
    /// The size of the SVG document fetched.
    var documentBytes: Int
    var windowSeconds: Double
    var fetches: Fetches
    var viewers: BenchViewerSummary
    var usage: BenchUsage

    /// Whether the viewers' frame gap p99 is within the target.
    var metTarget: Bool {
        viewers.measured > 0 && fetches.answered > 0
            && (viewers.frameGapMilliseconds.p99 ?? .infinity) <= Self.frameGapTargetMilliseconds
    }

    /// The result as printed on standard output: one figure per line.
    var table: String {
        var rows: [(label: String, value: String)] = []
        rows.append(("window", BenchResult.describeWindow(seconds: windowSeconds, warmup: settings.warmupSeconds)))
        rows.append(("SVG of \(settings.svgBoard)", "\(settings.rings) rings, \(documentBytes) bytes"))
        rows.append(
            (
                "GETs answered",
                "\(fetches.answered) (\(BenchResult.format(fetches.answeredPerSecond, 1))/s) by \(settings.clients) clients"
            ))
        rows.append(("  latency", BenchResult.describe(fetches.latencyMilliseconds)))
        rows.append(("  rejected (non-2xx)", BenchPushResult.counts(fetches.rejected, prefix: "HTTP ")))
        rows.append(("  failed (no answer)", BenchPushResult.counts(fetches.failed, prefix: "")))
        rows += viewers.rows("viewers of \(settings.board)")
        let p99 = viewers.frameGapMilliseconds.p99.map { BenchResult.format($0, 1) } ?? "?"
        rows.append(
            (
                "  frame gap p99 target",
                "≤ \(BenchResult.format(Self.frameGapTargetMilliseconds, 0)) ms: \(p99) ms, \(metTarget ? "met" : "NOT met")"
            ))
        rows += usage.rows
        return BenchResult.table(
            title: "ringcast-bench --scenario svg-flood: \(settings.clients) clients fetching \(settings.svgBoard).svg, "
                + "\(settings.viewers) viewers of \(settings.board) at \(settings.server)",
            rows
        )
    }
}
