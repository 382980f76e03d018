import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The machine a benchmark ran on, as the report describes it.
struct BenchMachine: Codable, Sendable {
    var processors: Int
    var cpuModel: String
    var memoryMiB: Int
    var kernel: String
    var system: String

    /// This machine, from /proc, /etc/os-release and uname(2).
    static func current() -> BenchMachine {
        func line(_ file: String, _ prefix: String) -> Substring? {
            BenchSystem.read(file)?.split(separator: "\n").first { $0.hasPrefix(prefix) }
        }
        let model = line("/proc/cpuinfo", "model name")
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let memoryKiB = line("/proc/meminfo", "MemTotal:")
            .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
        let system = line("/etc/os-release", "PRETTY_NAME=")
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return BenchMachine(
            processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
            cpuModel: model ?? "unknown",
            memoryMiB: (memoryKiB ?? 0) / 1024,
            kernel: kernel,
            system: system ?? "unknown"
        )
    }
}
