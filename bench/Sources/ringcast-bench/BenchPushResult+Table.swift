import Foundation

extension BenchPushResult {
    /// The result as printed on standard output: one figure per line.
    var table: String {
        var rows: [(label: String, value: String)] = []
        let filesystem = dataFilesystem.map { "\($0.type) (\($0.source) on \($0.mountPoint))" } ?? "not known (no --data-dir)"
        rows.append(("data directory on", filesystem))
        rows.append(("window", BenchResult.describeWindow(seconds: windowSeconds, warmup: settings.warmupSeconds)))
        rows.append(("animation of each push", settings.pushAnimation.description))
        if let label = settings.label { rows.append(("server", label)) }
        rows.append(
            (
                "pushes acknowledged",
                "\(pushes.acknowledged) (\(BenchResult.format(pushes.acknowledgedPerSecond, 1))/s) by \(settings.pushers) pushers "
                    + "over \(settings.rings.joined(separator: ", "))"
            ))
        rows.append(("  latency", BenchResult.describe(pushes.latencyMilliseconds)))
        rows.append(("  rejected (non-2xx)", Self.counts(pushes.rejected, prefix: "HTTP ")))
        rows.append(("  failed (no answer)", Self.counts(pushes.failed, prefix: "")))
        if let perPush = perPush {
            rows.append(("  server per push", perPush))
        }
        if let dataBytes {
            rows.append(("data directory after", "\(BenchResult.format(Double(dataBytes) / 1_048_576, 1)) MiB"))
        }
        rows += viewers.rows("viewers")
        rows += usage.rows
        return BenchResult.table(
            title: "ringcast-bench --scenario pushers: \(settings.pushers) pushers, \(settings.viewers) viewers of "
                + "\(settings.board) at \(settings.server)",
            rows
        )
    }

    /// The server's CPU time and the bytes it sent to storage, per acknowledged push: "84 µs CPU, 1,210 bytes written".
    var perPush: String? {
        guard let server = usage.server, let cpu = cpuMicrosecondsPerPush else { return nil }
        var text = "\(BenchResult.format(cpu, 0)) µs CPU"
        if let written = server.writtenBytes {
            text += ", \(BenchResult.format(Double(written) / Double(pushes.acknowledged), 0)) bytes written to storage"
        }
        return text
    }

    /// The server's CPU time per acknowledged push, in µs.
    var cpuMicrosecondsPerPush: Double? {
        guard let server = usage.server, pushes.acknowledged > 0 else { return nil }
        return server.cpuPercent / 100 * windowSeconds / Double(pushes.acknowledged) * 1_000_000
    }

    /// How many animations the pushes leave running at once: each acknowledged push starts one (consecutive pushes
    /// to a ring change its value) lasting the run's animation; nil for none, the server's default being 1 s.
    var animationsInFlight: Double? {
        switch settings.pushAnimation {
        case .none: nil
        case .serverDefault: pushes.acknowledgedPerSecond
        case .linear(let seconds): pushes.acknowledgedPerSecond * seconds
        }
    }

    /// "none", or "12× HTTP 503, 3× HTTP 409".
    static func counts(_ counts: [String: Int], prefix: String) -> String {
        guard !counts.isEmpty else { return "none" }
        return counts.sorted { $0.value > $1.value }.prefix(4).map { "\($0.value)× \(prefix)\($0.key)" }
            .joined(separator: ", ")
    }
}
