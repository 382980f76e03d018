#if canImport(Glibc)
    import Glibc
#endif

/// A test's child process, started with posix_spawn(3) and reaped with waitpid(2) by the test that started it:
/// redis-server (RedisTestSupport), `ringcast` in the server's tests (`TestProcess`), and `ringcast` and
/// `ringcast-bench` in the bench package's tests (bench/Tests).
///
/// Not swift-subprocess: its Linux monitor (a pidfd in one epoll set, the continuations filed by descriptor
/// number) twice reaped a `ringcast` child that had exited without ever handing its status back, and a test that
/// waited for the exit failed after 30 s. Not Foundation's `Process` either (see `TestProcess`).
public enum ChildProcess {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `arguments[0]` (looked up on `PATH` unless it holds a `/`) with `arguments`, in `directory` (this
    /// process's own unless given), with `environment` (`NAME=value` entries; this process's own unless given),
    /// standard input from /dev/null and standard output and error written to the files at `output` and `errors`
    /// (created or truncated). Every signal has its default action and none is blocked in the child: the spawning
    /// thread may be a Dispatch worker, which blocks SIGTERM, and a child inheriting that ignores a test's SIGTERM.
    public static func spawn(
        _ arguments: [String], environment: [String]? = nil, directory: String? = nil, output: String = "/dev/null",
        errors: String = "/dev/null"
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory {
            guard let addChdir else { throw Failure(description: "this C library cannot start a child in a directory") }
            _ = addChdir(&actions, directory)
        }
        // Nothing else of this process goes along: a test's sockets, and the flock'd LOCK file of a store a test holds
        // open in process (a child holding it would keep the directory "in use" after the test closed its store).
        guard let closeFrom else { throw Failure(description: "this C library cannot close a child's descriptors") }
        _ = closeFrom(&actions, 3)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result: Int32
        if let environment {
            var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
            defer { for pointer in envp { free(pointer) } }
            result = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, &envp)
        } else {
            result = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, environ)
        }
        guard result == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return child
    }

    /// glibc's posix_spawn_file_actions_addchdir_np (2.29 and later), which Swift's Glibc module leaves out.
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: AddChdir.self)
    }
    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), also left out.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }

    /// Waits for `pid` to end and reaps it: its exit code, or the number of the signal that ended it. Blocks the
    /// calling thread.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        return decoded(status)
    }

    /// Reaps `pid` if it has ended: its exit code or signal number, nil while it runs.
    public static func reapIfEnded(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return decoded(status)
    }

    /// A status as waitpid(2) reports it: the exit code, or the signal's number.
    private static func decoded(_ status: Int32) -> Int32 {
        status & 0x7f != 0 ? status & 0x7f : (status >> 8) & 0xff
    }
}
