/// One `ringcast-bench --scenario join-storm` run, as printed and as written by `--json` (and read
/// back by `ringcast-bench report`). Rates are per second of the measurement window; times are
/// milliseconds.
struct BenchJoinResult: Codable, Sendable {
    static let scenario = BenchScenario.joinStorm.rawValue

    struct Settings: Codable, Sendable {
        var server: String
        var board: String
        var format: String
        /// Viewers that stay connected through the storm.
        var watchers: Int
        /// New viewers a second asked for.
        var joinRate: Double
        var durationSeconds: Double
        var warmupSeconds: Double
        var joinTimeoutSeconds: Double
        var animatedRing: String
        var dataDirectory: String?
    }

    struct Joins: Codable, Sendable {
        /// join rate × window: the joins asked for.
        var scheduled: Int
        var started: Int
        /// Joins that received their keyframe, during the window or after it.
        var completed: Int
        /// Keyframes received inside the window, per second of it.
        var completedPerSecond: Double
        /// Joins that ended without a keyframe, by reason.
        var failed: [String: Int]
        /// connect(2) issued → keyframe received.
        var latencyMilliseconds: BenchResult.Percentiles
        /// connect(2) issued → layout received.
        var layoutMilliseconds: BenchResult.Percentiles
    }

    /// `join-storm`: tells this result from the other scenarios' in `ringcast-bench report`.
    var scenario = Self.scenario
    var date: String
    var command: [String]
    var settings: Settings
    var dataFilesystem: BenchFilesystem?
    var windowSeconds: Double
    var joins: Joins
    /// The viewers that stayed connected.
    var watchers: BenchViewerSummary
    var usage: BenchUsage
}
