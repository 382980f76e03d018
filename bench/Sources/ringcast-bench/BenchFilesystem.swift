#if canImport(Glibc)
    import Glibc
#endif

/// The filesystem a directory is on, from /proc/self/mountinfo: the push scenario's figures depend
/// on whether the server's fsync reaches a disk (ext4, xfs …) or stays in memory (tmpfs).
struct BenchFilesystem: Codable, Sendable {
    /// The mount's filesystem type as the kernel names it: `ext4`, `tmpfs`, `overlay` …
    var type: String
    /// Where it comes from: a block device such as `/dev/vda`, or `tmpfs`.
    var source: String
    var mountPoint: String

    /// Filesystems that keep their files in memory, where fsync costs nothing.
    var isInMemory: Bool { ["tmpfs", "ramfs"].contains(type) }

    /// The mount holding `path` (the longest mount point that contains it; of several mounts on
    /// the same point, the last, which hides the others). Nil when the path or the mount table
    /// cannot be read.
    init?(path: String) {
        guard let resolved = realpath(path, nil) else { return nil }
        let directory = String(cString: resolved)
        free(resolved)
        guard let table = BenchSystem.read("/proc/self/mountinfo") else { return nil }
        var found: BenchFilesystem?
        for line in table.split(separator: "\n") {
            // proc(5): ID parent major:minor root mount-point options [optional…] - type source super-options
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 4, let separator = fields.firstIndex(of: "-"), separator + 2 < fields.count else {
                continue
            }
            let mountPoint = Self.unescape(fields[4])
            let contains =
                mountPoint == "/" || directory == mountPoint || directory.hasPrefix(mountPoint + "/")
            guard contains, mountPoint.count >= (found?.mountPoint.count ?? 0) else { continue }
            found = BenchFilesystem(
                type: String(fields[separator + 1]), source: Self.unescape(fields[separator + 2]), mountPoint: mountPoint)
        }
        guard let found else { return nil }
        self = found
    }

    private init(type: String, source: String, mountPoint: String) {
        self.type = type
        self.source = source
        self.mountPoint = mountPoint
    }

    /// mountinfo writes space, tab, newline and backslash as `\040`-style octal escapes.
    private static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        var index = field.utf8.startIndex
        let utf8 = field.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            let digits = utf8[index...].dropFirst().prefix(3)
            if byte == UInt8(ascii: "\\"), digits.count == 3,
                let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                index = utf8.index(index, offsetBy: 4)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
