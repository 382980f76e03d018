/// One `ringcast-bench --scenario pushers` run, as printed and as written by `--json` (and read
/// back by `ringcast-bench report`). Rates are per second of the measurement window; times are
/// milliseconds.
struct BenchPushResult: Codable, Sendable {
    static let scenario = BenchScenario.pushers.rawValue

    struct Settings: Codable, Sendable {
        var server: String
        var board: String
        var format: String
        var pushers: Int
        var viewers: Int
        var durationSeconds: Double
        var warmupSeconds: Double
        /// The rings the pushers cycle over.
        var rings: [String]
        /// The ring kept animating so frames flow every tick (not pushed).
        var animatedRing: String
        /// The animation each push asked for (`--push-animation`: none, default or seconds of linear); nil in
        /// results of builds before it, which pushed with none.
        var animation: String?
        /// The server's data directory (`--data-dir`), when the bench was told.
        var dataDirectory: String?
        /// How many boards the pushes were spread over (`--push-boards`); nil in results of builds before it: 1.
        var boards: Int?
        /// What the server measured is called (`--label`, e.g. the previous release); nil: this build.
        var label: String?
    }

    struct Pushes: Codable, Sendable {
        /// 2xx answers read inside the window.
        var acknowledged: Int
        var acknowledgedPerSecond: Double
        /// Other answers read inside the window, by status.
        var rejected: [String: Int]
        /// Pushes that got no answer (connection refused or closed, timeout), by reason.
        var failed: [String: Int]
        /// Request written → 2xx read.
        var latencyMilliseconds: BenchResult.Percentiles
    }

    /// `pushers`: tells this result from the other scenarios' in `ringcast-bench report`.
    var scenario = Self.scenario
    var date: String
    var command: [String]
    var settings: Settings
    /// The filesystem the data directory was on; nil when not told or not found.
    var dataFilesystem: BenchFilesystem?
    var windowSeconds: Double
    /// The bytes of the files in the data directory right after the window (the database, its WAL): what the
    /// pushes left on disk, bounded by the log's retention (`history`); nil without `--data-dir`.
    var dataBytes: Int?
    var pushes: Pushes
    var viewers: BenchViewerSummary
    var usage: BenchUsage
}

extension BenchPushResult.Settings {
    /// The animation each push asked for; `none` for results that do not say.
    var pushAnimation: BenchPushAnimation {
        animation.flatMap(BenchPushAnimation.init(argument:)) ?? .none
    }

    /// How many boards the pushes were spread over; 1 for results that do not say.
    var boardCount: Int { boards ?? 1 }
}
