import Foundation
import RedisTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One `ringcast serve --redis` process of a `TestCluster`, on its own free loopback port.
final class TestNode: Sendable {
    let name: String
    let process: TestProcess
    let port: Int

    var http: TestHTTPClient { TestHTTPClient(port: port) }

    init(name: String, process: TestProcess, port: Int) {
        self.name = name
        self.process = process
        self.port = port
    }

    /// SIGKILL, and wait until the process is gone.
    func kill() async throws {
        process.signal(SIGKILL)
        _ = try await process.waitForExit()
    }
}

/// A test's own cluster: a `redis-server` (AOF, fsync on every write) and `ringcast serve` nodes on
/// it, each on a fresh loopback port, all sharing one temporary directory for the config file and
/// their data directories (unused in cluster mode, given anyway). `stop()` ends every process and
/// removes the directory; call it in a `defer`, so a failing test leaves nothing running.
final class TestCluster: Sendable {
    let redis: RedisProcess
    let directory: URL
    let configFile: String
    private let nodes = Mutex<[TestNode]>([])
    private let starting = Mutex<[TestProcess]>([])

    var redisURL: String { "redis://127.0.0.1:\(redis.port)" }

    /// A new Redis and the shipped config with `limits.writesPerMinute` set (0: no rate limit, so
    /// the tests may write as fast as they like) and, if given, `cluster.leadMilliseconds`, `cluster.streamLength` and
    /// `playlists` (JSON).
    init(writesPerMinute: Int = 0, leadMilliseconds: Int? = nil, streamLength: Int? = nil, playlists: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let shipped = try String(contentsOf: repositoryRoot.appendingPathComponent("config/ringcast.json"), encoding: .utf8)
        let file = directory.appendingPathComponent("ringcast.json")
        var config = shipped.replacingOccurrences(
            of: #""limits": {"#, with: #""limits": {"writesPerMinute": \#(writesPerMinute),"#)
        let cluster = [leadMilliseconds.map { #""leadMilliseconds": \#($0)"# }, streamLength.map { #""streamLength": \#($0)"# }]
            .compactMap { $0 }
        if !cluster.isEmpty {
            config = config.replacingOccurrences(
                of: #""limits": {"#, with: #""cluster": {\#(cluster.joined(separator: ",")) },"limits": {"#)
        }
        if let playlists {
            config = config.replacingOccurrences(of: #""limits": {"#, with: #""playlists": \#(playlists),"limits": {"#)
        }
        try config.write(to: file, atomically: true, encoding: .utf8)
        configFile = file.path
        do {
            redis = try RedisProcess()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Starts node `name` (`--node name`) on a free port and waits for its "listening on" line.
    func start(_ name: String) async throws -> TestNode {
        let process = try await TestProcess([
            "serve", "--config", configFile, "--redis", redisURL, "--node", name, "--host", "127.0.0.1", "--port", "0",
            "--data-dir", directory.appendingPathComponent("data-\(name)").path, "--log-level", "notice",
        ])
        starting.withLock { $0.append(process) }
        let line = try await process.waitForLine(timeout: 30) { $0.hasPrefix("listening on ") }
        guard let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw ViewerError.failed("node \(name): no port in \(line)")
        }
        let node = TestNode(name: name, process: process, port: port)
        nodes.withLock { $0.append(node) }
        // Listening comes first; the node takes writes once subscribed and caught up, as a load
        // balancer would wait for.
        let deadline = Date().addingTimeInterval(20)
        while (try? node.http.get("/readyz").status) != 200 {
            guard Date() < deadline else { throw ViewerError.failed("node \(name) was not ready within 20 s:\n\(logs)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return node
    }

    /// Starts the nodes named, all at once, and returns them in that order.
    func start(_ names: [String]) async throws -> [TestNode] {
        try await withThrowingTaskGroup(of: (Int, TestNode).self) { group in
            for (index, name) in names.enumerated() {
                group.addTask { (index, try await self.start(name)) }
            }
            var started: [TestNode?] = Array(repeating: nil, count: names.count)
            for try await (index, node) in group { started[index] = node }
            return started.compactMap { $0 }
        }
    }

    /// The standard error of every node, for a failure's message.
    var logs: String {
        nodes.withLock {
            $0.map {
                "[\($0.name)] \($0.process.stderr.split(separator: "\n").filter { !$0.contains(" 503 ") && !$0.contains(" 200 ") }.suffix(30).joined(separator: "\n"))"
            }.joined(separator: "\n")
        }
    }

    /// SIGKILL to every node, SIGTERM to Redis; the directory removed.
    func stop() {
        for process in starting.withLock({ $0 }) { process.signal(SIGKILL) }
        redis.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
