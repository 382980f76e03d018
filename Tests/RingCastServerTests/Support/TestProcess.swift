import Foundation
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// The `ringcast` executable SwiftPM built next to this test bundle.
let ringcastExecutable: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent()
    .appendingPathComponent("ringcast")

/// The `ringcast-bench` executable, built beside `ringcast`.
let ringcastBenchExecutable: URL = ringcastExecutable.deletingLastPathComponent().appendingPathComponent("ringcast-bench")

/// A child process whose output is collected as it arrives, so a test can wait for a line.
///
/// Launched through swift-subprocess (posix_spawn), never Foundation's `Process`: up to Swift 6.3.1
/// `Process.run()` on Linux reads past glibc's buffer while it walks /proc/self/fd and crashes a
/// test run now and then (swift-corelibs-foundation pull request 5472). Launch no child through
/// Foundation anywhere in Sources or Tests; use this type.
///
/// The child writes its standard output and error to two files of a directory of its own, read whenever the test
/// asks: nothing has to drain a pipe for the child to go on, and only its exit is waited for (swift-subprocess's
/// monitor thread, then a job on `ThreadExecutor.processes`). A test run once had two children end while their
/// pipes' readers, on the cooperative threads, never finished.
final class TestProcess: Sendable {
    private struct State {
        var pid: pid_t?
        /// The exit code, or the signal number for a child killed by a signal.
        var status: Int32?
        /// Why the launch failed, if it did.
        var failure: String?
        /// The test gave up waiting for the launch: a child that starts after all is killed at once, so
        /// nothing outlives its test.
        var abandoned = false
    }

    /// Shared with the task that runs the child.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    /// Where the child's standard output and error go (`stdout`, `stderr`); removed when this goes.
    private let directory: URL

    /// Starts `executable` (`ringcast` unless told otherwise) with `arguments`, the test's
    /// environment less every `RINGCAST_*` variable, plus `environment`; returns once the child runs.
    init(_ arguments: [String], executable: URL = ringcastExecutable, environment: [String: String] = [:]) async throws {
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RINGCAST_") }
        variables.merge(environment) { _, new in new }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = try FileDescriptor.open(
            FilePath(directory.appendingPathComponent("stdout").path), .writeOnly, options: [.create, .truncate],
            permissions: .ownerReadWrite)
        let errors: FileDescriptor
        do {
            errors = try FileDescriptor.open(
                FilePath(directory.appendingPathComponent("stderr").path), .writeOnly, options: [.create, .truncate],
                permissions: .ownerReadWrite)
        } catch {
            try? output.close()
            throw error
        }
        let configuration = Configuration(
            executable: .path(FilePath(executable.path)),
            arguments: Arguments(arguments),
            // Raw entries go to strdup(3) as they are, so each needs its NUL (swift-subprocess
            // adds it only to the entries it builds itself); without it a value reads past its end.
            environment: .custom(variables.map { Array("\($0.key)=\($0.value)\0".utf8) }),
            workingDirectory: FilePath(repositoryRoot.path)
        )
        let shared = self.shared
        // On a thread of its own: the launch and the wait for the exit must go on while the tests around hold
        // Swift's few cooperative threads in blocking reads.
        Task.detached(executorPreference: ThreadExecutor.processes) {
            do {
                let result = try await run(
                    configuration, input: .none, output: .fileDescriptor(output, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
                ) { execution in
                    let abandoned = shared.state.withLock {
                        $0.pid = execution.processIdentifier.value
                        return $0.abandoned
                    }
                    if abandoned { kill(execution.processIdentifier.value, SIGKILL) }
                }
                let status: Int32 =
                    switch result.terminationStatus {
                    case .exited(let code): code
                    case .signaled(let signal): signal
                    }
                shared.state.withLock { $0.status = status }
            } catch {
                shared.state.withLock {
                    $0.failure = "\(error)"
                    $0.status = -1
                }
            }
        }
        // The spawn runs on its own thread, so this waits only for the machine; this wait itself runs on the
        // cooperative threads, which a busy run may hold, so it looks once more after its deadline before it gives up.
        let deadline = Date().addingTimeInterval(60)
        while shared.state.withLock({ $0.pid == nil && $0.status == nil }) {
            guard Date() < deadline else {
                let started = shared.state.withLock { state in
                    state.abandoned = state.pid == nil && state.status == nil
                    return !state.abandoned
                }
                if started { break }
                throw ViewerError.timeout("\(executable.lastPathComponent) \(arguments) did not start")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        if let failure = shared.state.withLock({ $0.failure }) {
            throw ViewerError.timeout("cannot launch \(executable.lastPathComponent): \(failure)")
        }
    }

    deinit {
        // A child still running is not waited for; its files go once it has let go of them.
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts `ringcast-bench` with `arguments` (see `init`).
    static func bench(_ arguments: [String]) async throws -> TestProcess {
        try await TestProcess(arguments, executable: ringcastBenchExecutable)
    }

    /// What the child has written to its standard output so far.
    var stdout: String { read("stdout") }
    /// What the child has written to its standard error so far.
    var stderr: String { read("stderr") }

    private func read(_ name: String) -> String {
        (try? Data(contentsOf: directory.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
    var pid: Int32 { shared.state.withLock { $0.pid ?? -1 } }
    private var exitStatus: Int32? { shared.state.withLock { $0.status } }

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
            // The kernel may know before the task that reaps it has run: a child that has ended is a zombie until
            // then, and /proc has its status.
            if let ended = Self.endedStatus(pid: pid) { return ended }
            if Date() > deadline {
                let running = Self.isRunning(pid: pid)
                signal(SIGKILL)
                throw ViewerError.timeout(
                    "process did not exit within \(timeout) s (\(running ? "still running" : "gone, its status not recorded")); "
                        + "stdout: \(stdout) stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Whether `pid` is a process that has not ended (its /proc entry exists and is not a zombie).
    static func isRunning(pid: Int32) -> Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    /// The exit code, or the number of the signal that ended it, of a child that has ended but is not reaped yet
    /// (state `Z` in /proc/PID/stat, whose 52nd field is the status as waitpid(2) reports it); nil while it runs.
    static func endedStatus(pid: Int32) -> Int32? {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // The fields after the command's name start with the third, the state.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.first == "Z", fields.count > 49,
            let status = Int32(fields[49].trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return status & 0x7f != 0 ? status & 0x7f : (status >> 8) & 0xff
    }

    /// Sends `number` to the child while it runs (after it has exited, nothing).
    func signal(_ number: Int32) {
        shared.state.withLock { state in
            if let pid = state.pid, state.status == nil { kill(pid, number) }
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
