import Foundation
import Testing

/// The `ringcast` command's failures, run as a person would (issue 24): each is one line on standard
/// error, `ringcast: …`, with exit status 64 for a usage error and 1 for anything else, and nothing on
/// standard output; the cases a user met, one by one.
@Suite("ringcast: one line per failure")
struct CommandFailureLineTests {
    /// Runs `ringcast arguments` to its end: the status and both outputs.
    private func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = try await TestProcess(arguments, environment: environment)
        let status = try await process.waitForExit()
        return (status, process.stdout, process.stderr)
    }

    /// Expects `result` to be a failure of `status` whose standard error is exactly one line, `ringcast: …`.
    private func expectOneLine(
        _ result: (status: Int32, stdout: String, stderr: String), status: Int32, _ line: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == line + "\n", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)", sourceLocation: sourceLocation)
    }

    @Test func countdownHelp_saysTheRingFills() async throws {
        let help = try await run(["countdown", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("fills over SECONDS"), "\(help.stdout)")
        #expect(!help.stdout.contains("empties"), "\(help.stdout)")
    }

    @Test func usageErrors_areOneLine_withExitStatus64_andNameTheHelp() async throws {
        expectOneLine(
            try await run(["push", "main"]), status: 64,
            "ringcast: missing expected argument '<ring>' (see ringcast push --help)")
        expectOneLine(
            try await run(["push", "main", "move", "0.5", "--maxx", "2"]), status: 64,
            "ringcast: unknown option '--maxx' (see ringcast push --help)")
        expectOneLine(
            try await run(["board", "delete"]), status: 64,
            "ringcast: missing expected argument '<name>' (see ringcast board delete --help)")
        expectOneLine(
            try await run(["get", "main", "--server", "ftp://x"]), status: 64,
            "ringcast: --server must be an http:// or https:// URL, got ftp://x (see ringcast get --help)")
        let nothing = try await run(["nope"])
        #expect(nothing.status == 64)
        #expect(nothing.stderr.split(separator: "\n").count == 1, "one line: \(nothing.stderr)")
    }

    @Test func negativeValues_parseWithoutDoubleDash() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        // A progress below 0 reaches the value check, by name, rather than ArgumentParser's "missing argument".
        expectOneLine(
            try await run(["push", "main", "move", "-0.1", "--server", url]), status: 1,
            "ringcast: value must be a number from 0 to 10 (1 = 100 %), got -0.1")
        // A counter takes a negative number as it is, options after it still read as options.
        let add = try await run([
            "widget", "add", "main", "delta", "--kind", "counter", "--value", "-3", "--force", "--server", url,
        ])
        #expect(add.status == 0, "stderr: \(add.stderr)")
        let push = try await run(["push", "main", "delta", "-5", "--animation", "none", "--server", url])
        #expect(push.status == 0, "stderr: \(push.stderr)")
        #expect(push.stdout == "main/delta → -5\n")
        // A spring's negative bounce, after its option.
        let bounce = try await run(["push", "main", "move", "0.4", "--duration", "0.5", "--bounce", "-0.3", "--server", url])
        #expect(bounce.status == 0, "stderr: \(bounce.stderr)")
    }

    @Test func aMissingOrRefusedToken_namesTokenAndRINGCAST_TOKEN() async throws {
        let server = try TestServer { $0.writeToken = "write-secret-1" }
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        expectOneLine(
            try await run(["push", "main", "move", "0.5", "--server", url]), status: 1,
            "ringcast: \(url) needs a token for this: pass --token TOKEN or set RINGCAST_TOKEN")
        let wrong = try await run(["push", "main", "move", "0.5", "--server", url, "--token", "not-the-one"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.hasPrefix("ringcast: \(url) refused the token from --token"), "\(wrong.stderr)")
        #expect(wrong.stderr.hasSuffix("; check --token or RINGCAST_TOKEN\n") && !wrong.stderr.dropLast().contains("\n"))
        let fromEnvironment = try await run(
            ["push", "main", "move", "0.5", "--server", url], environment: ["RINGCAST_TOKEN": "not-the-one"])
        #expect(fromEnvironment.stderr.hasPrefix("ringcast: \(url) refused the token from RINGCAST_TOKEN"))
        let right = try await run(
            ["push", "main", "move", "0.5", "--server", url], environment: ["RINGCAST_TOKEN": "write-secret-1"])
        #expect(right.status == 0, "stderr: \(right.stderr)")
    }

    @Test func boardDelete_ofAConfiguredBoard_needsForce_andSaysWhatGoes() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        let rings = try server.http.get("/api/v1/boards/main").decode(TestSnapshot.self).rings.count
        expectOneLine(
            try await run(["board", "delete", "main", "--server", url]), status: 1,
            "ringcast: board main comes from the server's configuration; deleting it removes it for good "
                + "(until the data directory is wiped) with its \(rings) rings and their values; pass --force to delete it")
        #expect(try server.http.get("/api/v1/boards/main").status == 200, "nothing was deleted")

        // A board made through the API goes at once; a configured one with --force.
        let create = try await run(["board", "create", "ci", "--template", "single", "--server", url])
        #expect(create.status == 0, "stderr: \(create.stderr)")
        let deleteCI = try await run(["board", "delete", "ci", "--server", url])
        #expect(deleteCI.status == 0 && deleteCI.stdout == "deleted board ci\n", "stderr: \(deleteCI.stderr)")
        let forced = try await run(["board", "delete", "main", "--force", "--server", url])
        #expect(forced.status == 0, "stderr: \(forced.stderr)")
        #expect(try server.http.get("/api/v1/boards/main").status == 404)
    }

    @Test func boardCreate_overAnExistingBoard_needsReplace_andKeepsItsValuesWithout() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        let create = try await run(["board", "create", "ci", "--template", "tasks", "--count", "2", "--server", url])
        #expect(create.status == 0 && create.stdout == "created board ci (tasks, 3 rings)\n", "\(create)")
        let push = try await run(["push", "ci", "task1", "0.7", "--animation", "none", "--server", url])
        #expect(push.status == 0, "stderr: \(push.stderr)")

        expectOneLine(
            try await run(["board", "create", "ci", "--template", "single", "--server", url]), status: 1,
            "ringcast: board ci exists with 3 rings; --replace replaces it, values gone")
        let kept = try server.http.get("/api/v1/boards/ci").decode(TestSnapshot.self)
        #expect(kept[ring: "task1"]?.target == 0.7 && kept.rings.count == 3)

        let replaced = try await run(["board", "create", "ci", "--template", "single", "--replace", "--server", url])
        #expect(replaced.status == 0 && replaced.stdout == "replaced board ci (single, 1 ring)\n", "\(replaced)")
    }

    @Test func serveWithACertificateAlone_namesTheFlags() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        expectOneLine(
            try await run(["serve", "--port", "0", "--data-dir", data.path, "--tls-cert", "cert.pem"]), status: 1,
            "ringcast: --tls-cert: needs --tls-key, its private key; give both or neither")
        expectOneLine(
            try await run(["serve", "--port", "0", "--data-dir", data.path, "--tls-key", "key.pem"]), status: 1,
            "ringcast: --tls-key: needs --tls-cert, the certificate; give both or neither")
        expectOneLine(
            try await run(["serve", "--port", "0", "--data-dir", data.path], environment: ["RINGCAST_TLS_CERT": "cert.pem"]),
            status: 1, "ringcast: RINGCAST_TLS_CERT: needs RINGCAST_TLS_KEY (or --tls-key), its private key; give both or neither"
        )
    }
}
