#if canImport(Glibc)
    import Glibc
#endif

/// CPU time of the server (each of its processes: one, or one a cluster node), the bench and the
/// whole machine at one moment; two of them give each side's share over a measurement window.
struct BenchCPUSample {
    var servers: [BenchSystem.ProcessSample]
    var bench: BenchSystem.ProcessSample
    var machine: BenchSystem.MachineSample?

    init(serverPIDs: [String]) throws(BenchFailure) {
        servers = []
        for pid in serverPIDs { servers.append(try BenchSystem.processSample(pid)) }
        bench = try BenchSystem.processSample("self")
        machine = BenchSystem.machineSample()
    }

    struct Usage {
        /// The server's processes together (CPU and memory summed); its pid when it is one.
        var server: BenchResult.Process?
        /// Each server process, in the order of the pids given.
        var servers: [BenchResult.Process]
        var bench: BenchResult.Process
        var machinePercent: Double?
        var othersPercent: Double?
    }

    static func usage(from before: BenchCPUSample, to after: BenchCPUSample, seconds: Double, serverPIDs: [Int]) -> Usage {
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
                rssEndMiB: BenchRun.round(Double(after.residentKiB) / 1024, 1),
                writtenBytes: before.writtenBytes.flatMap { start in after.writtenBytes.map { $0 >= start ? $0 - start : 0 } }
            )
        }
        func sum(_ samples: [BenchSystem.ProcessSample]) -> BenchSystem.ProcessSample {
            BenchSystem.ProcessSample(
                cpuTicks: samples.reduce(0) { $0 + $1.cpuTicks }, residentKiB: samples.reduce(0) { $0 + $1.residentKiB },
                writtenBytes: samples.allSatisfy { $0.writtenBytes != nil } ? samples.reduce(0) { $0 + $1.writtenBytes! } : nil)
        }
        let measured = before.servers.count == after.servers.count && !before.servers.isEmpty
        let pairs = measured ? Array(zip(before.servers, after.servers)) : []
        var usage = Usage(
            server: measured
                ? process(sum(before.servers), sum(after.servers), pid: serverPIDs.count == 1 ? serverPIDs[0] : nil) : nil,
            servers: pairs.enumerated().map { index, pair in
                process(pair.0, pair.1, pid: index < serverPIDs.count ? serverPIDs[index] : nil)
            },
            bench: process(before.bench, after.bench, pid: Int(getpid()))
        )
        if let old = before.machine, let new = after.machine, new.totalTicks > old.totalTicks {
            let busy = new.busyTicks - old.busyTicks
            usage.machinePercent = BenchRun.round(Double(busy) / Double(new.totalTicks - old.totalTicks) * 100, 1)
            let servers = pairs.reduce(UInt64(0)) { $0 + ($1.1.cpuTicks - $1.0.cpuTicks) }
            let ours = (after.bench.cpuTicks - before.bench.cpuTicks) + servers
            usage.othersPercent = percentOfOneCore(busy > ours ? busy - ours : 0)
        }
        return usage
    }
}
