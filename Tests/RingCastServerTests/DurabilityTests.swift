import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Real server processes: killed mid-push, on a full disk, flooded with idempotency keys.
@Suite("Durability")
struct DurabilityTests {
    private static func temporaryDirectory(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-\(name)-\(UUID().uuidString)")
    }

    /// Starts `ringcast serve` on a free port; returns it and its port.
    private static func serve(_ arguments: [String]) async throws -> (TestProcess, Int) {
        let process = try await TestProcess(["serve", "--port", "0", "--log-level", "error"] + arguments)
        let line = try await process.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        return (process, port)
    }

    /// A config like the shipped one without the write rate limit (these tests write as fast as they can).
    private static func unlimitedConfig(in directory: URL) throws -> String {
        let shipped = try String(contentsOf: repositoryRoot.appendingPathComponent("config/ringcast.json"), encoding: .utf8)
        let file = directory.appendingPathComponent("ringcast.json")
        try shipped.replacingOccurrences(of: #""limits": {"#, with: #""limits": {"writesPerMinute": 0,"#)
            .write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// What the pushers sent: per pusher, the last value acknowledged and the last one sent.
    private final class PushLog: Sendable {
        let state = Mutex((acknowledged: [Int](repeating: -1, count: 8), sent: [Int](repeating: -1, count: 8), total: 0))
    }

    /// Pusher `p` < 7 sets ring `rings[p]` to index / 1000 (rising); pusher 7 sets the background to a colour
    /// that encodes its index. Each runs on its own thread until the server stops answering.
    private static let rings = ["move", "exercise", "stand", "task1", "task2", "task3", "task4"]

    private static func startPushers(port: Int, log: PushLog) {
        for pusher in 0..<8 {
            let thread = Thread {
                let http = TestHTTPClient(port: port, timeoutSeconds: 2)
                for index in 0..<9000 {
                    let (path, body) =
                        pusher < 7
                        ? (
                            "/api/v1/boards/main/rings/\(rings[pusher])",
                            #"{"progress":\#(Double(index) / 1000),"animation":"none"}"#
                        )
                        : ("/api/v1/boards/main/background", ##"{"color":"\##(color(index))","animation":"none"}"##)
                    log.state.withLock { $0.sent[pusher] = index }
                    guard let response = try? http.send("PUT", path, body: body), response.status == 200 else { return }
                    log.state.withLock {
                        $0.acknowledged[pusher] = index
                        $0.total += 1
                    }
                }
            }
            thread.start()
        }
    }

    private static func color(_ index: Int) -> String {
        "#" + String(format: "%02x%02x%02xff", index >> 8, index & 0xff, 0x80)
    }

    @Test func everyAcknowledgedWriteOfEightConcurrentPushers_survivesSIGKILL_fiveTimesOver() async throws {
        let data = Self.temporaryDirectory("kill")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let config = try Self.unlimitedConfig(in: data)
        for round in 0..<5 {
            let (server, port) = try await Self.serve([
                "--config", config, "--data-dir", data.appendingPathComponent("data").path,
            ])
            let log = PushLog()
            Self.startPushers(port: port, log: log)
            // Kill it in the middle of the burst: once a few hundred writes have been acknowledged, at least one to
            // every pusher (on a loaded machine one pusher's thread may not have had its first answer when the
            // others had hundreds; the server takes a change faster than it took a whole state).
            let deadline = Date().addingTimeInterval(20)
            while log.state.withLock({ $0.total < 200 * (round + 1) || $0.acknowledged.contains(-1) }), Date() < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            server.signal(SIGKILL)
            #expect(try await server.waitForExit() == SIGKILL)
            let (acknowledged, sent) = log.state.withLock { ($0.acknowledged, $0.sent) }
            #expect(acknowledged.allSatisfy { $0 >= 0 }, "round \(round): every pusher got answers: \(acknowledged)")

            let (again, newPort) = try await Self.serve([
                "--config", config, "--data-dir", data.appendingPathComponent("data").path,
            ])
            let snapshot = try TestHTTPClient(port: newPort).get("/api/v1/boards/main").decode(TestSnapshot.self)
            for pusher in 0..<7 where acknowledged[pusher] >= 0 {
                // At least the last acknowledged value (a write sent but not answered may have landed too).
                let stored = Int(((snapshot[ring: Self.rings[pusher]]?.target ?? -1) * 1000).rounded())
                #expect(
                    stored >= acknowledged[pusher] && stored <= sent[pusher],
                    "round \(round), ring \(Self.rings[pusher]): stored \(stored), acknowledged \(acknowledged[pusher]), sent \(sent[pusher])"
                )
            }
            let background = snapshot.background ?? ""
            let landed = (acknowledged[7]...max(acknowledged[7], sent[7])).map(Self.color)
            #expect(landed.contains(background), "round \(round): background \(background), acknowledged \(acknowledged[7])")
            again.signal(SIGTERM)
            #expect(try await again.waitForExit() == 0)
        }
    }

    @Test func aFullDisk_gives503AndChangesNothing_readyzSaysSo_andWritesComeBackWithSpace() async throws {
        let mountPoint = Self.temporaryDirectory("full")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        // A real small filesystem: a 2 MiB tmpfs (the tests run as root, as CI does).
        let mounted = mount("tmpfs", mountPoint.path, "tmpfs", 0, "size=2m")
        try #require(mounted == 0, "mount a tmpfs (needs root): \(String(cString: strerror(errno)))")
        defer { umount2(mountPoint.path, Int32(MNT_DETACH)) }

        let data = mountPoint.appendingPathComponent("data")
        let (server, port) = try await Self.serve(["--data-dir", data.path])
        defer { server.signal(SIGKILL) }
        let http = TestHTTPClient(port: port)
        #expect(try http.send("PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":0.3}"#).status == 200)
        #expect(try http.get("/readyz").status == 200)

        // Fill the disk to the last byte.
        let filler = mountPoint.appendingPathComponent("filler").path
        let fd = open(filler, O_WRONLY | O_CREAT, 0o644)
        try #require(fd >= 0)
        var block = [UInt8](repeating: 0xAB, count: 64 * 1024)
        while !block.isEmpty {
            let written = block.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            if written < 0 { block.removeLast(block.count / 2 + (block.count == 1 ? 1 : 0)) }
        }
        close(fd)

        // A few writes, so one reaches past the space SQLite already had: 503, and nothing changed.
        let refused = try await onOwnThread { () throws -> TestResponse? in
            for index in 0..<50 {
                let response = try http.send(
                    "PUT", "/api/v1/boards/main/rings/stand",
                    body:
                        ##"{"progress":\##(Double(index + 1) / 100),"colors":["#\##(String(format: "%06x", index))","#ffffff"]}"##
                )
                if response.status != 200 { return response }
            }
            return nil
        }
        let failure = try #require(refused, "a full disk must refuse a write")
        #expect(failure.status == 503 && failure.error?.code == "storage_unavailable", "\(failure.status) \(failure.text)")
        let ready = try http.get("/readyz")
        #expect(ready.status == 503, "readyz: \(ready.text)")
        #expect(try http.send("PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":0.9}"#).status == 503)
        #expect(try http.get("/api/v1/boards/main").decode(TestSnapshot.self)[ring: "move"]?.target == 0.3)

        // Space again: the server finds out by itself and takes writes.
        unlink(filler)
        let deadline = Date().addingTimeInterval(10)
        while try http.get("/readyz").status != 200, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try http.get("/readyz").status == 200)
        #expect(try http.send("PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":0.6}"#).status == 200)
        #expect(try http.get("/api/v1/boards/main").decode(TestSnapshot.self)[ring: "move"]?.target == 0.6)
    }

    @Test func twoThousandUniqueIdempotencyKeysWithLargeBodies_growMemoryByLessThan16MiB() async throws {
        let data = Self.temporaryDirectory("keys")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let (server, port) = try await Self.serve([
            "--config", try Self.unlimitedConfig(in: data), "--data-dir", data.appendingPathComponent("data").path,
        ])
        defer { server.signal(SIGKILL) }
        let http = TestHTTPClient(port: port)
        // A valid PATCH padded with JSON whitespace to 20 KB; the statuses that were not 200. 2,000 such bodies are
        // 40 MB: a cache that kept bodies (or anything in proportion to them) would grow past the 16 MiB bound
        // more than twice over, and the debug server reads a third of the bytes it read at 60 KB.
        @Sendable func push(_ indices: Range<Int>) throws -> [Int] {
            try indices.compactMap { index in
                let body = #"{"rings":{"move":\#(Double(index % 1000) / 1000)}"# + String(repeating: " ", count: 20_000) + "}"
                let status = try http.send(
                    "PATCH", "/api/v1/boards/main",
                    headers: ["Content-Type": "application/json", "Idempotency-Key": "key-\(index)"], body: body
                ).status
                return status == 200 ? nil : status
            }
        }
        #expect(try await onOwnThread { try push(0..<200) } == [])
        let before = try #require(Self.residentKilobytes(of: server.pid))
        // Eight pushers at once, as clients would: the store commits their writes together, so the 2,000 keys
        // take a fraction of the commits one pusher needs (each a sync to disk), and the cache fills the same.
        let refused = try await withThrowingTaskGroup(of: [Int].self) { group in
            for first in stride(from: 200, to: 2200, by: 250) {
                group.addTask { try await onOwnThread { try push(first..<first + 250) } }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(refused == [])
        let after = try #require(Self.residentKilobytes(of: server.pid))
        #expect(after - before < 16 * 1024, "RSS grew from \(before) KiB to \(after) KiB")
        // The keys still work: a retry within the cache replays.
        let replay = try http.send(
            "PATCH", "/api/v1/boards/main",
            headers: ["Content-Type": "application/json", "Idempotency-Key": "key-2199"],
            body: #"{"rings":{"move":\#(Double(2199 % 1000) / 1000)}"# + String(repeating: " ", count: 20_000) + "}")
        #expect(replay.status == 200 && replay.headers["idempotent-replayed"] == "true")
    }

    private static func residentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    }
}
