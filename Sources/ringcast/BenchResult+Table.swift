import Foundation

extension BenchResult {
    /// The result as printed on standard output: one figure per line.
    var table: String {
        var rows: [(label: String, value: String)] = []
        func add(_ label: String, _ value: String) { rows.append((label, value)) }

        add(
            "viewers",
            "\(viewers.requested) requested, \(viewers.connected) connected, \(viewers.measured) measured, "
                + "\(viewers.droppedDuringWindow) dropped"
        )
        for (reason, count) in viewers.endings.sorted(by: { $0.value > $1.value }).prefix(3) {
            add("  ended early", "\(count)× \(reason)")
        }
        add(
            "window",
            "\(Self.format(window.seconds, 1)) s after \(Self.format(settings.warmupSeconds, 1)) s warm-up; "
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
        if let server {
            add(
                "server (pid \(server.pid.map(String.init) ?? "?"))",
                "CPU \(Self.format(server.cpuPercent, 1)) % of one core; "
                    + "RSS \(Self.format(server.rssStartMiB, 1)) → \(Self.format(server.rssEndMiB, 1)) MiB"
            )
        }
        add("bench client", "CPU \(Self.format(bench.cpuPercent, 1)) % of one core; RSS \(Self.format(bench.rssEndMiB, 1)) MiB")
        if let machineCPUPercent {
            let load = loadAverage.map { "; load \($0.map { Self.format($0, 2) }.joined(separator: " "))" } ?? ""
            add(
                "machine",
                "CPU \(Self.format(machineCPUPercent, 1)) % busy (all cores); "
                    + "other processes \(Self.format(otherProcessesCPUPercent ?? 0, 1)) % of one core" + load
            )
        }
        if let metrics {
            func count(_ value: Int?) -> String { value.map(String.init) ?? "?" }
            add(
                "/metrics delta",
                "frames skipped \(count(metrics.framesSkipped)), viewers evicted \(count(metrics.viewersEvicted)), "
                    + "frames composed \(count(metrics.framesPublished))"
            )
        } else {
            add("/metrics delta", settings.watchOnly ? "not read (--watch-only)" : "not available (GET /metrics failed)")
        }

        let width = rows.map(\.label.count).max() ?? 0
        let title =
            "ringcast bench: \(settings.viewers) viewers of \(settings.board) (\(settings.format), \(settings.client) client) "
            + "at \(settings.server)\n"
        return title + rows.map { "  \($0.label.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.value)\n" }.joined()
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
