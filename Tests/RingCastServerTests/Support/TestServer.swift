import Foundation
import Logging
import RingCastServer

/// The repository root, found from this file's path, so tests use the shipped config and page.
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // RingCastServerTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// A real server built by the same `buildServer` the executable uses, on 127.0.0.1 port 0 with
/// its own data directory; stopped (and the directory removed) by `shutdown()`.
final class TestServer: Sendable {
    let server: RingCastServer
    let dataDirectory: URL

    var port: Int { server.port }
    var http: TestHTTPClient { TestHTTPClient(port: port) }

    /// The shipped config/ringcast.json, on a free port and a fresh (or given) data directory.
    init(dataDirectory: URL? = nil, fps: Int = 60, adjust: (inout RingCastConfiguration) -> Void = { _ in }) throws {
        let directory =
            dataDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-test-\(UUID().uuidString)")
        var configuration = try RingCastConfiguration.load(
            file: repositoryRoot.appendingPathComponent("config/ringcast.json").path,
            environment: [:]
        )
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.fps = fps
        configuration.webRoot = repositoryRoot.appendingPathComponent("web").path
        configuration.openAPIDocument = repositoryRoot.appendingPathComponent("docs/openapi.yaml").path
        configuration.dataDirectory = directory.path
        adjust(&configuration)
        var logger = Logger(label: "ringcast-test")
        logger.logLevel = .warning
        self.dataDirectory = directory
        self.server = try buildServer(configuration: configuration, logger: logger)
        server.start()
    }

    /// Stops the server and waits for its loop to end.
    func stop() {
        server.stop()
        // Generous: a loaded box may take a while to drain, and a test that starts another server on the same
        // directory needs this one to have let go of its lock.
        _ = server.waitUntilStopped(timeout: 30)
    }

    /// Stops the server and deletes its data directory.
    func shutdown() {
        stop()
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}
