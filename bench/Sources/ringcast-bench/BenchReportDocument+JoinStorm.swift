extension BenchReportDocument {
    /// The watchers' frames per second may be this far from the configured fps.
    static let watcherFrameRateTolerance = 1.0

    /// "## Join storm": the `--scenario join-storm` runs, with their target.
    func joinSection() -> [String] {
        guard let first = joinRuns.first else { return [] }
        var lines: [String] = []
        func add(_ line: String = "") { lines.append(line) }
        let settings = first.settings

        add("## Join storm")
        add()
        let rate = Self.number(settings.joinRate, 0)
        let timeout = Self.number(settings.joinTimeoutSeconds, 0)
        add("\(settings.watchers) watchers (the raw client, \(settings.format) frames) stay connected while \(rate) new viewers")
        add("a second, evenly spaced, connect to the same board; each reads its layout and keyframe, sends a")
        add("close frame and closes (a join without its keyframe after \(timeout) s fails). Ring `\(settings.animatedRing)`")
        add("animates throughout, so the server has a frame to send every tick. A fresh release server, as for")
        let warmup = Self.number(settings.warmupSeconds, 0)
        let duration = Self.number(settings.durationSeconds, 0)
        add("the pushes; after a \(warmup) s warm-up the storm and the measurement last \(duration) s:")
        add()
        lines += Self.commands(joinRuns.map(\.command))
        add()
        add(
            "| watchers (connected) | joins asked / started / completed / failed | joins completed/s (asked) | connect → keyframe p50 / p99 / max | watchers' frames/s mean / min | server frames/s (of \(fps)) | watchers' frame gap p50 / p99 / max | ticks > 16 ms late | server CPU | bench CPU | other processes |"
        )
        add("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for run in joinRuns {
            let joins = run.joins
            let failed = joins.failed.values.reduce(0, +)
            var cells: [String] = []
            cells.append("\(run.settings.watchers) (\(run.watchers.connected))")
            cells.append("\(joins.scheduled) / \(joins.started) / \(joins.completed) / \(failed)")
            cells.append("\(Self.number(joins.completedPerSecond, 1)) (\(Self.number(run.settings.joinRate, 0)))")
            cells.append(Self.milliseconds(joins.latencyMilliseconds, withMax: true))
            cells.append(
                "\(Self.number(run.watchers.framesPerSecond.mean, 1)) / \(Self.number(run.watchers.framesPerSecond.min, 1))")
            cells.append(Self.number(run.watchers.publishedPerSecond, 1))
            cells.append(Self.milliseconds(run.watchers.frameGapMilliseconds, withMax: true))
            cells.append(Self.lateTicks(run.usage))
            lines.append("| " + (cells + Self.cpuCells(run.usage)).joined(separator: " | ") + " |")
        }
        add()
        let tolerance = Self.number(Self.watcherFrameRateTolerance, 0)
        lines += Self.table(
            joinRuns.map { run in
                let rates = run.watchers.framesPerSecond
                // Without a completed join there was no storm to keep the frame rate through.
                let met =
                    run.watchers.measured == run.settings.watchers && run.joins.completed > 0
                    && abs(rates.mean - Double(fps)) <= Self.watcherFrameRateTolerance
                    && abs(rates.min - Double(fps)) <= Self.watcherFrameRateTolerance
                let noJoins = run.joins.completed == 0 ? "; no join completed" : ""
                return Target(
                    name: "\(run.settings.watchers) watchers, \(Self.number(run.settings.joinRate, 0)) joins/s: "
                        + "watchers' frames/s \(fps) ± \(tolerance) (mean and min)",
                    measured: "mean \(Self.number(rates.mean, 1)), min \(Self.number(rates.min, 1))\(noJoins)",
                    met: met
                )
            })
        add()
        for run in joinRuns where run.watchers.publishedPerSecond > Double(fps) + Self.watcherFrameRateTolerance {
            let composed = run.usage.metrics?.framesPublished
            let ticks = run.usage.lateTicks?.ticks
            let counts =
                composed.flatMap { composed in ticks.map { " (`/metrics`: \(composed) frames composed in \($0) ticks)" } } ?? ""
            let published = Self.number(run.watchers.publishedPerSecond, 1)
            add("**During the storm the server published \(published) frames/s, not \(fps)**\(counts): frames composed")
            add("besides the ticks — for a newcomer's greeting, say — reach every watcher too, so the watchers")
            add("receive more than \(fps) frames a second.")
            add()
        }
        for run in joinRuns where !run.joins.failed.isEmpty {
            add("**Failed joins:** \(BenchPushResult.counts(run.joins.failed, prefix: "")).")
            add()
        }
        add("- **joins completed/s**: joins whose keyframe arrived inside the window, divided by its length.")
        add("- **connect → keyframe**: from the newcomer's connect(2) to its keyframe read, over all joins")
        add("  (those completed after the window too).")
        add("- **watchers' frames/s**: frames each watcher received in the window (by `seq`) ÷ its length; mean")
        add("  and lowest over the watchers open when it started. **server frames/s** is the `seq` span over the")
        add("  window; **frame gap** and **ticks > 16 ms late** as for the pushes.")
        add()
        return lines
    }
}
