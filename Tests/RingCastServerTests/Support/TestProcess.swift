import Foundation
import Synchronization

/// The `ringcast` executable SwiftPM built next to this test bundle.
let ringcastExecutable: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent()
    .appendingPathComponent("ringcast")

/// A child process whose output is collected as it arrives, so a test can wait for a line.
final class TestProcess: Sendable {
    /// Shared with the pipes' handlers, which run on Foundation's threads.
    private final class Output: Sendable {
        let text = Mutex((stdout: "", stderr: ""))
    }

    private let process: Process
    private let output = Output()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = ringcastExecutable
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RINGCAST_") }
            .merging(environment) { _, new in new }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.stdout += text }
        }
        err.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.stderr += text }
        }
        self.process = process
        try process.run()
    }

    var stdout: String { output.text.withLock { $0.stdout } }
    var stderr: String { output.text.withLock { $0.stderr } }
    var pid: Int32 { process.processIdentifier }

    /// Waits for standard output to hold a line matching `condition`, and returns that line.
    func waitForLine(timeout: Double = 10, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = stdout.split(separator: "\n").map(String.init).first(where: condition) { return line }
            if !process.isRunning, let line = stdout.split(separator: "\n").map(String.init).first(where: condition) {
                return line
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ViewerError.timeout("no matching line on stdout; stdout: \(stdout) stderr: \(stderr)")
    }

    /// Waits for the process to exit and returns its status.
    func waitForExit(timeout: Double = 10) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                throw ViewerError.timeout("process did not exit within \(timeout) s; stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        // Let the pipes drain what the process wrote last.
        try await Task.sleep(for: .milliseconds(50))
        return process.terminationStatus
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }
}
