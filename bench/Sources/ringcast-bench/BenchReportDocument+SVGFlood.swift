extension BenchReportDocument {
    /// "## SVG flood": the `--scenario svg-flood` runs, with their target.
    func svgSection() -> [String] {
        guard let first = svgRuns.first else { return [] }
        var lines: [String] = []
        func add(_ line: String = "") { lines.append(line) }
        let settings = first.settings
        add("## SVG flood")
        add()
        add("A board of \(settings.rings) rings (`limits.maxRingsPerBoard`, each ring at its own progress) is created and")
        add("\(settings.clients) clients (HTTP/1.1 keep-alive, one thread each) GET its SVG in a loop, each asking again as")
        add("soon as the last answer is read, while \(settings.viewers) viewer(s) of `\(settings.board)` (ring")
        add("`\(settings.animatedRing)` animating, so a frame is due every tick) measure the gaps between their frames.")
        add("The document is composed off the event loop and kept while it is the picture, so the loop only")
        add("looks it up and hands its bytes to the transport. A fresh release server; after a")
        add(
            "\(Self.number(settings.warmupSeconds, 0)) s warm-up the flood and the measurement last \(Self.number(settings.durationSeconds, 0)) s:"
        )
        add()
        lines += Self.commands(svgRuns.map(\.command))
        add()
        add(
            "| rings (SVG bytes) | clients | GETs answered/s | GET latency p50 / p99 / max | viewers' frames/s mean / min | viewers' frame gap p50 / p99 / max | ticks > 16 ms late | server CPU | bench CPU | other processes |"
        )
        add("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for run in svgRuns {
            var cells: [String] = []
            cells.append("\(run.settings.rings) (\(run.documentBytes))")
            cells.append("\(run.settings.clients)")
            cells.append(Self.number(run.fetches.answeredPerSecond, 1))
            cells.append(Self.milliseconds(run.fetches.latencyMilliseconds, withMax: true))
            cells.append(
                "\(Self.number(run.viewers.framesPerSecond.mean, 1)) / \(Self.number(run.viewers.framesPerSecond.min, 1))")
            cells.append(Self.milliseconds(run.viewers.frameGapMilliseconds, withMax: true))
            cells.append(Self.lateTicks(run.usage))
            lines.append("| " + (cells + Self.cpuCells(run.usage)).joined(separator: " | ") + " |")
        }
        add()
        lines += Self.table(
            svgRuns.map { run in
                Target(
                    name: "\(run.settings.clients) clients fetching a \(run.settings.rings)-ring SVG: viewers' frame gap p99 "
                        + "≤ \(Self.number(BenchSVGResult.frameGapTargetMilliseconds, 0)) ms",
                    measured: run.viewers.frameGapMilliseconds.p99.map { Self.number($0, 1) + " ms" } ?? "no frames",
                    met: run.metTarget)
            })
        add()
        return lines
    }
}
