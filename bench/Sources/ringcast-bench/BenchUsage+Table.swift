extension BenchUsage {
    /// Lines for a result's printed table, the label first.
    var rows: [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        if let server { rows.append(BenchResult.describeServer(server)) }
        rows.append(("bench", BenchResult.describeBench(bench)))
        if let machineCPUPercent {
            rows.append(
                (
                    "machine",
                    BenchResult.describeMachine(
                        cpuPercent: machineCPUPercent, otherProcessesPercent: otherProcessesCPUPercent, loadAverage: loadAverage)
                ))
        }
        rows.append(("late ticks", lateTicksDescription))
        if let metrics { rows.append(("/metrics delta", BenchResult.describe(metrics))) }
        return rows
    }
}
