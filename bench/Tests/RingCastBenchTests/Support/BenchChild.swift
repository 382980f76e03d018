import ChildProcessSupport
import Foundation

/// The repository this package lives in (bench/..): the servers run there, with its config and web root.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `ringcast-bench` SwiftPM built next to this test bundle.
let benchExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("ringcast-bench")

/// The server the bench measures: $RINGCAST_BIN, else the root package's debug build (`swift build --product ringcast`
/// in the repository, which `make test` has done before it tests this package).
let ringcastExecutable =
    ProcessInfo.processInfo.environment["RINGCAST_BIN"].map { URL(fileURLWithPath: $0) }
    ?? repositoryRoot.appendingPathComponent(".build/debug/ringcast")

/// A child process (`ringcast` or `ringcast-bench`) started in the repository's root through `ChildProcess`, with
/// this process's environment less every `RINGCAST_*` variable, its output and errors kept in two files.
final class BenchChild: Sendable {
    let pid: Int32
    private let directory: URL

    init(_ executable: URL, _ arguments: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-bench-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RINGCAST_") }
        pid = try ChildProcess.spawn(
            [executable.path] + arguments, environment: environment.map { "\($0.key)=\($0.value)" },
            directory: repositoryRoot.path, output: directory.appendingPathComponent("stdout").path,
            errors: directory.appendingPathComponent("stderr").path)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var stdout: String { read("stdout") }
    var stderr: String { read("stderr") }

    private func read(_ name: String) -> String {
        (try? Data(contentsOf: directory.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Waits for the child to exit and returns its exit code (or the signal that ended it); past `timeout` seconds
    /// it is killed and this throws.
    func waitForExit(timeout: Double = 30) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = ChildProcess.reapIfEnded(pid) { return status }
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(pid, SIGKILL)
        _ = ChildProcess.wait(pid)
        throw BenchTestFailure("\(pid) did not exit within \(timeout) s; stdout: \(stdout) stderr: \(stderr)")
    }
}

struct BenchTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
