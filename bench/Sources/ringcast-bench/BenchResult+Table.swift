import Foundation

extension BenchResult {
    /// The result as printed on standard output: one figure per line.
    var table: String {
        var rows: [(label: String, value: String)] = []
        func add(_ label: String, _ value: String) { rows.append((label, value)) }

        rows += Self.viewerRows(
            "viewers", requested: viewers.requested, connected: viewers.connected, measured: viewers.measured,
            dropped: viewers.droppedDuringWindow, endings: viewers.endings)
        add(
            "window",
            Self.describeWindow(seconds: window.seconds, warmup: settings.warmupSeconds) + "; "
                + "server published \(window.framesPublished) frames (\(Self.format(window.publishedPerSecond, 1))/s)"
        )
        let rates = framesPerSecondPerViewer
        add(
            "frames/s per viewer",
            "min \(Self.format(rates.min, 1))  median \(Self.format(rates.median, 1))  max \(Self.format(rates.max, 1))"
        )
        add(
            "delivery",
            "\(Self.percent(delivery.ratio)) of published frames (worst viewer \(Self.percent(delivery.minViewer)); "
                + "\(delivery.outOfOrder) out of order, \(delivery.unreadableMessages) unreadable)"
        )
        let latency = latencyMilliseconds
        add(
            "push→frame latency",
            Self.describe(latency.fromResponse)
                + " (\(latency.probes) pushes × \(latency.viewersSampled) viewers, \(latency.missed) missed)"
        )
        add("  from request sent", Self.describe(latency.fromRequest))
        add("  push round trip", Self.describe(latency.pushRoundTrip))
        add("bytes per viewer", "\(Self.format(bytesPerViewerPerSecond / 1024, 1)) KiB/s")
        if let server { rows.append(Self.describeServer(server)) }
        if let cluster { rows += Self.clusterRows(cluster) }
        add("bench client", Self.describeBench(bench))
        if let machineCPUPercent {
            add(
                "machine",
                Self.describeMachine(
                    cpuPercent: machineCPUPercent, otherProcessesPercent: otherProcessesCPUPercent, loadAverage: loadAverage)
            )
        }
        if let metrics {
            add("/metrics delta", Self.describe(metrics))
        } else {
            add("/metrics delta", settings.watchOnly ? "not read (--watch-only)" : "not available (GET /metrics failed)")
        }
        let title =
            "ringcast-bench: \(settings.viewers) viewers of \(settings.board) (\(settings.format), \(settings.client) client) "
            + "at \(settings.server)"
        return Self.table(title: title, rows)
    }

    /// `rows` under `title`, labels padded to one width.
    static func table(title: String, _ rows: [(label: String, value: String)]) -> String {
        let width = rows.map(\.label.count).max() ?? 0
        return title + "\n"
            + rows.map { "  \($0.label.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.value)\n" }.joined()
    }

    /// "`noun`: 5 requested, 5 connected, 5 measured, 0 dropped", then the commonest reasons viewers
    /// ended early.
    static func viewerRows(
        _ noun: String, requested: Int, connected: Int, measured: Int, dropped: Int, endings: [String: Int]
    ) -> [(label: String, value: String)] {
        var rows = [
            (label: noun, value: "\(requested) requested, \(connected) connected, \(measured) measured, \(dropped) dropped")
        ]
        for (reason, count) in endings.sorted(by: { $0.value > $1.value }).prefix(3) {
            rows.append(("  ended early", "\(count)× \(reason)"))
        }
        return rows
    }

    /// What `--cluster` adds: per node its viewers, delivery, pushes and process; push→frame on the
    /// node that answered the push and on the others; the frames compared across nodes.
    static func clusterRows(_ cluster: Cluster) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        for node in cluster.nodes {
            let process = node.process.map {
                "; CPU \(format($0.cpuPercent, 1)) % of one core, RSS \(format($0.rssEndMiB, 1)) MiB"
            }
            rows.append(
                (
                    "  node \(node.name ?? "?") (pid \(node.pid))",
                    "\(node.viewers) viewers, delivery \(percent(node.delivery)), \(node.pushes) pushes answered"
                        + (process ?? "")
                ))
            if let metrics = node.metrics {
                rows.append(("    its /metrics", describe(metrics)))
            }
        }
        if cluster.unattributedViewers > 0 {
            rows.append(("  on no node", "\(cluster.unattributedViewers) measured viewers (closed before they were attributed)"))
        }
        rows.append(("push→frame, same node", describe(cluster.sameNode)))
        rows.append(("push→frame, other node", describe(cluster.otherNode)))
        let frames = cluster.frames
        let identical = frames.compared > 0 ? percent(Double(frames.identical) / Double(frames.compared)) : "—"
        rows.append(
            (
                "frames across nodes",
                "\(frames.identical) of \(frames.compared) (seq, kind) identical (\(identical)); "
                    + "\(frames.viewers) viewers recorded (\(frames.viewersByNode.map(String.init).joined(separator: " / ")) by node)"
            ))
        for difference in frames.firstDifferences { rows.append(("  differed", difference)) }
        return rows
    }

    /// "composed 1200 frames, 3 of 1200 ticks > 16 ms late, late updates 0, catch-ups 0, digest mismatches 0".
    static func describe(_ metrics: Cluster.NodeMetrics) -> String {
        func count(_ value: Int?) -> String { value.map(String.init) ?? "?" }
        let late = metrics.lateTicks.map { "\($0.late) of \($0.ticks) ticks > \(format($0.thresholdMilliseconds, 0)) ms late" }
        return
            "composed \(count(metrics.framesComposed)) frames, \(late ?? "late ticks ?"), late updates \(count(metrics.lateUpdates)), "
            + "catch-ups \(count(metrics.catchUps)), digest mismatches \(count(metrics.digestMismatches))"
    }

    /// "server (pid 12)", "CPU 61.2 % of one core; RSS 31.1 → 31.1 MiB"; several processes summed
    /// have no pid.
    static func describeServer(_ server: Process) -> (label: String, value: String) {
        (
            server.pid.map { "server (pid \($0))" } ?? "server (all nodes)",
            "CPU \(format(server.cpuPercent, 1)) % of one core; "
                + "RSS \(format(server.rssStartMiB, 1)) → \(format(server.rssEndMiB, 1)) MiB"
        )
    }

    /// "CPU 41.0 % of one core; RSS 28.1 MiB".
    static func describeBench(_ bench: Process) -> String {
        "CPU \(format(bench.cpuPercent, 1)) % of one core; RSS \(format(bench.rssEndMiB, 1)) MiB"
    }

    /// "CPU 51.9 % busy (all cores); other processes 0.0 % of one core; load 1.07 1.14 1.46".
    static func describeMachine(cpuPercent: Double, otherProcessesPercent: Double?, loadAverage: [Double]?) -> String {
        let load = loadAverage.map { "; load \($0.map { format($0, 2) }.joined(separator: " "))" } ?? ""
        return "CPU \(format(cpuPercent, 1)) % busy (all cores); "
            + "other processes \(format(otherProcessesPercent ?? 0, 1)) % of one core" + load
    }

    /// "frames skipped 0, viewers evicted 0, frames composed 1081".
    static func describe(_ metrics: MetricsDelta) -> String {
        func count(_ value: Int?) -> String { value.map(String.init) ?? "?" }
        return "frames skipped \(count(metrics.framesSkipped)), viewers evicted \(count(metrics.viewersEvicted)), "
            + "frames composed \(count(metrics.framesPublished))"
    }

    /// "20.0 s after 3.0 s warm-up".
    static func describeWindow(seconds: Double, warmup: Double) -> String {
        "\(format(seconds, 1)) s after \(format(warmup, 1)) s warm-up"
    }

    /// "p50 … p99 … max …" for the table, or "no samples".
    static func describe(_ samples: Percentiles) -> String {
        guard let p50 = samples.p50, let p99 = samples.p99, let max = samples.max else { return "no samples" }
        return "p50 \(format(p50, 1)) ms  p99 \(format(p99, 1)) ms  max \(format(max, 1)) ms  (\(samples.count) samples)"
    }

    static func format(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
    }

    static func percent(_ ratio: Double) -> String {
        format(ratio * 100, 2) + " %"
    }
}
