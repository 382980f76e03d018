import ChildProcessSupport
import RingCastCluster
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `redis-server` of one test's own: a free loopback port, a fresh temporary directory, an AOF
/// fsynced on every write (`appendonly yes`, `appendfsync always`, as cluster mode requires).
/// `kill()` or `terminate()` end it and keep the directory, so `start()` brings it back on the same
/// port and AOF; `stop()` (or deinit) ends it and removes the directory. Shared by the Redis client's
/// tests and the multi-node server tests.
public final class RedisProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int
    public let directory: String
    private let pid = Mutex<pid_t>(0)

    public var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port) }

    /// Another test may take the free port between the probe and redis-server's bind: then a new
    /// port is tried (at most three).
    public init() throws {
        var template = Array("/tmp/ringcast-redis-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed") }
        directory = String(cString: made)
        var attempt = 0
        while true {
            let port = try Self.freePort()
            do {
                let child = try Self.spawn(port: port, directory: directory)
                self.port = port
                pid.withLock { $0 = child }
                break
            } catch {
                attempt += 1
                if attempt == 3 { throw error }
            }
        }
    }

    deinit {
        stop()
    }

    /// Starts redis-server on the same port and directory (after `kill()` or `stop()`), and waits
    /// until it answers PING (it has loaded its AOF by then).
    public func start() throws {
        let child = try Self.spawn(port: port, directory: directory)
        pid.withLock { $0 = child }
    }

    private static func spawn(port: Int, directory: String) throws -> pid_t {
        let arguments = [
            "redis-server", "--port", String(port), "--bind", "127.0.0.1", "--dir", directory,
            "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--daemonize", "no",
            "--logfile", directory + "/redis.log",
        ]
        let child = try ChildProcess.spawn(arguments)
        let endpoint = RedisEndpoint(host: "127.0.0.1", port: port)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while clock.now < deadline {
            if let connection = try? RedisConnection(endpoint: endpoint, connectTimeout: .milliseconds(200)),
                (try? connection.command(["PING"])) == .status("PONG")
            {
                return child
            }
            if ChildProcess.reapIfEnded(child) != nil {
                throw Failure(description: "redis-server on port \(port) exited at start; see \(directory)/redis.log")
            }
            usleep(20_000)
        }
        Glibc.kill(child, SIGKILL)
        _ = ChildProcess.wait(child)
        throw Failure(description: "redis-server on port \(port) did not answer PING within 10 s")
    }

    /// SIGKILL: no shutdown, no final fsync; the directory stays for `start()`.
    public func kill() {
        signal(SIGKILL)
    }

    /// SIGTERM, wait for the process: Redis shuts down in order (a last fsync of the AOF); the
    /// directory stays for `start()`.
    public func terminate() {
        signal(SIGTERM)
    }

    /// SIGKILL and start again on the same port and AOF.
    public func restart() throws {
        kill()
        try start()
    }

    /// SIGKILL, the directory emptied, and start again on the same port: Redis having lost its data
    /// (started without its AOF).
    public func restartEmpty() throws {
        kill()
        removeDirectory()
        guard mkdir(directory, 0o700) == 0 else {
            throw Failure(description: "cannot make \(directory) again: \(String(cString: strerror(errno)))")
        }
        try start()
    }

    /// SIGTERM, wait for the process, remove the directory.
    public func stop() {
        signal(SIGTERM)
        removeDirectory()
    }

    private func signal(_ signal: Int32) {
        let child = pid.withLock { pid in
            defer { pid = 0 }
            return pid
        }
        guard child > 0 else { return }
        Glibc.kill(child, signal)
        _ = ChildProcess.wait(child)
    }

    private func removeDirectory() {
        if let child = try? ChildProcess.spawn(["rm", "-rf", directory]) { _ = ChildProcess.wait(child) }
    }

    /// A port the kernel just handed out on 127.0.0.1 (bound, read back, released).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                bind(fd, sockaddr, length) == 0 && getsockname(fd, sockaddr, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "cannot bind a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
