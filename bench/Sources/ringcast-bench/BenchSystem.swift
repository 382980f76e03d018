import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `ringcast-bench` reads from Linux: a monotonic clock, the open-file limit, and process and
/// machine figures from /proc.
enum BenchSystem {
    /// CLOCK_MONOTONIC in nanoseconds; the same clock on every thread, and the one
    /// `HTTPClient.Response.receivedAt` is read from, which latencies are measured against.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `seconds` in the unit of `now()`.
    static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(seconds * 1e9) }

    /// Raises the soft RLIMIT_NOFILE to at least `needed`. Must run before the WebSocket client's
    /// lws context exists: lws sizes its connection table from this limit once, at creation.
    static func raiseOpenFileLimit(to needed: Int) throws(BenchFailure) {
        var limit = rlimit()
        guard getrlimit(resourceOpenFiles, &limit) == 0 else {
            throw BenchFailure("cannot read the open-file limit: \(String(cString: strerror(errno)))")
        }
        guard limit.rlim_cur < rlim_t(needed) else { return }
        // RLIM_INFINITY, ((rlim_t) -1), does not import into Swift.
        guard limit.rlim_max == rlim_t.max || limit.rlim_max >= rlim_t(needed) else {
            throw BenchFailure(
                "\(needed) open files are needed, but the hard limit is \(limit.rlim_max); "
                    + "raise it (ulimit -Hn, /etc/security/limits.conf) or use fewer --viewers"
            )
        }
        limit.rlim_cur = rlim_t(needed)
        guard setrlimit(resourceOpenFiles, &limit) == 0 else {
            throw BenchFailure("cannot raise the open-file limit to \(needed): \(String(cString: strerror(errno)))")
        }
    }

    private static var resourceOpenFiles: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }

    /// Clock ticks per second, the unit of utime and stime in /proc/PID/stat.
    static let clockTicksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// One reading of a process's CPU time and resident memory.
    struct ProcessSample: Sendable {
        /// utime + stime, in clock ticks.
        var cpuTicks: UInt64
        /// VmRSS in KiB.
        var residentKiB: UInt64
        /// Bytes the process caused to be sent to storage (`write_bytes` of /proc/PID/io), when it can be read.
        var writtenBytes: UInt64?
    }

    /// Reads /proc/PID/stat and /proc/PID/status ("self" for this process).
    static func processSample(_ pid: String) throws(BenchFailure) -> ProcessSample {
        guard let stat = read("/proc/\(pid)/stat"), let status = read("/proc/\(pid)/status") else {
            throw BenchFailure("cannot read /proc/\(pid): no such process (check --server-pid)")
        }
        // The command name in parentheses may hold spaces; fields are counted after its ")".
        // After it come state (3), …, utime (14) and stime (15), as numbered in proc(5).
        guard let commandEnd = stat.lastIndex(of: ")") else {
            throw BenchFailure("unexpected /proc/\(pid)/stat: \(stat.prefix(80))")
        }
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ")
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else {
            throw BenchFailure("unexpected /proc/\(pid)/stat: \(stat.prefix(80))")
        }
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) } }
        let written = read("/proc/\(pid)/io")?.split(separator: "\n").first { $0.hasPrefix("write_bytes:") }
            .flatMap { line in line.split(separator: " ").last.flatMap { UInt64($0) } }
        return ProcessSample(cpuTicks: user + system, residentKiB: rss ?? 0, writtenBytes: written)
    }

    /// Busy and total clock ticks of all CPUs together, from the first line of /proc/stat.
    struct MachineSample: Sendable {
        var busyTicks: UInt64
        var totalTicks: UInt64
    }

    static func machineSample() -> MachineSample? {
        guard let stat = read("/proc/stat"), let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ") else {
            return nil
        }
        // user nice system idle iowait irq softirq steal (guest time is already in user).
        let values = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard values.count == 8 else { return nil }
        let idle = values[3] + values[4]
        let total = values.reduce(0, +)
        return MachineSample(busyTicks: total - idle, totalTicks: total)
    }

    /// The 1, 5 and 15 minute load averages.
    static func loadAverage() -> [Double]? {
        guard let text = read("/proc/loadavg") else { return nil }
        let values = text.split(separator: " ").prefix(3).compactMap { Double($0) }
        return values.count == 3 ? values : nil
    }

    /// Reads a whole file with read(2) until end of file: /proc files report a size of 0.
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
