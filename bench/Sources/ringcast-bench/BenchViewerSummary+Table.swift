extension BenchViewerSummary {
    /// Lines for a result's printed table, the label first.
    func rows(_ noun: String) -> [(label: String, value: String)] {
        var rows = BenchResult.viewerRows(
            noun, requested: requested, connected: connected, measured: measured, dropped: droppedDuringWindow, endings: endings)
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
