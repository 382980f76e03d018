extension BenchJoinResult {
    /// The result as printed on standard output: one figure per line.
    var table: String {
        var rows: [(label: String, value: String)] = []
        rows.append(("window", BenchResult.describeWindow(seconds: windowSeconds, warmup: settings.warmupSeconds)))
        rows.append(
            (
                "joins",
                "\(joins.scheduled) asked for (\(BenchResult.format(settings.joinRate, 0))/s), \(joins.started) started, "
                    + "\(joins.completed) completed (\(BenchResult.format(joins.completedPerSecond, 1))/s in the window)"
            ))
        rows.append(("  connect → keyframe", BenchResult.describe(joins.latencyMilliseconds)))
        rows.append(("  connect → layout", BenchResult.describe(joins.layoutMilliseconds)))
        rows.append(("  failed", BenchPushResult.counts(joins.failed, prefix: "")))
        rows += watchers.rows("watchers")
        rows += usage.rows
        return BenchResult.table(
            title: "ringcast-bench --scenario join-storm: \(settings.watchers) watchers of \(settings.board), "
                + "\(BenchResult.format(settings.joinRate, 0)) joins/s at \(settings.server)",
            rows
        )
    }
}
