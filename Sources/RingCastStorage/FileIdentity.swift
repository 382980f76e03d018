#if canImport(Glibc)
    import Glibc
#endif

/// Which file a path or a descriptor is: its device and inode. A path that names another identity
/// than the descriptor opened from it was replaced (renamed over, or deleted and created again).
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The file `path` names now; nil when nothing is there (or it cannot be looked at).
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The file an open descriptor refers to, wherever its path went.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The device as /proc/locks prints it, `MAJOR:MINOR` in hex, each at least two digits.
    /// glibc's encoding of `dev_t` (`gnu_dev_major`, `gnu_dev_minor` in sys/sysmacros.h).
    var procDevice: String {
        let major = (device & 0x000f_ff00) >> 8 | (device & 0xffff_f000_0000_0000) >> 32
        let minor = device & 0xff | (device & 0x0000_0fff_fff0_0000) >> 12
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return digits.count < 2 ? "0" + digits : digits
        }
        return "\(hex(major)):\(hex(minor))"
    }
}
