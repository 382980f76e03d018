import Foundation
import Testing

/// The shipped `ringcast` executable, run as a person would (`ringcast-bench`'s are bench/Tests).
@Suite("ringcast command line")
struct CommandLineTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-cli-\(UUID().uuidString)")
    }

    @Test func serve_printsTheListeningLine_servesAndStopsCleanlyOnSIGTERM() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: ringcastExecutable.path), "build the ringcast product first")
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await TestProcess(["serve", "--port", "0", "--data-dir", data.path])

        let line = try await serve.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "line: \(line)")
        #expect(line == "listening on http://127.0.0.1:\(port)")
        #expect(try TestHTTPClient(port: port).get("/healthz").status == 200)

        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit() == 0, "stderr: \(serve.stderr)")
    }

    @Test func push_setsTheRing_andReportsErrorsFromTheServer() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"

        let push = try await TestProcess([
            "push", "main", "move", "0.42", "--curve", "easeOut", "--duration", "0.2", "--server", url,
        ])
        #expect(try await push.waitForExit() == 0, "stderr: \(push.stderr)")
        #expect(push.stdout.contains("42%"))
        let snapshot = try server.http.get("/api/v1/boards/main").decode(TestSnapshot.self)
        #expect(snapshot[ring: "move"]?.target == 0.42)

        let unknown = try await TestProcess(["push", "main", "nope", "0.5", "--server", url])
        #expect(try await unknown.waitForExit() != 0)
        #expect(unknown.stderr.contains(#"has no ring "nope""#), "the server's message: \(unknown.stderr)")

        let outOfRange = try await TestProcess(["push", "main", "move", "11", "--server", url])
        #expect(try await outOfRange.waitForExit() != 0)
        #expect(outOfRange.stderr.contains("from 0 to 10"), "stderr: \(outOfRange.stderr)")

        // By host name, with a trailing slash; https to a plain server fails (TLSTests covers https).
        let byName = try await TestProcess(["push", "main", "move", "0.3", "--server", "http://localhost:\(server.port)/"])
        #expect(try await byName.waitForExit() == 0, "stderr: \(byName.stderr)")
        #expect(try server.http.get("/api/v1/boards/main").decode(TestSnapshot.self)[ring: "move"]?.target == 0.3)
        let tls = try await TestProcess(["push", "main", "move", "0.5", "--server", "https://127.0.0.1:\(server.port)"])
        #expect(try await tls.waitForExit() != 0)
        #expect(tls.stderr.contains("https://127.0.0.1:\(server.port)"), "stderr: \(tls.stderr)")
        let nobody = try await TestProcess(["push", "main", "move", "0.5", "--server", "http://127.0.0.1:1"])
        #expect(try await nobody.waitForExit() != 0)
        #expect(nobody.stderr.contains("cannot reach"), "stderr: \(nobody.stderr)")
    }

    @Test func boardSet_changesTheTitle_keepsTheValues_andPrintsTheServersRefusalInOneLine() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        let pushed = try server.http.send("PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":0.42}"#)
        #expect(pushed.status == 200, "\(pushed.text)")

        let set = try await TestProcess([
            "board", "set", "main", "--title", "Renamed", "--background", "#101020", "--stale-after", "600", "--server", url,
        ])
        #expect(try await set.waitForExit() == 0, "stderr: \(set.stderr)")
        #expect(set.stdout == "changed board main\n")
        let board = try server.http.get("/api/v1/boards/main")
        #expect(board.text.contains(#""title":"Renamed""#), "\(board.text)")
        #expect(try board.decode(TestSnapshot.self)[ring: "move"]?.target == 0.42)

        let missing = try await TestProcess(["board", "set", "nope", "--title", "X", "--server", url])
        #expect(try await missing.waitForExit() == 1)
        #expect(
            missing.stderr
                == "ringcast: no board named \"nope\" (create it with PUT /api/v1/boards/nope, or turn on the server's "
                + "autoCreate)\n",
            "one line, the server's message: \(missing.stderr)")
    }

    @Test func get_printsProgressAndLabel_orTheServersJSON_andTheServersMessageForWhatIsMissing() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        let push = try await TestProcess(["push", "main", "move", "0.42", "--curve", "none", "--server", url])
        #expect(try await push.waitForExit() == 0, "stderr: \(push.stderr)")
        /// The whitespace-separated cells of the line for `ring`.
        func cells(_ output: String, ring: String) -> [String] {
            output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.first { $0.first == ring } ?? []
        }

        let board = try await TestProcess(["get", "main", "--server", url])
        #expect(try await board.waitForExit() == 0, "stderr: \(board.stderr)")
        #expect(board.stdout.hasPrefix("board main, revision "), "stdout: \(board.stdout)")
        #expect(cells(board.stdout, ring: "ring") == ["ring", "title", "progress", "label", "target"])
        #expect(cells(board.stdout, ring: "move") == ["move", "Move", "0.42", "42%", "0.42"], "stdout: \(board.stdout)")
        #expect(cells(board.stdout, ring: "exercise") == ["exercise", "Exercise", "—", "—", "—"], "stdout: \(board.stdout)")

        let ring = try await TestProcess(["get", "main", "move"], environment: ["RINGCAST_URL": url])
        #expect(try await ring.waitForExit() == 0, "stderr: \(ring.stderr)")
        #expect(ring.stdout.split(separator: "\n").count == 2, "a header and one ring: \(ring.stdout)")
        #expect(cells(ring.stdout, ring: "move") == ["move", "Move", "0.42", "42%", "0.42"], "stdout: \(ring.stdout)")

        let boardJSON = try await TestProcess(["get", "main", "--json", "--server", url])
        #expect(try await boardJSON.waitForExit() == 0, "stderr: \(boardJSON.stderr)")
        let snapshot = try JSONDecoder().decode(TestSnapshot.self, from: Data(boardJSON.stdout.utf8))
        #expect(snapshot.board == "main" && snapshot[ring: "move"]?.progress == 0.42)
        let ringJSON = try await TestProcess(["get", "main", "move", "--json", "--server", url])
        #expect(try await ringJSON.waitForExit() == 0, "stderr: \(ringJSON.stderr)")
        let move = try JSONDecoder().decode(TestSnapshot.Ring.self, from: Data(ringJSON.stdout.utf8))
        #expect(move.id == "move" && move.target == 0.42)

        let noBoard = try await TestProcess(["get", "nope", "--server", url])
        #expect(try await noBoard.waitForExit() != 0)
        #expect(noBoard.stderr == "ringcast: no board named \"nope\"\n", "one line, the server's message: \(noBoard.stderr)")
        #expect(noBoard.stdout.isEmpty)
        let noRing = try await TestProcess(["get", "main", "nope", "--server", url])
        #expect(try await noRing.waitForExit() != 0)
        #expect(noRing.stderr.contains(#"has no ring "nope""#), "stderr: \(noRing.stderr)")
        let nobody = try await TestProcess(["get", "main", "--server", "http://127.0.0.1:1"])
        #expect(try await nobody.waitForExit() != 0)
        #expect(nobody.stderr.hasPrefix("ringcast: cannot reach"), "stderr: \(nobody.stderr)")
    }

    @Test func version_printsTheRelease() async throws {
        let version = try await TestProcess(["--version"])
        #expect(try await version.waitForExit() == 0, "stderr: \(version.stderr)")
        let parts = version.stdout.trimmingCharacters(in: .newlines).split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "a version such as 0.4.0: \(version.stdout)")
    }

    @Test func help_listsServePushGetAndCountdown_andNoLongerBench() async throws {
        let help = try await TestProcess(["--help"])
        #expect(try await help.waitForExit() == 0, "stderr: \(help.stderr)")
        for command in ["serve", "push", "get", "countdown"] {
            #expect(help.stdout.contains("  \(command) "), "\(command) in: \(help.stdout)")
        }
        #expect(!help.stdout.contains("bench"), "the load generator is ringcast-bench (bench/) now: \(help.stdout)")
        let bench = try await TestProcess(["bench", "--viewers", "1"])
        #expect(try await bench.waitForExit() != 0)
    }

    @Test func serve_withAMissingConfig_namesTheFile() async throws {
        let serve = try await TestProcess(["serve", "--config", "/nonexistent/ringcast.json", "--port", "0"])
        #expect(try await serve.waitForExit() != 0)
        #expect(serve.stderr.contains("/nonexistent/ringcast.json"), "stderr: \(serve.stderr)")
    }

    @Test func serve_withAnUnknownConfigKey_namesTheKey() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("bad.json")
        let shipped = try String(contentsOf: repositoryRoot.appendingPathComponent("config/ringcast.json"), encoding: .utf8)
        try shipped.replacingOccurrences(of: #""port": 8080"#, with: #""prot": 8080"#).write(
            to: file, atomically: true, encoding: .utf8)

        let serve = try await TestProcess(["serve", "--config", file.path, "--port", "0"])
        #expect(try await serve.waitForExit() != 0)
        #expect(serve.stderr.contains("bad.json") && serve.stderr.contains("prot"), "stderr: \(serve.stderr)")
    }

    @Test func serve_withAConfigThatIsNotJSON_printsOneLineWithTheLineAndColumn_andNoUsage() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("broken.json")
        try "{\n  \"port\": 8080\n  \"fps\": 60\n}\n".write(to: file, atomically: true, encoding: .utf8)

        let serve = try await TestProcess(["serve", "--config", file.path, "--port", "0", "--data-dir", directory.path])
        #expect(try await serve.waitForExit() == 1)
        #expect(serve.stderr == "ringcast: \(file.path):3:3: expected \",\" or \"}\", found the string \"fps\"\n")
        #expect(serve.stdout.isEmpty)
    }

    @Test func serve_withAShortTokenInTheEnvironment_namesTheVariable() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await TestProcess(
            ["serve", "--port", "0", "--data-dir", data.path], environment: ["RINGCAST_TOKEN": "abc"])
        #expect(try await serve.waitForExit() == 1)
        #expect(serve.stderr == "ringcast: RINGCAST_TOKEN: a token needs at least 8 characters and no spaces, ';' or ','\n")
    }

    @Test func serve_withABadFlag_namesTheFlag_andAFlagOverridesABadVariable() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let port = try await TestProcess(["serve", "--port", "70000", "--data-dir", data.path])
        #expect(try await port.waitForExit() == 1)
        #expect(port.stderr == "ringcast: --port: expected 0…65535, got 70000\n")
        let fps = try await TestProcess(["serve", "--port", "0", "--fps", "0", "--data-dir", data.path])
        #expect(try await fps.waitForExit() == 1)
        #expect(fps.stderr == "ringcast: --fps: expected 1…240, got 0\n")

        // RINGCAST_PORT is out of range, but --port replaces it before anything is checked.
        let serve = try await TestProcess(
            ["serve", "--port", "0", "--data-dir", data.path], environment: ["RINGCAST_PORT": "70000"])
        _ = try await serve.waitForLine { $0.hasPrefix("listening on ") }
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit() == 0, "stderr: \(serve.stderr)")
    }

    @Test func push_withSpringsAndColours_setsTheRings() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        let pushes: [(ring: String, value: String, flags: [String])] = [
            ("move", "0.5", ["--animation", "bouncy"]),
            ("exercise", "0.7", ["--animation", "spring", "--response", "0.5", "--damping", "0.7"]),
            ("stand", "0.9", ["--duration", "0.5", "--bounce", "0.3"]),
            ("task2", "0.2", ["--animation", "spring"]),
            ("task1", "1.25", ["--animation", "snappy", "--colors", "#9b59b6, #8E44AD", "--label-color", "#ffeeddcc"]),
            // The old spelling still works.
            ("task3", "0.3", ["--curve", "easeOut", "--duration", "0.2"]),
        ]
        for push in pushes {
            let process = try await TestProcess(["push", "main", push.ring, push.value, "--server", url] + push.flags)
            #expect(try await process.waitForExit() == 0, "\(push.flags): \(process.stderr)")
        }

        let snapshot = try await onOwnThread { try server.http.get("/api/v1/boards/main").decode(TestSnapshot.self) }
        for push in pushes {
            #expect(snapshot[ring: push.ring]?.target == Double(push.value), "\(push.ring)")
        }
        #expect(snapshot[ring: "task1"]?.colors == ["#9b59b6ff", "#8e44adff"])
    }

    @Test func push_refusesAnUnknownAnimationOrABadValue_inOneLineListingTheChoices() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        let before = try await onOwnThread { try server.http.get("/api/v1/boards/main").headers["etag"] }
        let refusals: [(flags: [String], message: String)] = [
            (
                ["--animation", "wobbly"],
                #"unknown animation "wobbly"; use none, a curve (linear, easeIn, easeOut, easeInOut), "#
                    + "a spring preset (smooth, snappy, bouncy) or spring"
            ),
            (["--animation", "easeOut", "--response", "0.5"], "--response applies to --animation spring, not easeOut"),
            (
                ["--response", "0.5", "--bounce", "0.2"],
                "--response does not go with --bounce: a spring takes --response and --damping, or --duration and --bounce"
            ),
            (["--animation", "none", "--duration", "1"], "--duration has no meaning with --animation none"),
            (["--damping", "0"], "--damping must be a number from 0.001 to 10 (1 = no overshoot), got 0"),
            (["--bounce", "1"], "--bounce must be a number from -0.9 to 0.999 (0 = no bounce), got 1"),
            (["--duration", "61"], "--duration must be a number from 0.001 to 60 seconds, got 61"),
            (
                ["--colors", "#9b59b6"],
                ##"--colors takes 2 to 8 colours, such as '#9b59b6,#3498db,#2ecc71'; got 1 in "#9b59b6""##
            ),
            (
                ["--colors", "#9b59b6,crimson"],
                #"--colors: "crimson" is not a colour; expected #rrggbb or #rrggbbaa, such as #2ecc71"#
            ),
            (
                ["--curve", "easeIn", "--animation", "easeOut"],
                "--curve and --animation both given; use --animation (--curve is its old name)"
            ),
        ]
        for refusal in refusals {
            let process = try await TestProcess(["push", "main", "move", "0.5", "--server", url] + refusal.flags)
            #expect(try await process.waitForExit() == 1, "\(refusal.flags)")
            #expect(process.stderr == "ringcast: \(refusal.message)\n", "\(refusal.flags)")
        }
        let after = try await onOwnThread { try server.http.get("/api/v1/boards/main").headers["etag"] }
        #expect(after == before, "nothing was sent")
    }

    @Test func countdown_startsAndCancels_andReportsTheServersMessage() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        struct Board: Decodable {
            struct Countdown: Decodable { var seconds: Double }
            var countdown: Countdown?
        }
        let board = { @Sendable in try server.http.get("/api/v1/boards/main").decode(Board.self) }

        let start = try await TestProcess(["countdown", "main", "30", "--server", url])
        #expect(try await start.waitForExit() == 0, "stderr: \(start.stderr)")
        #expect(start.stdout == "main: countdown of 30 s started\n")
        #expect(try await onOwnThread(board).countdown?.seconds == 30)

        let cancel = try await TestProcess(["countdown", "main", "--cancel", "--server", url])
        #expect(try await cancel.waitForExit() == 0, "stderr: \(cancel.stderr)")
        #expect(cancel.stdout == "main: countdown cancelled\n")
        #expect(try await onOwnThread(board).countdown == nil)

        let refusals: [(arguments: [String], message: String)] = [
            (["main", "0"], "seconds must be a number from 0.001 to 86400 (a day at most), got 0"),
            (["main"], "give SECONDS to start the countdown (e.g. ringcast countdown main 30), or --cancel"),
            (["main", "5", "--cancel"], "give SECONDS to start the countdown, or --cancel to stop it, not both"),
            (["nope", "5"], #"no board named "nope""#),
        ]
        for refusal in refusals {
            let process = try await TestProcess(["countdown"] + refusal.arguments + ["--server", url])
            #expect(try await process.waitForExit() == 1, "\(refusal.arguments)")
            #expect(process.stderr == "ringcast: \(refusal.message)\n", "\(refusal.arguments)")
        }
    }

    @Test func widget_addsEveryKind_pushesACounterAndAText_deletes_andShowsTheServersRefusal() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)"
        /// Runs `ringcast ARGUMENTS --server URL` (`--server` before a `--`): its exit status, stdout and stderr.
        func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            var arguments = arguments
            arguments.insert(contentsOf: ["--server", url], at: arguments.firstIndex(of: "--") ?? arguments.endIndex)
            let process = try await TestProcess(arguments)
            let status = try await process.waitForExit()
            return (status, process.stdout, process.stderr)
        }
        /// The widget `id` as `GET /api/v1/boards/main/rings/ID` shows it.
        func widget(_ id: String) async throws -> [String: Any] {
            let body = try await onOwnThread { try server.http.get("/api/v1/boards/main/rings/\(id)").body }
            return try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
        }

        let added: [(arguments: [String], line: String)] = [
            (
                ["passed", "--kind", "counter", "--title", "Tests passed", "--grouping", ",", "--unit", "tests"],
                "added counter widget passed to board main\n"
            ),
            (["status", "--kind", "text", "--text", "Idle", "--wave-width", "4"], "added text widget status to board main\n"),
            (["coverage", "--kind", "indicator", "--max", "100"], "added indicator widget coverage to board main\n"),
            (
                ["mood", "--kind", "gradient", "--colors", "#9b59b6,#3498db,#2ecc71"],
                "added gradient widget mood to board main\n"
            ),
        ]
        for add in added {
            let result = try await run(["widget", "add", "main"] + add.arguments + ["--force"])
            #expect(result.status == 0, "\(add.arguments): \(result.stderr)")
            #expect(result.stdout == add.line)
        }
        #expect(try await widget("passed")["kind"] as? String == "counter")
        #expect(try await widget("mood")["kind"] as? String == "gradient")

        let count = try await run(["push", "main", "passed", "1234", "--animation", "none"])
        #expect(count.status == 0, "stderr: \(count.stderr)")
        #expect(count.stdout == "main/passed → 1234\n")
        #expect(try await widget("passed")["target"] as? Double == 1234)
        let negative = try await run(["push", "main", "passed", "--animation", "none", "--", "-5"])
        #expect(negative.status == 0, "stderr: \(negative.stderr)")
        #expect(negative.stdout == "main/passed → -5\n")
        #expect(try await widget("passed")["target"] as? Double == -5)

        let text = try await run(["push", "main", "status", "--text", "Deployed"])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(text.stdout == "main/status → \"Deployed\"\n")
        #expect(try await widget("status")["text"] as? String == "Deployed")
        let wave = try await run(["push", "main", "status", "--wave-width", "8"])
        #expect(wave.status == 0, "stderr: \(wave.stderr)")
        #expect(wave.stdout == "main/status → wave\n")

        let pushIndicator = try await run(["push", "main", "coverage", "0.8"])
        #expect(pushIndicator.status == 0, "stderr: \(pushIndicator.stderr)")
        #expect(pushIndicator.stdout == "main/coverage → 80%\n")
        // A gradient card takes as many colours as it has.
        let gradient = try await run(["push", "main", "mood", "--colors", "#000000,#ffffff,#ff00ff", "--animation", "none"])
        #expect(gradient.status == 0, "stderr: \(gradient.stderr)")
        #expect(try await widget("mood")["colors"] as? [String] == ["#000000ff", "#ffffffff", "#ff00ffff"])

        // The server's 422, in its words: a counter takes no text.
        let refused = try await run(["push", "main", "passed", "--text", "Deployed"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr == #"ringcast: counter widget "passed" takes no "text": give "value", "labelColor", "title""# + "\n",
            "stderr: \(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        // The API's own decoder refuses an option the kind does not take, before anything is sent.
        let wrongOption = try await run(["widget", "add", "main", "late", "--kind", "counter", "--text", "x", "--force"])
        #expect(wrongOption.status == 1)
        #expect(wrongOption.stderr.hasPrefix("ringcast: --text: text goes with kind \"text\""), "\(wrongOption.stderr)")
        let ringKind = try await run(["widget", "add", "main", "late", "--kind", "plain", "--force"])
        #expect(ringKind.status == 1)
        #expect(
            ringKind.stderr
                == "ringcast: unknown --kind \"plain\"; use counter, text, indicator, gradient (rings are added with ringcast ring add)\n"
        )

        let delete = try await run(["widget", "delete", "main", "status", "--force"])
        #expect(delete.status == 0, "stderr: \(delete.stderr)")
        #expect(delete.stdout == "deleted widget status from board main\n")
        let gone = try await run(["widget", "delete", "main", "status", "--force"])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains(#"has no ring "status""#), "the server's message: \(gone.stderr)")
    }
}
