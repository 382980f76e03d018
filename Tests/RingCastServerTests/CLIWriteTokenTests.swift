import Foundation
import RingCastServer
import Testing

/// `ringcast push` with a token scoped to writing one board (issue 34): a push needs write access and nothing else,
/// and a token that may not write the board is told so in the write's words, not a read's.
@Suite("ringcast push with a write-scoped token")
struct CLIWriteTokenTests {
    static let root = "root-secret-1"
    static let ci = "ci-secret-1"

    /// Runs `ringcast arguments` against `url` with `token` to its end: the status and both outputs.
    private func push(_ arguments: [String], url: String, token: String) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = try await TestProcess(["push"] + arguments + ["--server", url, "--token", token])
        let status = try await process.waitForExit()
        return (status, process.stdout, process.stderr)
    }

    @Test func aWriteScopedToken_pushesAPlainRingAndACounter_andElsewhereIsRefusedTheWrite() async throws {
        // Reads closed too (a read token exists), as on a server whose TVs need a token.
        let server = try TestServer {
            $0.writeToken = Self.root
            $0.readToken = "tv-secret-1"
            $0.tokens = [AccessToken(name: "ci", secret: .plain(Self.ci), boards: ["ci"], access: .write)]
        }
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        let admin = ["Content-Type": "application/json", "Authorization": "Bearer \(Self.root)"]
        let created = try server.http.send(
            "PUT", "/api/v1/boards/ci", headers: admin, body: #"{"template":"tasks","count":2}"#)
        #expect(created.status == 201, "\(created.text)")
        let added = try await TestProcess([
            "widget", "add", "ci", "passed", "--kind", "counter", "--value", "3", "--server", url, "--token", Self.root,
        ])
        #expect(try await added.waitForExit() == 0, "stderr: \(added.stderr)")

        let plain = try await push(["ci", "task1", "0.4", "--animation", "none"], url: url, token: Self.ci)
        #expect(plain.status == 0, "stderr: \(plain.stderr)")
        #expect(plain.stdout == "ci/task1 → 40%\n")
        // A number from 0 to 10 goes as a progress first; the counter refuses it and takes it as its number.
        let counter = try await push(["ci", "passed", "7"], url: url, token: Self.ci)
        #expect(counter.status == 0, "stderr: \(counter.stderr)")
        #expect(counter.stdout == "ci/passed → 7\n")
        var board = try server.http.get("/api/v1/boards/ci", headers: admin).decode(TestSnapshot.self)
        #expect(board[ring: "task1"]?.target == 0.4)
        #expect(board[ring: "passed"]?.target == 7)
        // A number no progress can be, as it is.
        let negative = try await push(["ci", "passed", "-5"], url: url, token: Self.ci)
        #expect(negative.status == 0, "stderr: \(negative.stderr)")
        #expect(negative.stdout == "ci/passed → -5\n")
        let big = try await push(["ci", "passed", "1234"], url: url, token: Self.ci)
        #expect(big.stdout == "ci/passed → 1234\n", "stderr: \(big.stderr)")
        board = try server.http.get("/api/v1/boards/ci", headers: admin).decode(TestSnapshot.self)
        #expect(board[ring: "passed"]?.target == 1234)

        // A board the token does not cover: the refusal is the write's.
        let elsewhere = try await push(["main", "move", "0.5"], url: url, token: Self.ci)
        #expect(elsewhere.status == 1)
        #expect(
            elsewhere.stderr
                == "ringcast: token \"ci\" may write board ci; it may not write board \"main\" (the token from --token "
                + "may not do this)\n")
        let elsewhereCounter = try await push(["main", "move", "-5"], url: url, token: Self.ci)
        #expect(elsewhereCounter.stderr.contains("may not write board \"main\""), "stderr: \(elsewhereCounter.stderr)")
    }

    @Test func aCountdownRing_pointsAtRingcastCountdown() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        for value in ["0.5", "-2", "none"] {
            let process = try await TestProcess(["push", "main", "countdown", value, "--server", url])
            #expect(try await process.waitForExit() == 1)
            #expect(
                process.stderr
                    == "ringcast: ring \"countdown\" is a countdown: it follows the clock; start it with ringcast countdown "
                    + "main SECONDS, stop it with ringcast countdown main --cancel\n", "VALUE \(value)")
        }
    }
}
