/// Where the machine's time went over a load scenario's window, and what the server's `/metrics`
/// said about it: both sides' CPU and memory, everything else running, ticks run late.
struct BenchUsage: Codable, Sendable {
    var server: BenchResult.Process?
    var bench: BenchResult.Process
    /// Busy time of all CPUs over the window, as % of the whole machine.
    var machineCPUPercent: Double?
    /// CPU time of every other process over the window, as % of one core.
    var otherProcessesCPUPercent: Double?
    /// /proc/loadavg (1, 5, 15 minutes) when the window started.
    var loadAverage: [Double]?
    /// `GET /metrics` after the window minus before it; nil when /metrics could not be read.
    var metrics: BenchResult.MetricsDelta?
    /// Ticks more than 16 ms late over the window; nil when /metrics could not be read or has no
    /// `ringcast_tick_lateness_seconds` histogram.
    var lateTicks: BenchLateTicks?

    /// Ticks later than this count as late.
    static let lateTickThresholdSeconds = 0.016

    init(_ window: BenchWindow, serverPIDs: [Int]) {
        let usage = window.usage(serverPIDs: serverPIDs)
        server = usage.server
        bench = usage.bench
        machineCPUPercent = usage.machinePercent
        otherProcessesCPUPercent = usage.othersPercent
        loadAverage = window.loadAverage
        metrics = window.metricsDelta
        if let before = window.start.metrics, let after = window.end.metrics {
            lateTicks = BenchMetrics.lateTicks(before, after, threshold: Self.lateTickThresholdSeconds)
        }
    }

    /// "12 of 600 ticks more than 16 ms late", or why that is unknown.
    var lateTicksDescription: String {
        if let lateTicks {
            return "\(lateTicks.late) of \(lateTicks.ticks) ticks more than "
                + "\(BenchResult.format(lateTicks.thresholdMilliseconds, 0)) ms late"
        }
        return metrics == nil
            ? "unknown (GET /metrics failed)" : "unknown (the server exports no ringcast_tick_lateness_seconds histogram)"
    }
}
