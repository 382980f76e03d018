import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's TCP memory, machine-wide: `/proc/net/sockstat`'s `TCP: … mem N` line, in pages,
/// times the page size. Every process's sockets count, so tests compare readings taken close
/// together with generous bounds.
enum KernelTCPMemory {
    /// Bytes now; nil when the file or its line cannot be read (not Linux).
    static func bytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/net/sockstat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("TCP:") {
            let fields = line.split(separator: " ")
            guard let index = fields.firstIndex(of: "mem"), index + 1 < fields.count, let pages = Int(fields[index + 1])
            else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
        return nil
    }

    /// The median of `count` readings `interval` seconds apart: one reading can catch another
    /// process's burst.
    static func settledBytes(count: Int = 5, interval: Double = 0.05) async -> Int? {
        var readings: [Int] = []
        for index in 0..<count {
            if index > 0 { try? await Task.sleep(for: .seconds(interval)) }
            if let bytes = bytes() { readings.append(bytes) }
        }
        guard !readings.isEmpty else { return nil }
        return readings.sorted()[readings.count / 2]
    }
}
