extension BenchViewerSummary {
    /// Lines for a result's printed table, the label first.
    func rows(_ noun: String) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        rows.append(
            (
                noun,
                "\(requested) requested, \(connected) connected, \(measured) measured, \(droppedDuringWindow) dropped"
            ))
        for (reason, count) in endings.sorted(by: { $0.value > $1.value }).prefix(3) {
            rows.append(("  ended early", "\(count)× \(reason)"))
        }
        rows.append(
            (
                "  frames/s each",
                "min \(BenchResult.format(framesPerSecond.min, 1))  mean \(BenchResult.format(framesPerSecond.mean, 1))  "
                    + "max \(BenchResult.format(framesPerSecond.max, 1)); server published "
                    + "\(framesPublished) (\(BenchResult.format(publishedPerSecond, 1))/s)"
            ))
        rows.append(("  frame gap", BenchResult.describe(frameGapMilliseconds)))
        rows.append(("  delivery", "\(BenchResult.percent(delivery)) of published frames, \(outOfOrder) out of order"))
        return rows
    }
}
