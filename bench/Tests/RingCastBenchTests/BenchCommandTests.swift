import Foundation
import Testing

/// `ringcast-bench` against a real `ringcast serve`, run as `make bench` runs it: its JSON results, its recorded
/// frames and the report written from them. Each scenario runs briefly (1.5 s after 0.5 s of warm-up).
@Suite("ringcast-bench command line", .serialized)
struct BenchCommandTests {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private func object(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    @Test func viewers_measureALiveServer_recordFrames_andTheReportIsWritten() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: benchExecutable.path), "build the ringcast-bench product first")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let result = work.appendingPathComponent("bench.json").path
        let frames = work.appendingPathComponent("frames.bin").path

        try await BenchServer.with { server in
            let bench = try BenchChild(
                benchExecutable,
                [
                    "--server", server.url, "--viewers", "5", "--duration", "1.5", "--warmup", "0.5", "--push-interval", "0.1",
                    "--json", result, "--record-frames", frames,
                ])
            #expect(try await bench.waitForExit() == 0, "stderr: \(bench.stderr)")
        }
        let json = try object(result)
        #expect((json["viewers"] as? [String: Any])?["measured"] as? Int == 5)
        let published = (json["window"] as? [String: Any])?["framesPublished"] as? Int ?? 0
        #expect(published > 10, "the animated ring should give a frame every tick: \(published)")
        // The probes were read out of the frames by RingCastCore's decoder.
        #expect(((json["latencyMilliseconds"] as? [String: Any])?["probes"] as? Int ?? 0) > 0)
        // Recorded frames: u32 length, then a binary frame ('R', a version 3 to 6, kind 2 or 3).
        let recorded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: frames)))
        try #require(recorded.count > 12)
        let length = Int(recorded[0]) | Int(recorded[1]) << 8 | Int(recorded[2]) << 16 | Int(recorded[3]) << 24
        #expect(length >= 16 && 4 + length <= recorded.count)
        #expect(recorded[4] == 0x52 && (3...6).contains(recorded[5]) && [2, 3].contains(recorded[6]))

        let report = work.appendingPathComponent("BENCHMARKS.md").path
        let write = try BenchChild(benchExecutable, ["report", "--output", report, result])
        #expect(try await write.waitForExit() == 0, "stderr: \(write.stderr)")
        let markdown = try String(contentsOfFile: report, encoding: .utf8)
        #expect(markdown.contains("| 5 (5) |"), "report: \(markdown)")

        let refused = try BenchChild(benchExecutable, ["--server", "http://192.0.2.1:8080", "--viewers", "1"])
        #expect(try await refused.waitForExit() != 0)
        #expect(refused.stderr.contains("loopback"), "stderr: \(refused.stderr)")
    }

    @Test func pushersAndJoinStorm_measureALiveServer_andReportTheirSections() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: benchExecutable.path), "build the ringcast-bench product first")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let pushes = work.appendingPathComponent("pushers.json").path
        let joins = work.appendingPathComponent("join-storm.json").path

        try await BenchServer.with { server in
            let pushers = try BenchChild(
                benchExecutable,
                [
                    "--scenario", "pushers", "--server", server.url, "--pushers", "2", "--viewers", "5", "--duration", "1.5",
                    "--warmup", "0.5", "--data-dir", server.directory.path, "--push-animation", "10", "--json", pushes,
                ])
            #expect(try await pushers.waitForExit() == 0, "stderr: \(pushers.stderr)")
            let storm = try BenchChild(
                benchExecutable,
                [
                    "--scenario", "join-storm", "--server", server.url, "--viewers", "5", "--join-rate", "20", "--duration",
                    "1.5", "--warmup", "0.5", "--json", joins,
                ])
            #expect(try await storm.waitForExit() == 0, "stderr: \(storm.stderr)")
        }
        let push = try object(pushes)
        #expect(push["scenario"] as? String == "pushers")
        #expect((push["settings"] as? [String: Any])?["animation"] as? String == "10")
        #expect((push["pushes"] as? [String: Any])?["acknowledged"] as? Int ?? 0 > 0)
        #expect((push["viewers"] as? [String: Any])?["measured"] as? Int == 5)
        let gaps = (push["viewers"] as? [String: Any])?["frameGapMilliseconds"] as? [String: Any]
        #expect(gaps?["count"] as? Int ?? 0 > 10, "frames every tick give frame gaps: \(String(describing: gaps))")
        #expect((push["dataFilesystem"] as? [String: Any])?["type"] is String)
        let join = try object(joins)
        #expect(join["scenario"] as? String == "join-storm")
        #expect((join["joins"] as? [String: Any])?["completed"] as? Int ?? 0 > 0)
        #expect((join["watchers"] as? [String: Any])?["measured"] as? Int == 5)

        let report = work.appendingPathComponent("BENCHMARKS.md").path
        let write = try BenchChild(benchExecutable, ["report", "--output", report, pushes, joins])
        #expect(try await write.waitForExit() == 0, "stderr: \(write.stderr)")
        let markdown = try String(contentsOfFile: report, encoding: .utf8)
        #expect(markdown.contains("## Push throughput") && markdown.contains("## Join storm"), "report: \(markdown)")
        #expect(markdown.contains("| linear 10 s |"), "the push table names each run's animation: \(markdown)")

        let misplaced = try BenchChild(benchExecutable, ["--scenario", "join-storm", "--pushers", "4"])
        #expect(try await misplaced.waitForExit() != 0)
        #expect(misplaced.stderr.contains("--pushers applies to --scenario pushers"), "stderr: \(misplaced.stderr)")
        let tooLong = try BenchChild(benchExecutable, ["--scenario", "pushers", "--push-animation", "61"])
        #expect(try await tooLong.waitForExit() != 0)
        #expect(tooLong.stderr.contains("--push-animation must be none, default or"), "stderr: \(tooLong.stderr)")
    }
}
