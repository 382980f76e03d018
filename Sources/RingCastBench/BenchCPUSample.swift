#if canImport(Glibc)
    import Glibc
#endif

/// CPU time of the server, the bench and the whole machine at one moment; two of them give each
/// side's share over a measurement window.
struct BenchCPUSample {
    var server: BenchSystem.ProcessSample?
    var bench: BenchSystem.ProcessSample
    var machine: BenchSystem.MachineSample?

    init(serverPID: String?) throws(BenchFailure) {
        server = try serverPID.map { pid throws(BenchFailure) in try BenchSystem.processSample(pid) }
        bench = try BenchSystem.processSample("self")
        machine = BenchSystem.machineSample()
    }

    struct Usage {
        var server: BenchResult.Process?
        var bench: BenchResult.Process
        var machinePercent: Double?
        var othersPercent: Double?
    }

    static func usage(from before: BenchCPUSample, to after: BenchCPUSample, seconds: Double, serverPID: Int?) -> Usage {
        func percentOfOneCore(_ ticks: UInt64) -> Double {
            BenchRun.round(Double(ticks) / BenchSystem.clockTicksPerSecond / seconds * 100, 1)
        }
        func process(_ before: BenchSystem.ProcessSample, _ after: BenchSystem.ProcessSample, pid: Int?)
            -> BenchResult.Process
        {
            BenchResult.Process(
                pid: pid,
                cpuPercent: percentOfOneCore(after.cpuTicks - before.cpuTicks),
                rssStartMiB: BenchRun.round(Double(before.residentKiB) / 1024, 1),
                rssEndMiB: BenchRun.round(Double(after.residentKiB) / 1024, 1)
            )
        }
        var usage = Usage(
            server: before.server.flatMap { old in after.server.map { process(old, $0, pid: serverPID) } },
            bench: process(before.bench, after.bench, pid: Int(getpid()))
        )
        if let old = before.machine, let new = after.machine, new.totalTicks > old.totalTicks {
            let busy = new.busyTicks - old.busyTicks
            usage.machinePercent = BenchRun.round(Double(busy) / Double(new.totalTicks - old.totalTicks) * 100, 1)
            let ours =
                (after.bench.cpuTicks - before.bench.cpuTicks)
                + (after.server?.cpuTicks ?? 0) - (before.server?.cpuTicks ?? 0)
            usage.othersPercent = percentOfOneCore(busy > ours ? busy - ours : 0)
        }
        return usage
    }
}
