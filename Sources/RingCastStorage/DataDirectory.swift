#if canImport(Glibc)
    import Glibc
#endif

/// The directory a store lives in: its LOCK file and the database with its -wal and -shm files.
struct DataDirectory: Sendable {
    /// As the caller gave it; error messages repeat it unchanged.
    let path: String

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String {
        path.hasSuffix("/") ? path + name : path + "/" + name
    }

    /// Creates the directory and any missing parents (like `mkdir -p`, mode 0755).
    func create() throws(StorageError) {
        guard !path.isEmpty else {
            throw StorageError(path: path, message: "the data directory path is empty; name a directory")
        }
        if isDirectory(path) { return }
        let components = path.split(separator: "/")
        var prefix = path.hasPrefix("/") ? "/" : ""
        for (index, component) in components.enumerated() {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                let code = errno
                let reason = code == ENOTDIR ? "a part of the path is a file, not a directory" : errnoText(code)
                let what = index == components.count - 1 ? "the data directory" : "a parent of the data directory \(path)"
                throw StorageError(path: prefix, message: "cannot create \(what): \(reason)")
            }
            prefix += "/"
        }
        guard isDirectory(path) else {
            throw StorageError(path: path, message: "the data directory exists but is not a directory; name a directory")
        }
    }

    private func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

/// `strerror(errno)`, read before anything else can change `errno`.
func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
