extension BenchReportDocument {
    /// Acknowledged pushes a second the run on disk must reach.
    static let pushesPerSecondTarget = 5000.0
    /// The run on disk may be this many times slower than the run on tmpfs at most.
    static let diskSlowdownLimit = 1.5
    /// The viewers' frame gap p99 may be this long at most while the pushes come in.
    static let frameGapLimitMilliseconds = 20.0
    /// Pushes with long animations must reach this share of the pushes with none at least.
    static let longAnimationShare = 0.9
    /// Server CPU per push with long animations in flight may be this many times that with none at most.
    static let flatCPULimit = 1.2

    /// "## Push throughput": the `--scenario pushers` runs side by side, with their targets.
    func pushSection() -> [String] {
        guard let first = pushRuns.first else { return [] }
        var lines: [String] = []
        func add(_ line: String = "") { lines.append(line) }
        let settings = first.settings
        let rings = settings.rings.map { "`\($0)`" }.joined(separator: ", ")

        add("## Push throughput")
        add()
        add("\(settings.pushers) clients, each on its own thread with one HTTP/1.1 keep-alive connection, push")
        add("`PUT /api/v1/boards/\(settings.board)/rings/R` with `{\"progress\":X}` and the run's animation (`\"none\"`, no key")
        add("for the server's default, or `{\"curve\":\"linear\",\"duration\":S}`), one after the other, as fast as the")
        add("server answers, cycling over \(rings):")
        add("every plain ring but `\(settings.animatedRing)`, which is kept animating so that the server composes a frame")
        add("every tick. Meanwhile \(settings.viewers) viewers (the raw client, \(settings.format) frames) watch the board.")
        if let other = pushRuns.first(where: { $0.settings.label != nil })?.settings.label {
            add("Runs whose server is not \"this build\" ran \(other) (`make bench BENCH_PREVIOUS=REF`: built from")
            add("that commit, with its own `config/ringcast.json`) in the same `make bench`, so the two builds meet the")
            add("same machine and load client; the targets are this build's.")
        }
        if pushRuns.contains(where: { $0.settings.boardCount > 1 }) {
            add("A run over N boards pushes to the board and to `bench-2` … `bench-N`, made from the `main` template")
            add("before it (`--push-boards`), cycling over every ring of every board; the viewers watch the board.")
        }
        add("Each run had a fresh release server with a copy of `config/ringcast.json` whose")
        add(
            "`limits.writesPerMinute` is 0 (no rate limit), `limits.maxViewers` 100000 and `limits.maxBoards` 1000, its data directory"
        )
        add("on the filesystem named in the first column (the bench's `--data-dir` says where it was). After")
        let warmup = Self.number(settings.warmupSeconds, 0)
        add("a \(warmup) s warm-up the bench measured for \(Self.number(settings.durationSeconds, 0)) s:")
        add()
        lines += Self.commands(pushRuns.map(\.command))
        add()
        add("\"Server per push\" is the server's CPU time and the bytes it wrote to storage (`/proc/PID/io`) per acknowledged")
        add("push; \"data directory after\" the size of its files (the database and its WAL) right after the window, which")
        add("the change log's retention bounds however long the flood (`history`, docs/STORAGE.md).")
        add()
        add(
            "| server | data directory on | animation of each push | boards | pushers | viewers (connected) | acknowledged pushes/s | non-2xx / no answer | push latency p50 / p99 / max | viewers' frame gap p50 / p99 / max | server per push | data directory after | server frames/s (of \(fps)) | ticks > 16 ms late | server CPU | bench CPU | other processes |"
        )
        add("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for run in pushRuns {
            let rejected = run.pushes.rejected.values.reduce(0, +)
            let failed = run.pushes.failed.values.reduce(0, +)
            var cells: [String] = []
            cells.append(run.settings.label ?? "this build")
            cells.append(Self.filesystem(run.dataFilesystem))
            cells.append(run.settings.pushAnimation.description)
            cells.append("\(run.settings.boardCount)")
            cells.append("\(run.settings.pushers)")
            cells.append("\(run.settings.viewers) (\(run.viewers.connected))")
            cells.append(Self.thousands(run.pushes.acknowledgedPerSecond))
            cells.append("\(rejected) / \(failed)")
            cells.append(Self.milliseconds(run.pushes.latencyMilliseconds, withMax: true))
            cells.append(Self.milliseconds(run.viewers.frameGapMilliseconds, withMax: true))
            cells.append(run.perPush ?? "not measured")
            cells.append(run.dataBytes.map { "\(Self.number(Double($0) / 1_048_576, 1)) MiB" } ?? "not measured")
            cells.append(Self.number(run.viewers.publishedPerSecond, 1))
            cells.append(Self.lateTicks(run.usage))
            lines.append("| " + (cells + Self.cpuCells(run.usage)).joined(separator: " | ") + " |")
        }
        add()
        lines += Self.table(pushTargets())
        add()
        for run in pushRuns where !run.pushes.rejected.isEmpty || !run.pushes.failed.isEmpty {
            let rejected = BenchPushResult.counts(run.pushes.rejected, prefix: "HTTP ")
            let failed = BenchPushResult.counts(run.pushes.failed, prefix: "")
            add(
                "**\(Self.filesystem(run.dataFilesystem)), animation \(run.settings.pushAnimation.description): pushes not "
                    + "acknowledged.** Non-2xx answers: \(rejected);")
            add("without an answer: \(failed). They are not in the pushes/s.")
            add()
        }
        if pushRuns.contains(where: { $0.usage.lateTicks == nil }) {
            add("Late ticks are unknown where the column says so: \(first.usage.lateTicksDescription).")
            add()
        }
        add("- **acknowledged pushes/s**: 2xx answers read inside the window, divided by its length. Answers")
        add("  with another status (**non-2xx**) and pushes that got none (refused, closed, 5 s without an")
        add("  answer: **no answer**) are counted apart and never as throughput.")
        add("- **server per push**: the server's CPU time over the window, and the bytes it sent to storage")
        add("  (`write_bytes` of `/proc/PID/io`: the store's WAL, checkpoints and snapshots), divided by the")
        add("  acknowledged pushes.")
        add("- **push latency**: from the request written to the whole 2xx answer read. Each pusher waits")
        add("  for its answer before the next push, so pushes/s ≈ pushers ÷ mean latency.")
        add("- **viewers' frame gap**: the time between two consecutive frames at one viewer, over every")
        add("  viewer and frame of the window: \(Self.number(1000 / Double(fps), 1)) ms when every tick reaches every")
        add("  viewer on time. It is timed on the bench's client thread, so a busy bench or machine stretches")
        add("  it too.")
        add("- **ticks > 16 ms late**: of the ticks in the window (`ringcast_tick_lateness_seconds_count`),")
        add("  those later than the histogram's 16 ms bucket, from `GET /metrics` before and after the window.")
        add("- **on disk within 1.5× of tmpfs**: tmpfs pushes/s ÷ disk pushes/s, both with the same animation. fsync on")
        add("  tmpfs returns at once, so the ratio is what waiting for the disk costs.")
        add("- **animation of each push**: what a write costs depends on it. A push that retargets a ring still moving")
        add("  adds to what the board animates, and the server's default (easeInOut over 1 s) is what a push without")
        add("  options gets.")
        add()
        return lines
    }

    private func pushTargets() -> [Target] {
        // The targets are for this build and one board; other builds' runs and runs over many boards are shown
        // beside them.
        let ours = pushRuns.filter { $0.settings.label == nil }
        func onDisk(_ run: BenchPushResult) -> Bool {
            run.settings.boardCount == 1 && run.dataFilesystem.map { !$0.isInMemory } ?? false
        }
        let memory = ours.last { $0.settings.boardCount == 1 && $0.dataFilesystem?.isInMemory ?? false }
        // The throughput target is for what users send, the default animation; a report without such a run (an
        // older one) is held to it with what it has.
        let disk = ours.last { onDisk($0) && $0.settings.pushAnimation == .serverDefault } ?? ours.last(where: onDisk)
        let diskNone = ours.last { onDisk($0) && $0.settings.pushAnimation == .none }
        let diskLong = ours.last {
            guard onDisk($0), case .linear(let seconds) = $0.settings.pushAnimation else { return false }
            return seconds >= 5
        }
        var targets = [
            Target(
                name: "data directory on disk: ≥ \(Self.thousands(Self.pushesPerSecondTarget)) acknowledged pushes/s",
                measured: disk.map {
                    "\(Self.thousands($0.pushes.acknowledgedPerSecond))/s (\($0.dataFilesystem!.type), animation "
                        + "\($0.settings.pushAnimation.description))"
                } ?? "—",
                met: disk.map { $0.pushes.acknowledgedPerSecond >= Self.pushesPerSecondTarget }
            )
        ]
        if let diskNone, let diskLong {
            let share =
                diskNone.pushes.acknowledgedPerSecond > 0
                ? diskLong.pushes.acknowledgedPerSecond / diskNone.pushes.acknowledgedPerSecond : 0
            targets.append(
                Target(
                    name: "pushes with \(diskLong.settings.pushAnimation.description) animations ≥ "
                        + "\(Self.number(Self.longAnimationShare, 1))× pushes with none (on disk)",
                    measured: "\(Self.thousands(diskLong.pushes.acknowledgedPerSecond)) ÷ "
                        + "\(Self.thousands(diskNone.pushes.acknowledgedPerSecond)): \(Self.number(share, 2))×",
                    met: share >= Self.longAnimationShare
                ))
        }
        // CPU per push against the animations in flight, each animated run against the run with none.
        if let diskNone, let none = diskNone.cpuMicrosecondsPerPush, none > 0 {
            for run in ours where onDisk(run) && run.settings.pushAnimation != .none {
                guard let cpu = run.cpuMicrosecondsPerPush else { continue }
                let inFlight = run.animationsInFlight.map { " (≈ \(Self.thousands($0)) in flight)" } ?? ""
                targets.append(
                    Target(
                        name: "server CPU per push, animation \(run.settings.pushAnimation.description)\(inFlight), "
                            + "within \(Self.number(Self.flatCPULimit, 1))× of none",
                        measured: "\(Self.number(cpu, 0)) ÷ \(Self.number(none, 0)) µs: \(Self.number(cpu / none, 2))×",
                        met: cpu / none <= Self.flatCPULimit
                    ))
            }
        }
        var ratio: (disk: Double, memory: Double)?
        // Disk against memory with the same animation, so the ratio is what waiting for the disk costs.
        if let memory,
            let disk = ours.last(where: { onDisk($0) && $0.settings.pushAnimation == memory.settings.pushAnimation })
        {
            ratio = (disk.pushes.acknowledgedPerSecond, memory.pushes.acknowledgedPerSecond)
        }
        targets.append(
            Target(
                name: "on disk within \(Self.number(Self.diskSlowdownLimit, 1))× of tmpfs (pushes/s)",
                measured: ratio.map { ratio in
                    let times = ratio.disk > 0 ? "\(Self.number(ratio.memory / ratio.disk, 2))×" : "no push acknowledged on disk"
                    return "\(Self.thousands(ratio.memory)) ÷ \(Self.thousands(ratio.disk)): \(times)"
                } ?? "—",
                met: ratio.map { $0.disk > 0 && $0.memory / $0.disk <= Self.diskSlowdownLimit }
            ))
        let limit = Self.number(Self.frameGapLimitMilliseconds, 0)
        for run in ours {
            let p99 = run.viewers.frameGapMilliseconds.p99
            targets.append(
                Target(
                    name: "\(Self.filesystem(run.dataFilesystem)), animation \(run.settings.pushAnimation.description)"
                        + (run.settings.boardCount > 1 ? ", \(run.settings.boardCount) boards" : "")
                        + ": viewers' frame gap p99 ≤ \(limit) ms",
                    measured: p99.map { "\(Self.number($0, 1)) ms" } ?? "no frames",
                    met: p99.map { $0 <= Self.frameGapLimitMilliseconds && run.viewers.measured == run.settings.viewers } ?? false
                ))
        }
        return targets
    }

    // MARK: - Cells shared with the join storm

    /// "ext4 (/dev/vda)", "tmpfs (memory)", or "not known".
    static func filesystem(_ filesystem: BenchFilesystem?) -> String {
        guard let filesystem else { return "not known" }
        return "\(filesystem.type) (\(filesystem.isInMemory ? "memory" : filesystem.source))"
    }

    /// "12 of 1200", or why not known.
    static func lateTicks(_ usage: BenchUsage) -> String {
        guard let late = usage.lateTicks else { return usage.metrics == nil ? "— (no /metrics)" : "not exported" }
        return "\(late.late) of \(late.ticks)"
    }

    /// Server CPU, bench CPU, other processes.
    static func cpuCells(_ usage: BenchUsage) -> [String] {
        [
            usage.server.map { "\(number($0.cpuPercent, 0)) %" } ?? "—",
            "\(number(usage.bench.cpuPercent, 0)) %",
            usage.otherProcessesCPUPercent.map { "\(number($0, 0)) %" } ?? "—",
        ]
    }

    /// A whole number with thousands separated: 5,000.
    static func thousands(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var grouped = ""
        for (index, digit) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, digit != "-" { grouped.append(",") }
            grouped.append(digit)
        }
        return String(grouped.reversed())
    }
}
