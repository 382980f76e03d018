/// One `ringcast-bench` run, as printed and as written by `--json` (and read back by
/// `ringcast-bench report`). Rates are per second of the measurement window, which starts after
/// the warm-up; times are milliseconds, memory MiB.
struct BenchResult: Codable, Sendable {
    struct Settings: Codable, Sendable {
        var server: String
        var board: String
        var format: String
        /// The viewer client: `raw` (the bench's own receive-only client) or `lws` (libwebsockets).
        var client: String
        var viewers: Int
        var pushIntervalSeconds: Double
        var durationSeconds: Double
        var warmupSeconds: Double
        var latencyViewers: Int
        var probeRing: String
        var animatedRing: String
        /// Viewers only, no pushes (`--watch-only`): a run against bench/baseline's broadcaster.
        var watchOnly: Bool
    }

    struct Viewers: Codable, Sendable {
        var requested: Int
        var connected: Int
        /// Open when the window started: the viewers every figure below is about.
        var measured: Int
        /// Measured viewers whose connection ended before the window did.
        var droppedDuringWindow: Int
        /// Why connections failed or ended early, with how many.
        var endings: [String: Int]
    }

    struct Window: Codable, Sendable {
        var seconds: Double
        /// `seq` span over the window: frames the server published to the board.
        var framesPublished: Int
        var publishedPerSecond: Double
    }

    struct Spread: Codable, Sendable {
        var min: Double
        var median: Double
        var max: Double
    }

    struct Delivery: Codable, Sendable {
        /// Frames received ÷ (measured viewers × frames published), over the window.
        var ratio: Double
        /// The worst single viewer's ratio.
        var minViewer: Double
        /// Frames that arrived with a `seq` not above the previous one (must be 0).
        var outOfOrder: Int
        /// Messages the frame reader could not classify (must be 0).
        var unreadableMessages: Int
    }

    /// Nearest-rank percentiles of a set of samples, in milliseconds.
    struct Percentiles: Codable, Sendable {
        var count: Int
        var p50: Double?
        var p99: Double?
        var max: Double?
        var min: Double?
    }

    struct Latency: Codable, Sendable {
        var viewersSampled: Int
        /// Probes whose 2xx was read inside the window.
        var probes: Int
        /// (sampled viewer, probe) pairs that never saw the probe's value (the viewer skipped every
        /// frame that showed it).
        var missed: Int
        /// Push-to-frame: from reading the push's 2xx to a viewer receiving the first frame that
        /// shows the value, over (sampled viewer, probe) pairs. Negative when the frame arrived
        /// before the bench had read the 2xx.
        var fromResponse: Percentiles
        /// The same frames, timed from when the push request was sent.
        var fromRequest: Percentiles
        /// The push itself: request sent to 2xx read (the server stores it durably first).
        var pushRoundTrip: Percentiles
    }

    struct Process: Codable, Sendable {
        var pid: Int?
        /// CPU time over the window, as % of one core (200 = two cores busy).
        var cpuPercent: Double
        var rssStartMiB: Double
        var rssEndMiB: Double
        /// Bytes it caused to be written to storage over the window (/proc/PID/io `write_bytes`), when readable.
        var writtenBytes: UInt64?
    }

    /// `--cluster`: the server was one or several cluster nodes sharing one port. Viewers and
    /// pushes are attributed to the node whose process holds their connection.
    struct Cluster: Codable, Sendable {
        struct Node: Codable, Sendable {
            /// Its name on its `/metrics` (`ringcast_cluster_node_info`), when it has one.
            var name: String?
            var pid: Int
            /// Measured viewers it held.
            var viewers: Int
            /// Frames its measured viewers received ÷ (its viewers × frames published).
            var delivery: Double
            /// Probes it answered inside the window.
            var pushes: Int
            var process: Process?
            /// Its `/metrics` after the window minus before it (nil when either could not be read).
            var metrics: NodeMetrics?
        }

        struct NodeMetrics: Codable, Sendable {
            var framesComposed: Int?
            var lateTicks: BenchLateTicks?
            var lateUpdates: Int?
            var catchUps: Int?
            var digestMismatches: Int?
        }

        /// Frames of the same `seq` and kind (keyframe or delta) received by the recorded viewers.
        struct FrameComparison: Codable, Sendable {
            /// Recorded viewers, and how many of them each node held.
            var viewers: Int
            var viewersByNode: [Int]
            /// (`seq`, kind) pairs received on at least two nodes.
            var compared: Int
            /// Of those, the ones whose every copy, on every node, had the same bytes.
            var identical: Int
            /// The first pairs that differed, each with its versions: their length and the nodes
            /// (and how many recorded viewers there) that received them.
            var firstDifferences: [String]
        }

        var nodes: [Node]
        /// Measured viewers whose connection no node's process held when they were attributed.
        var unattributedViewers: Int
        /// Push→frame from the 2xx for viewers on the node that answered the push.
        var sameNode: Percentiles
        /// The same for viewers on another node.
        var otherNode: Percentiles
        var frames: FrameComparison
    }

    struct MetricsDelta: Codable, Sendable {
        var framesSkipped: Int?
        var viewersEvicted: Int?
        var framesPublished: Int?
    }

    var date: String
    var command: [String]
    var settings: Settings
    var viewers: Viewers
    var window: Window
    var framesPerSecondPerViewer: Spread
    var delivery: Delivery
    var latencyMilliseconds: Latency
    var bytesPerViewerPerSecond: Double
    var server: Process?
    var bench: Process
    /// Busy time of all CPUs over the window, as % of the whole machine.
    var machineCPUPercent: Double?
    /// CPU time of every other process over the window, as % of one core: a busy neighbour on a
    /// shared machine shows here.
    var otherProcessesCPUPercent: Double?
    /// /proc/loadavg (1, 5, 15 minutes) when the window started.
    var loadAverage: [Double]?
    /// `GET /metrics` after the window minus before it, summed over the nodes of a cluster; nil
    /// when /metrics could not be read.
    var metrics: MetricsDelta?
    /// Only with `--cluster`.
    var cluster: Cluster?
}
