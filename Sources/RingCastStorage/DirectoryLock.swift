#if canImport(Glibc)
    import Glibc
#endif

/// What keeps a second ringcast off a data directory, and tells this one when the directory may no
/// longer be its own. Two exclusive `flock`s, taken without waiting at start and held until
/// `release()`:
///
/// - `directory/LOCK`, which also holds this process's pid, for the second ringcast's message;
/// - the database file itself. Deleting LOCK does not sidestep this one: a second ringcast makes
///   a new LOCK and locks it, but still finds the database locked, and stops.
///
/// `check…` compare what the paths name now with the files locked (device and inode): a deleted or
/// replaced database means writes would go to a file a restart never reads. A deleted or replaced
/// LOCK is taken again (`retakeLockFile`) when nobody else holds it.
///
/// `flock` locks and SQLite's POSIX (`fcntl`) locks on the same file are independent on Linux's
/// local file systems (on NFS `flock` is emulated with `fcntl` locks; WAL mode needs a local file
/// system anyway). One POSIX rule matters: closing *any* descriptor of a file drops every `fcntl`
/// lock the process holds on it, SQLite's included. So the database's descriptor is opened before
/// SQLite opens the file, closed only after the writer's connection has closed, and nothing here
/// ever opens and closes the database file in between.
///
/// The kernel drops both locks when the process dies, so a crash never leaves a stale lock; `flock`
/// locks belong to the open file description, so a second store in the same process is refused too.
///
/// Created, held, checked and released on the store's writer thread.
final class DirectoryLock {
    static let fileName = "LOCK"

    let directory: DataDirectory
    /// `directory/LOCK`.
    let path: String
    /// `directory/ringcast.sqlite3`.
    let databasePath: String
    private var lockFile: LockedFile?
    private var database: LockedFile?

    /// An open, `flock`ed descriptor and the file it was when locked.
    private struct LockedFile {
        let descriptor: Int32
        let identity: FileIdentity
    }

    /// Creates the directory, the LOCK file and the database file if missing (an empty file is an
    /// empty SQLite database), locks both without waiting and writes this process's pid into LOCK
    /// (truncating it first). Refused, naming the holder's pid, when another process holds either.
    init(directory: DataDirectory, databaseName: String) throws(StorageError) {
        try directory.create()
        self.directory = directory
        path = directory.file(Self.fileName)
        databasePath = directory.file(databaseName)
        let lockFile = try Self.lock(path, what: "the lock file") { descriptor in
            "data directory \(directory.path) is in use by another ringcast (\(Self.recordedHolder(descriptor)))"
        }
        do throws(StorageError) {
            database = try Self.lock(databasePath, what: "the database") { descriptor in
                "data directory \(directory.path) is in use by another ringcast (\(Self.lockingProcess(of: descriptor))), "
                    + "which holds its database; its LOCK file was deleted or replaced while that ringcast ran"
            }
        } catch {
            // deinit does not run for an object whose init throws.
            close(lockFile.descriptor)
            throw error
        }
        self.lockFile = lockFile
        Self.recordHolder(lockFile.descriptor)
    }

    deinit {
        release()
    }

    /// Closes both descriptors, which releases the locks; call it only once SQLite has closed the
    /// database (see the type). The pid stays in LOCK; it only matters while someone holds it.
    func release() {
        for file in [database, lockFile].compactMap({ $0 }) { close(file.descriptor) }
        database = nil
        lockFile = nil
    }

    /// Throws unless `databasePath` still names the file this store locked and writes to.
    func checkDatabase() throws(StorageError) {
        guard let database else { throw StorageError(path: databasePath, message: "the store has released its lock") }
        guard let now = FileIdentity(path: databasePath) else {
            throw StorageError(
                path: databasePath,
                message: "the database \(databasePath) was deleted while this ringcast ran; writes would go to a file "
                    + "no restart reads, so they are refused: restart ringcast")
        }
        guard now == database.identity else {
            throw StorageError(
                path: databasePath,
                message: "the database \(databasePath) was replaced while this ringcast ran; writes would go to a file "
                    + "no restart reads, so they are refused: restart ringcast to serve the file that is there now")
        }
    }

    /// Why LOCK is no longer this store's (deleted, or replaced by another file), or nil when it is.
    func lockFileProblem() -> String? {
        guard let lockFile else { return "the store has released its lock" }
        guard let now = FileIdentity(path: path) else { return "the lock file \(path) was deleted while this ringcast ran" }
        return now == lockFile.identity ? nil : "the lock file \(path) was replaced while this ringcast ran"
    }

    /// Locks whatever file `path` names now (creating it if missing) in place of the one this store
    /// lost, and writes the pid into it. Call it only after `checkDatabase` and with no other writer
    /// on the database: then nobody else can have used the directory meanwhile. Throws when it
    /// cannot, the message ending a sentence about LOCK ("another process holds it now (pid N)").
    func retakeLockFile() throws(StorageError) {
        guard let old = lockFile else { throw StorageError(path: path, message: "the store has released its lock") }
        let file = try Self.lock(path, what: "the lock file") { descriptor in
            "another process holds it now (\(Self.recordedHolder(descriptor)))"
        }
        // The path may have been replaced again between open and flock: lock that file next time.
        guard FileIdentity(path: path) == file.identity else {
            close(file.descriptor)
            throw StorageError(path: path, message: "the lock file \(path) changed while this ringcast took it again")
        }
        close(old.descriptor)
        lockFile = file
        Self.recordHolder(file.descriptor)
    }

    /// Opens `path` (creating it, mode 0644) and takes an exclusive `flock` without waiting.
    /// `inUse` words the refusal when another open file description holds it.
    private static func lock(
        _ path: String, what: String, inUse: (Int32) -> String
    ) throws(StorageError) -> LockedFile {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StorageError(path: path, message: "cannot open \(what) to lock it: \(errnoText())")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let message = code == EWOULDBLOCK ? inUse(descriptor) : "cannot lock \(what): \(errnoText(code))"
            close(descriptor)
            throw StorageError(path: path, message: message)
        }
        guard let identity = FileIdentity(descriptor: descriptor) else {
            let reason = errnoText()
            close(descriptor)
            throw StorageError(path: path, message: "cannot look at \(what): \(reason)")
        }
        return LockedFile(descriptor: descriptor, identity: identity)
    }

    /// "pid N" from the holder's LOCK file, or "pid unknown" if it is empty or unreadable (the
    /// holder may be between truncating and writing).
    private static func recordedHolder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "pid unknown" }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard let pid = Int32(text.filter { !$0.isWhitespace }), pid > 0 else { return "pid unknown" }
        return "pid \(pid)"
    }

    /// "pid N" of the process holding an exclusive `flock` on the file `descriptor` is open on, from
    /// the kernel's list of locks (`/proc/locks`: `1: FLOCK  ADVISORY  WRITE 4242 fe:00:1234 0 EOF`),
    /// or "pid unknown".
    private static func lockingProcess(of descriptor: Int32) -> String {
        guard let identity = FileIdentity(descriptor: descriptor), let text = readSmallFile("/proc/locks") else {
            return "pid unknown"
        }
        let file = "\(identity.procDevice):\(identity.inode)"
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            // A waiting request is listed as `1: -> FLOCK …`, the holder without the arrow.
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE", fields[5] == file,
                let pid = Int32(fields[4]), pid > 0
            else { continue }
            return "pid \(pid)"
        }
        return "pid unknown"
    }

    /// The whole of a small file (such as one in /proc, whose size `stat` does not tell), or nil.
    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < 4 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Best effort: a full disk must not keep a store from opening (the lock is what counts).
    private static func recordHolder(_ descriptor: Int32) {
        guard ftruncate(descriptor, 0) == 0 else { return }
        let text = Array("\(getpid())\n".utf8)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}

@available(*, unavailable)
extension DirectoryLock: Sendable {}
