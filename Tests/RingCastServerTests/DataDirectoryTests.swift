import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Real server processes whose data directory is tampered with (issue 21): the LOCK file deleted or
/// taken by someone else while a server runs, and the -wal file of a killed one damaged or deleted.
@Suite("A data directory tampered with")
struct DataDirectoryTests {
    /// A fresh data directory, removed with everything in it by the caller.
    private static func temporaryDirectory(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-\(name)-\(UUID().uuidString)").path
    }

    /// Starts `ringcast serve` on a free port with `data` as its data directory; returns it and its port.
    private static func serve(_ data: String, logLevel: String = "error") async throws -> (TestProcess, Int) {
        let process = try await TestProcess(["serve", "--port", "0", "--data-dir", data, "--log-level", logLevel])
        let line = try await process.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        return (process, port)
    }

    private static func setMove(_ value: Double, on http: TestHTTPClient) throws -> TestResponse {
        try http.send("PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":\#(value),"animation":"none"}"#)
    }

    /// Polls `/readyz` (at most `timeout` seconds) until it answers `status`; returns the last answer.
    private static func readiness(_ http: TestHTTPClient, until status: Int, timeout: Double = 10) async throws -> TestResponse {
        let deadline = Date().addingTimeInterval(timeout)
        var answer = try http.get("/readyz")
        while answer.status != status, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
            answer = try http.get("/readyz")
        }
        return answer
    }

    @Test func lockFileDeletedUnderARunningServer_secondServerIsRefused_andEveryAcknowledgedWriteSurvivesARestart()
        async throws
    {
        let data = Self.temporaryDirectory("lock")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (first, port) = try await Self.serve(data)
        defer { first.signal(SIGKILL) }
        let http = TestHTTPClient(port: port)
        #expect(try Self.setMove(0.1, on: http).status == 200)

        try FileManager.default.removeItem(atPath: data + "/LOCK")
        let second = try await TestProcess(["serve", "--port", "0", "--data-dir", data])
        #expect(try await second.waitForExit() == 1, "stdout: \(second.stdout)")
        #expect(
            second.stderr.contains("data directory \(data) is in use by another ringcast (pid \(first.pid))"),
            "\(second.stderr)")

        // Each write after the deletion is acknowledged (the first server still holds the database) or
        // refused with 503; never acknowledged and then lost.
        var acknowledged = 0.1
        for step in 2...6 {
            let value = Double(step) / 10
            let answer = try Self.setMove(value, on: http)
            #expect(answer.status == 200 || answer.error?.code == "storage_unavailable", "\(answer.status) \(answer.text)")
            if answer.status == 200 { acknowledged = value }
            if step == 4 {
                let third = try await TestProcess(["serve", "--port", "0", "--data-dir", data])
                #expect(try await third.waitForExit() == 1)
                #expect(third.stderr.contains("is in use by another ringcast (pid \(first.pid))"), "\(third.stderr)")
            }
        }
        #expect(acknowledged == 0.6, "the server took LOCK back and acknowledged the writes after it")

        first.signal(SIGKILL)
        #expect(try await first.waitForExit() == SIGKILL)
        let (again, newPort) = try await Self.serve(data)
        defer { again.signal(SIGKILL) }
        let snapshot = try TestHTTPClient(port: newPort).get("/api/v1/boards/main").decode(TestSnapshot.self)
        #expect(snapshot[ring: "move"]?.target == acknowledged)
    }

    @Test func lockFileReplacedByOneAnotherProcessHolds_stopsWrites_andReadyzNamesIt_untilItIsLetGo() async throws {
        let data = Self.temporaryDirectory("lock-taken")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, port) = try await Self.serve(data)
        defer { server.signal(SIGKILL) }
        let http = TestHTTPClient(port: port)
        #expect(try Self.setMove(0.2, on: http).status == 200)

        let lock = data + "/LOCK"
        try FileManager.default.removeItem(atPath: lock)
        let other = open(lock, O_RDWR | O_CREAT, 0o644)
        try #require(other >= 0)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
        #expect(pwrite(other, "4242\n", 5, 0) == 5)

        // Found within a second or so even though nobody writes.
        let ready = try await Self.readiness(http, until: 503)
        #expect(ready.status == 503)
        struct Readiness: Decodable { var reason: String }
        #expect(
            try ready.decode(Readiness.self).reason
                == "the lock file \(lock) was replaced while this ringcast ran, and another process holds it now (pid 4242); "
                + "writes are refused until this ringcast holds it again")
        let refused = try Self.setMove(0.7, on: http)
        #expect(refused.status == 503 && refused.error?.code == "storage_unavailable", "\(refused.status) \(refused.text)")
        #expect(try await server.waitForStandardError(containing: "the store stops taking writes"), "\(server.stderr)")
        #expect(try http.get("/api/v1/boards/main").decode(TestSnapshot.self)[ring: "move"]?.target == 0.2)

        #expect(flock(other, LOCK_UN) == 0)
        #expect(try await Self.readiness(http, until: 200).status == 200)
        #expect(try Self.setMove(0.8, on: http).status == 200)
        #expect(try String(contentsOfFile: lock, encoding: .utf8) == "\(server.pid)\n")
    }

    /// How a test spoils the -wal of a killed server, and what the next start must log about it.
    struct Damage: Sendable, CustomTestStringConvertible {
        var name: String
        var apply: @Sendable (_ wal: String) throws -> Void
        var logged: String

        var testDescription: String { name }
    }

    static let damages = [
        Damage(
            name: "header bytes overwritten",
            apply: { wal in
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: wal))
                defer { try? handle.close() }
                try handle.seek(toOffset: 16)
                try handle.write(contentsOf: Data([0xDE, 0xAD]))
            },
            logged: "ringcast.sqlite3-wal: has a damaged header (its checksum does not match): SQLite ignores the whole file"),
        Damage(
            name: "cut to 20 bytes",
            apply: { wal in try FileHandle(forWritingTo: URL(fileURLWithPath: wal)).truncate(atOffset: 20) },
            logged: "ringcast.sqlite3-wal: is 20 bytes long, shorter than a WAL header (32 bytes)"),
        Damage(
            name: "deleted with the -shm",
            apply: { wal in
                try FileManager.default.removeItem(atPath: wal)
                try FileManager.default.removeItem(atPath: String(wal.dropLast(4)) + "-shm")
            },
            logged: "ringcast.sqlite3-wal: is missing, though the last ringcast to use the database stopped without closing it"
        ),
    ]

    @Test(arguments: damages)
    func walOfAKilledServerDamagedOrDeleted_isNamedInTheLogAtTheNextStart(damage: Damage) async throws {
        let data = Self.temporaryDirectory("wal")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (killed, port) = try await Self.serve(data)
        defer { killed.signal(SIGKILL) }
        let http = TestHTTPClient(port: port)
        for step in 1...3 { #expect(try Self.setMove(Double(step) / 10, on: http).status == 200) }
        killed.signal(SIGKILL)
        #expect(try await killed.waitForExit() == SIGKILL)
        let wal = data + "/ringcast.sqlite3-wal"
        #expect(FileManager.default.fileExists(atPath: wal), "a killed server leaves its -wal behind")

        try damage.apply(wal)
        let (started, _) = try await Self.serve(data, logLevel: "warning")
        defer { started.signal(SIGKILL) }
        #expect(try await started.waitForStandardError(containing: damage.logged), "\(started.stderr)")
    }
}
