#if canImport(Glibc)
    import Glibc
#endif

/// The database's `-wal` and `-shm` files as found at start, before SQLite opens them, and what is
/// wrong with them. SQLite reads a damaged WAL without a word: it ignores a WAL whose header is
/// invalid, and every frame from the first one whose checksum fails, so a start after such damage
/// serves older data (or none) as if nothing happened. This looks first and says so.
///
/// The checks follow SQLite's WAL format (https://www.sqlite.org/fileformat2.html#walformat) and
/// its recovery (`walIndexRecover`, `walDecodeFrame` in wal.c):
///
/// ```
/// header, 32 bytes, big-endian u32s:
///   0 magic 0x377f0682 (checksums of little-endian words) or 0x377f0683 (big-endian)
///   4 format 3007000   8 page size   12 checkpoint sequence   16 salt-1   20 salt-2
///  24 checksum-1, 28 checksum-2 of bytes 0..<24
/// each frame: a 24-byte header, then one page:
///   0 page number (not 0)   4 database size in pages after a commit, else 0
///   8 salt-1, 12 salt-2 (the header's)   16, 20 checksum of the WAL so far (cumulative) over the
///   frame header's first 8 bytes and the page
/// ```
///
/// SQLite uses the frames up to the last commit before the first invalid frame. Frames after it
/// with the current salts and a commit mark are committed writes SQLite will drop: damage, not the
/// usual leftovers of an older WAL generation (other salts) or a transaction cut short by a crash
/// (no commit mark after it).
///
/// What is not detectable here: a WAL cut short exactly at a frame boundary looks like a shorter
/// WAL, and one replaced by an older copy of itself is valid. A WAL deleted after a crash is found
/// with the database's open mark (`StoreSchema.markOpen`).
struct SideFiles {
    /// Whether each existed before SQLite opened the database.
    var walExists = false
    var sharedMemoryExists = false
    /// What is wrong with the -wal file; empty when nothing is.
    var notices: [StorageNotice] = []

    static let headerSize = 32
    static let frameHeaderSize = 24
    static let magic: UInt32 = 0x377f_0682

    /// Looks at `database`-wal and `database`-shm. A damaged -wal is copied aside first
    /// (`-wal.damaged-SECONDS`), since SQLite overwrites it with the next write; the notice names
    /// the copy.
    static func inspect(database: String, now: Int = time(nil)) -> SideFiles {
        let wal = database + "-wal"
        var found = SideFiles()
        found.sharedMemoryExists = FileIdentity(path: database + "-shm") != nil
        let descriptor = open(wal, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno != ENOENT {
                found.walExists = true
                found.notices.append(warning(wal, "cannot be read to check it before SQLite opens it: \(errnoText())"))
            }
            return found
        }
        defer { close(descriptor) }
        found.walExists = true
        guard let damage = Self.damage(descriptor) else { return found }
        let copy = "\(wal).damaged-\(now)"
        let kept =
            copyFile(from: descriptor, to: copy).map { "; it could not be copied aside to \(copy): \($0)" }
            ?? "; a copy of it as it was is kept as \(copy)"
        found.notices.append(warning(wal, damage + kept))
        return found
    }

    /// Why the WAL open as `descriptor` loses committed writes when SQLite reads it, or nil.
    static func damage(_ descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return "cannot be checked: \(errnoText())" }
        let size = Int(status.st_size)
        guard size > 0 else { return nil }
        guard size >= headerSize else {
            return "is \(size) bytes long, shorter than a WAL header (\(headerSize) bytes): it was cut short or damaged, "
                + "SQLite ignores it, and whatever writes it held are lost"
        }
        guard let header = read(descriptor, count: headerSize, at: 0) else { return "cannot be read: \(errnoText())" }
        let ignored = "SQLite ignores the whole file, and the writes in its \(size - headerSize) bytes of frames are lost"
        let found = UInt32(bigEndianBytes: header, at: 0)
        guard found & ~1 == magic else {
            return "does not start with a WAL header (magic number \(hex(found))): \(ignored)"
        }
        let pageSize = Int(UInt32(bigEndianBytes: header, at: 8))
        guard (512...65_536).contains(pageSize), pageSize & (pageSize - 1) == 0 else {
            return "has a damaged header (page size \(pageSize)): \(ignored)"
        }
        let bigEndian = found & 1 == 1
        var sum = Checksum(bigEndian: bigEndian)
        sum.add(header[0..<24])
        guard sum.value == (UInt32(bigEndianBytes: header, at: 24), UInt32(bigEndianBytes: header, at: 28)) else {
            return "has a damaged header (its checksum does not match): \(ignored)"
        }
        let salts = header[16..<24]
        let frameSize = frameHeaderSize + pageSize
        let frames = (size - headerSize) / frameSize
        var index = 0
        var used = 0
        while index < frames {
            guard let frame = read(descriptor, count: frameSize, at: headerSize + index * frameSize) else { break }
            guard frame[8..<16].elementsEqual(salts), UInt32(bigEndianBytes: frame, at: 0) != 0 else { break }
            sum.add(frame[0..<8])
            sum.add(frame[frameHeaderSize...])
            guard sum.value == (UInt32(bigEndianBytes: frame, at: 16), UInt32(bigEndianBytes: frame, at: 20)) else { break }
            index += 1
            if UInt32(bigEndianBytes: frame, at: 4) != 0 { used = index }
        }
        var lostCommits = 0
        for later in (index + 1)..<max(index + 1, frames) {
            guard let head = read(descriptor, count: frameHeaderSize, at: headerSize + later * frameSize) else { break }
            if head[8..<16].elementsEqual(salts), UInt32(bigEndianBytes: head, at: 0) != 0,
                UInt32(bigEndianBytes: head, at: 4) != 0
            {
                lostCommits += 1
            }
        }
        guard lostCommits > 0 else { return nil }
        let kept = used == 0 ? "none of its frames" : "the \(used) frame\(used == 1 ? "" : "s") before it"
        return "is damaged: frame \(index + 1) of \(frames), at byte \(headerSize + index * frameSize), fails its checksum; "
            + "SQLite uses \(kept) and ignores the rest, which hold \(lostCommits) committed "
            + "transaction\(lostCommits == 1 ? "" : "s"); those writes are lost"
    }

    private static func warning(_ path: String, _ message: String) -> StorageNotice {
        StorageNotice(level: .warning, path: path, message: message)
    }

    private static func hex(_ value: UInt32) -> String {
        "0x" + String(value, radix: 16)
    }

    /// `count` bytes at `offset`, or nil if the file has fewer or cannot be read.
    private static func read(_ descriptor: Int32, count: Int, at offset: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let step = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done))
            }
            guard step > 0 else { return nil }
            done += step
        }
        return bytes
    }

    /// Copies the whole file open as `source` to a new file `path`; the reason it could not, or nil.
    private static func copyFile(from source: Int32, to path: String) -> String? {
        let target = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard target >= 0 else { return errnoText() }
        defer { close(target) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, $0.count, off_t(offset)) }
            if count == 0 { return fsync(target) == 0 ? nil : errnoText() }
            guard count > 0 else { return errnoText() }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(target, $0.baseAddress! + written, count - written) }
                guard step > 0 else { return errnoText() }
                written += step
            }
            offset += count
        }
    }

    /// SQLite's WAL checksum (`walChecksumBytes`): over 32-bit words, two at a time,
    /// s0 += w0 + s1; s1 += w1 + s0, wrapping; the words read in the byte order the magic names.
    private struct Checksum {
        let bigEndian: Bool
        var value: (UInt32, UInt32) = (0, 0)

        init(bigEndian: Bool) {
            self.bigEndian = bigEndian
        }

        /// `bytes.count` is a multiple of 8 (24 bytes of header, 8 of a frame header, a page).
        mutating func add(_ bytes: ArraySlice<UInt8>) {
            var (first, second) = value
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset + 8 <= raw.count {
                    var one = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    var two = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    one = bigEndian ? UInt32(bigEndian: one) : UInt32(littleEndian: one)
                    two = bigEndian ? UInt32(bigEndian: two) : UInt32(littleEndian: two)
                    first = first &+ one &+ second
                    second = second &+ two &+ first
                    offset += 8
                }
            }
            value = (first, second)
        }
    }
}

extension UInt32 {
    /// The big-endian u32 at `offset` of `bytes` (SQLite's `sqlite3Get4byte`).
    fileprivate init(bigEndianBytes bytes: [UInt8], at offset: Int) {
        self =
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
