/// One measurement window and what was read at its edges. Opening it reads `/metrics`, the load
/// average and CPU times, then the clock and the recorder's newest `seq`; closing it reads the
/// clock and `seq`, then CPU times and `/metrics`: every scenario in the same order, so the slow
/// readings stand outside the clock's.
struct BenchWindow {
    struct Edge {
        /// BenchSystem.now().
        var time: UInt64
        /// The newest `seq` a viewer had seen.
        var seq: UInt64
        var cpu: BenchCPUSample
        var metrics: BenchMetrics?
    }

    var start: Edge
    var end: Edge
    /// /proc/loadavg (1, 5, 15 minutes) when the window opened.
    var loadAverage: [Double]?

    /// Opens the window on `recorder`, runs `body` with its start time, and closes it when `body`
    /// returns. `metrics` reads `/metrics` (nil when it cannot be read).
    init(
        recorder: BenchRecorder, serverPIDs: [String], metrics: () -> BenchMetrics?,
        during body: (_ start: UInt64) throws(BenchFailure) -> Void
    ) throws(BenchFailure) {
        let metricsBefore = metrics()
        loadAverage = BenchSystem.loadAverage()
        let cpuBefore = try BenchCPUSample(serverPIDs: serverPIDs)
        let startTime = BenchSystem.now()
        start = Edge(time: startTime, seq: recorder.startWindow(), cpu: cpuBefore, metrics: metricsBefore)

        try body(startTime)

        let endTime = BenchSystem.now()
        let endSeq = recorder.endWindow()
        let cpuAfter = try BenchCPUSample(serverPIDs: serverPIDs)
        end = Edge(time: endTime, seq: endSeq, cpu: cpuAfter, metrics: metrics())
    }

    var seconds: Double { Double(end.time - start.time) / 1e9 }

    /// Each side's CPU over the window.
    func usage(serverPIDs: [Int]) -> BenchCPUSample.Usage {
        BenchCPUSample.usage(from: start.cpu, to: end.cpu, seconds: seconds, serverPIDs: serverPIDs)
    }

    /// `/metrics` at the end minus at the start; nil when either could not be read.
    var metricsDelta: BenchResult.MetricsDelta? {
        guard let before = start.metrics, let after = end.metrics else { return nil }
        return BenchMetrics.delta(before, after)
    }
}
