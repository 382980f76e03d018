import Foundation
import Testing

/// The files in deploy/ that docs/DEPLOYMENT.md hands to people. The nginx configuration is run for
/// real by the browser test (Tests/browser/test_proxy.py).
@Suite("Deployment files")
struct DeploymentTests {
    static let systemdAnalyze = "/usr/bin/systemd-analyze"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze), "needs systemd-analyze"))
    func systemdUnit_passesSystemdAnalyzeVerify() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The unit names the installed binary; verify checks that ExecStart is executable, so it
        // points at the one this build made.
        let unit = try String(contentsOf: repositoryRoot.appendingPathComponent("deploy/ringcast.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/opt/ringcast/ringcast serve"))
        let file = directory.appendingPathComponent("ringcast.service")
        try unit.replacingOccurrences(of: "ExecStart=/opt/ringcast/ringcast ", with: "ExecStart=\(ringcastExecutable.path) ")
            .write(to: file, atomically: true, encoding: .utf8)

        let verify = try await TestProcess(["verify", file.path], executable: URL(fileURLWithPath: Self.systemdAnalyze))
        let status = try await verify.waitForExit(timeout: 30)
        #expect(status == 0, "systemd-analyze verify: \(verify.stderr)\(verify.stdout)")
        #expect(verify.stderr.isEmpty, "\(verify.stderr)")
    }
}
