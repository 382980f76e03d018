#if canImport(Glibc)
    import Glibc
#endif

/// The exclusive `flock` on `directory/LOCK` that keeps a second ringcast off a data directory.
/// Holds the descriptor until `release()` or `deinit`; the kernel drops the lock if the process
/// dies, so a crash never leaves a stale lock. `flock` locks belong to the open file description,
/// so a second store in the same process is refused as well.
///
/// Created, held and released on the store's writer thread.
final class DirectoryLock {
    static let fileName = "LOCK"

    let path: String
    private var descriptor: Int32?

    /// Creates the directory and the LOCK file if missing, takes the lock without waiting and
    /// writes this process's pid into the file (truncating it first).
    init(directory: DataDirectory) throws(StorageError) {
        try directory.create()
        path = directory.file(Self.fileName)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StorageError(path: path, message: "cannot open the lock file: \(errnoText())")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.holder(descriptor)
            Glibc.close(descriptor)
            if code == EWOULDBLOCK {
                throw StorageError(
                    path: path, message: "data directory \(directory.path) is in use by another ringcast (\(holder))")
            }
            throw StorageError(path: path, message: "cannot lock the data directory: \(errnoText(code))")
        }
        self.descriptor = descriptor
        recordHolder(descriptor)
    }

    deinit {
        release()
    }

    /// Closes the descriptor, which releases the lock. The pid stays in the file; it only
    /// matters while someone holds the lock.
    func release() {
        guard let descriptor else { return }
        self.descriptor = nil
        Glibc.close(descriptor)
    }

    /// "pid N" from the holder's LOCK file, or "pid unknown" if it is empty or unreadable (the
    /// holder may be between truncating and writing).
    private static func holder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "pid unknown" }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard let pid = Int32(text.filter { !$0.isWhitespace }), pid > 0 else { return "pid unknown" }
        return "pid \(pid)"
    }

    /// Best effort: a full disk must not keep a store from opening (the lock is what counts).
    private func recordHolder(_ descriptor: Int32) {
        guard ftruncate(descriptor, 0) == 0 else { return }
        let text = Array("\(getpid())\n".utf8)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}

@available(*, unavailable)
extension DirectoryLock: Sendable {}
