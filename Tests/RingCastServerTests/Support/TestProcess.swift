import ChildProcessSupport
import Foundation
import Synchronization

/// The `ringcast` executable SwiftPM built next to this test bundle.
let ringcastExecutable: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent()
    .appendingPathComponent("ringcast")

/// A child process whose output is collected as it arrives, so a test can wait for a line.
///
/// Started with posix_spawn(3) (`ChildProcess`) and reaped by a thread of its own blocked in waitpid(2), so its exit
/// is recorded however busy Swift's cooperative threads are. Never through Foundation's `Process`: up to Swift
/// 6.3.1 `Process.run()` on Linux reads past glibc's buffer while it walks /proc/self/fd and crashes a test run now
/// and then (swift-corelibs-foundation pull request 5472). Nor swift-subprocess, whose monitor twice reaped a child
/// without handing its status back. Launch no child another way anywhere in Sources or Tests.
///
/// The child writes its standard output and error to two files of a directory of its own, read whenever the test
/// asks: nothing has to drain a pipe for the child to go on.
final class TestProcess: Sendable {
    /// How the child ended, kept by the thread that reaped it.
    private final class End: Sendable {
        /// The exit code, or the signal number for a child killed by a signal, and when the child was reaped; nil
        /// while it runs.
        let state = Mutex<(status: Int32, at: Date)?>(nil)
    }

    let pid: Int32
    private let end = End()
    /// Where the child's standard output and error go (`stdout`, `stderr`); removed when this goes.
    private let directory: URL

    /// Starts `executable` (`ringcast` unless told otherwise) with `arguments`, the test's
    /// environment less every `RINGCAST_*` variable, plus `environment`, in the repository's root.
    init(_ arguments: [String], executable: URL = ringcastExecutable, environment: [String: String] = [:]) async throws {
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RINGCAST_") }
        variables.merge(environment) { _, new in new }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pid = try ChildProcess.spawn(
            [executable.path] + arguments, environment: variables.map { "\($0.key)=\($0.value)" },
            directory: repositoryRoot.path, output: directory.appendingPathComponent("stdout").path,
            errors: directory.appendingPathComponent("stderr").path)
        let (pid, end) = (pid, end)
        let reaper = Thread {
            let status = ChildProcess.wait(pid)
            end.state.withLock { $0 = (status, Date()) }
        }
        reaper.name = "reaps \(executable.lastPathComponent) \(pid)"
        reaper.start()
    }

    deinit {
        // A child still running is not waited for; its files go once it has let go of them.
        try? FileManager.default.removeItem(at: directory)
    }

    /// What the child has written to its standard output so far.
    var stdout: String { read("stdout") }
    /// What the child has written to its standard error so far.
    var stderr: String { read("stderr") }

    private func read(_ name: String) -> String {
        (try? Data(contentsOf: directory.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
    private var exitStatus: Int32? { end.state.withLock { $0?.status } }

    /// Waits for standard output to hold a line matching `condition`, and returns that line.
    func waitForLine(timeout: Double = 10, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        // Once more after the deadline: on a starved machine the wait may wake only after it.
        var last = false
        while !last {
            last = Date() >= deadline
            // Read the status before the output: once exited, the output is complete.
            let exited = exitStatus != nil
            if let line = stdout.split(separator: "\n").map(String.init).first(where: condition) { return line }
            if exited { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ViewerError.timeout("no matching line on stdout; stdout: \(stdout) stderr: \(stderr)")
    }

    /// Waits (at most `timeout` seconds) for standard error to contain `text`; true when it did.
    /// The child's log lines reach the pipe after whatever it did first (a metric, an answer).
    func waitForStandardError(containing text: String, timeout: Double = 5) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderr.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return stderr.contains(text)
    }

    /// Waits for the process to exit and returns its exit code, or the number of the signal that ended it; its
    /// output is then complete. Past `timeout` the child is killed and this throws. 30 s by default: this wait runs
    /// on Swift's cooperative threads, which `make test` beside two CPU hogs has kept busy for over 10 s.
    func waitForExit(timeout: Double = 30) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = exitStatus { return status }
            if Date() > deadline {
                signal(SIGKILL)
                throw ViewerError.timeout(
                    "process did not exit within \(timeout) s; stdout: \(stdout) stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Seconds from `start` to the child's end, nil if it has not ended within `limit` seconds of `start`. Measured by
    /// the thread that reaped it, so a late wake of this wait does not count.
    func secondsUntilExit(after start: Date, limit: Double) async throws -> Double? {
        while Date().timeIntervalSince(start) < limit + 1 {
            if let ended = end.state.withLock({ $0?.at }) {
                let seconds = ended.timeIntervalSince(start)
                return seconds <= limit ? seconds : nil
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// Sends `number` to the child while it runs (after it has been reaped, nothing: its number may be another's).
    func signal(_ number: Int32) {
        end.state.withLock { ended in
            if ended == nil { kill(pid, number) }
        }
    }
}

/// Runs blocking work (a loop of blocking HTTP requests, say) on a thread of its own, so it never
/// holds one of Swift concurrency's few cooperative threads, which child-process monitoring and
/// the other tests need.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
