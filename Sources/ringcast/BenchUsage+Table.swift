import Foundation

extension BenchUsage {
    /// Lines for a result's printed table, the label first.
    var rows: [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        if let server {
            rows.append(
                (
                    "server (pid \(server.pid.map(String.init) ?? "?"))",
                    "CPU \(BenchResult.format(server.cpuPercent, 1)) % of one core; "
                        + "RSS \(BenchResult.format(server.rssStartMiB, 1)) → \(BenchResult.format(server.rssEndMiB, 1)) MiB"
                ))
        }
        rows.append(
            (
                "bench",
                "CPU \(BenchResult.format(bench.cpuPercent, 1)) % of one core; RSS \(BenchResult.format(bench.rssEndMiB, 1)) MiB"
            ))
        if let machineCPUPercent {
            let load = loadAverage.map { "; load \($0.map { BenchResult.format($0, 2) }.joined(separator: " "))" } ?? ""
            rows.append(
                (
                    "machine",
                    "CPU \(BenchResult.format(machineCPUPercent, 1)) % busy (all cores); "
                        + "other processes \(BenchResult.format(otherProcessesCPUPercent ?? 0, 1)) % of one core" + load
                ))
        }
        rows.append(("late ticks", lateTicksDescription))
        if let metrics {
            func count(_ value: Int?) -> String { value.map(String.init) ?? "?" }
            rows.append(
                (
                    "/metrics delta",
                    "frames skipped \(count(metrics.framesSkipped)), viewers evicted \(count(metrics.viewersEvicted)), "
                        + "frames composed \(count(metrics.framesPublished))"
                ))
        }
        return rows
    }

    /// `rows` under `title`, labels padded to one width.
    static func table(title: String, _ rows: [(label: String, value: String)]) -> String {
        let width = rows.map(\.label.count).max() ?? 0
        return title + "\n"
            + rows.map { "  \($0.label.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.value)\n" }.joined()
    }
}
