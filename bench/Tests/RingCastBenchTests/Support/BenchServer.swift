import Foundation

/// A real `ringcast serve` on a free loopback port, with its own data directory and a copy of the repository's
/// config whose limits let the bench in (as bench/servers.sh's `bench_config`): no write limit, since the probes
/// and pushers push as fast as they are answered.
final class BenchServer: Sendable {
    let url: String
    /// Holds the config copy and the data; removed by `stop`.
    let directory: URL
    private let process: BenchChild

    init() async throws {
        guard FileManager.default.isExecutableFile(atPath: ringcastExecutable.path) else {
            throw BenchTestFailure("no server at \(ringcastExecutable.path): `swift build --product ringcast` in the repository")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("ringcast.json")
        var settings =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: repositoryRoot.appendingPathComponent("config/ringcast.json"))) as? [String: Any] ?? [:]
        var limits = settings["limits"] as? [String: Any] ?? [:]
        limits["writesPerMinute"] = 0
        settings["limits"] = limits
        try JSONSerialization.data(withJSONObject: settings).write(to: config)
        process = try BenchChild(
            ringcastExecutable,
            [
                "serve", "--config", config.path, "--port", "0", "--data-dir", directory.appendingPathComponent("data").path,
                "--log-level", "warning",
            ])
        let deadline = Date().addingTimeInterval(20)
        var listening: String?
        while listening == nil, Date() < deadline {
            listening = process.stdout.split(separator: "\n").first { $0.hasPrefix("listening on ") }
                .map { String($0.dropFirst("listening on ".count)) }
            if listening == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard let listening else {
            kill(process.pid, SIGKILL)
            throw BenchTestFailure("ringcast did not start: \(process.stderr)")
        }
        url = listening
    }

    /// SIGTERM, then waits for the server to drain and exit; removes its directory.
    func stop() async throws -> Int32 {
        defer { try? FileManager.default.removeItem(at: directory) }
        kill(process.pid, SIGTERM)
        return try await process.waitForExit()
    }
}

extension BenchServer {
    /// Runs `body` against a fresh server, which is stopped afterwards whether `body` threw or not.
    static func with<T>(_ body: (BenchServer) async throws -> T) async throws -> T {
        let server = try await BenchServer()
        do {
            let result = try await body(server)
            _ = try await server.stop()
            return result
        } catch {
            _ = try? await server.stop()
            throw error
        }
    }
}
