import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Which of the server's processes holds the server end of each loopback TCP connection, read
/// from /proc at one moment (proc(5): `/proc/net/tcp` and `tcp6` give each connection's ports and
/// socket inode, `/proc/PID/fd` each process's socket inodes). With several cluster nodes
/// listening on one port (SO_REUSEPORT) the kernel, not the bench, picks the node of every
/// connection; this is how the bench learns it without asking the server.
struct BenchConnectionOwners {
    /// The client's port → the index, in the pids given, of the process holding the server end.
    private var ownerByClientPort: [UInt16: Int] = [:]

    /// Reads the connections to `serverPort` and the socket descriptors of `pids`.
    init(pids: [Int], serverPort: UInt16) throws(BenchFailure) {
        var ownerByInode: [UInt64: Int] = [:]
        for (index, pid) in pids.enumerated() {
            let directory = "/proc/\(pid)/fd"
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                throw BenchFailure("cannot list \(directory): no such process, or not ours (check --server-pid)")
            }
            for name in names {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"),
                    target.hasPrefix("socket:["), let inode = UInt64(target.dropFirst(8).dropLast())
                else { continue }
                ownerByInode[inode] = index
            }
        }
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = BenchSystem.read(table) else { continue }
            // "sl local_address rem_address st … inode": addresses as HEXADDRESS:HEXPORT.
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, let local = Self.port(fields[1]), local == serverPort,
                    let remote = Self.port(fields[2]), let inode = UInt64(fields[9]), let owner = ownerByInode[inode]
                else { continue }
                ownerByClientPort[remote] = owner
            }
        }
    }

    /// The index of the process holding the server end of the connection whose client end is
    /// bound to `port`; nil when none of them holds it (closed, or another server's).
    func owner(ofClientPort port: UInt16) -> Int? {
        ownerByClientPort[port]
    }

    /// The port of a `/proc/net/tcp` address, `0100007F:1F90` → 8080.
    private static func port(_ address: Substring) -> UInt16? {
        guard let colon = address.lastIndex(of: ":") else { return nil }
        return UInt16(address[address.index(after: colon)...], radix: 16)
    }
}
