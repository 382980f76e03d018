import ArgumentParser
import Foundation
import RingCastCore
import Testing

@testable import ringcast

/// Issue 34: every argument that takes a number takes a negative one without `--`, so that it reaches the
/// command's own check of its range (or the server's), by name, rather than "unknown option '-3'"; and the help
/// texts say what the parsing accepts. Parsed in process, by table.
@Suite("ringcast takes negative numbers and says what it takes")
struct SignedValueTests {
    /// The message `body` failed with, or nil when it did not fail.
    private func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ["push", "main", "delta", "-5"],
        ["push", "main", "delta", "--", "-5"],
        ["push", "main", "move", "-0.1", "--animation", "none"],
        ["push", "main", "move", "1", "--max", "-3"],
        ["push", "main", "move", "0.5", "--duration", "-1"],
        ["push", "main", "move", "0.5", "--response", "-1"],
        ["push", "main", "move", "0.5", "--damping", "-1"],
        ["push", "main", "move", "0.5", "--duration", "0.5", "--bounce", "-0.3"],
        ["push", "main", "status", "--wave-width", "-2"],
        ["countdown", "main", "-3"],
        ["countdown", "main", "--", "-3"],
        ["history", "main", "move", "--points", "-3"],
        ["history", "main", "move", "--since", "-1h", "--until", "-5"],
        ["playlist", "set", "wall", "--boards", "main", "--seconds", "-1"],
        ["playlist", "set", "wall", "--boards", "main", "--seconds", "30", "--transition", "-30"],
        ["ring", "add", "ci", "tests", "--max", "-20"],
        ["widget", "add", "ci", "passed", "--kind", "counter", "--digits", "-2", "--decimals", "-1"],
        ["widget", "add", "ci", "status", "--kind", "text", "--wave-width", "-4"],
        ["widget", "add", "ci", "coverage", "--kind", "indicator", "--max", "-1"],
        ["board", "create", "ci", "--template", "tasks", "--count", "-2", "--stale-after", "-60"],
        ["board", "set", "ci", "--stale-after", "-60"],
    ])
    func aNegativeNumber_parsesWhereverANumberIsTaken(arguments: [String]) {
        #expect(refusal { _ = try RingCastCommand.parseAsRoot(arguments) } == nil)
    }

    /// What each command makes of the negative number: its own check's words (exit status 1), or the request.
    @Test func theNegativeNumber_reachesTheCommandsOwnCheck() throws {
        let countdown = try CountdownCommand.parse(["main", "-3"])
        #expect(refusal { _ = try countdown.request() } == "seconds must be a number from 0.001 to 86400 (a day at most), got -3")
        #expect(
            refusal { _ = try Push.parse(["main", "move", "1", "--max", "-3"]).request() }
                == "--max must be a number from 1e-06 to 1000000000, got -3")
        #expect(
            refusal { _ = try Push.parse(["main", "move", "0.5", "--damping", "-1"]).request() }
                == "--damping must be a number from 0.001 to 10 (1 = no overshoot), got -1")
        #expect(
            refusal { _ = try HistoryCommand.parse(["main", "move", "--points", "-3"]).request() }
                == #"--points: points must be a whole number from 2 to 100000, got "-3""#)
        let playlist = try SetPlaylist.parse(["wall", "--boards", "main", "--seconds", "30", "--transition", "-30"]).request()
        #expect(playlist.bodyText == #"{"boards":["main"],"seconds":30,"transition":{"angle":-30}}"#)
        #expect(try Push.parse(["main", "delta", "-5"]).request(counter: true).bodyText == #"{"value":-5}"#)
        #expect(
            refusal { _ = try AddRing.parse(["ci", "tests", "--max", "-20"]).request() }
                == "--max must be a number from 1e-06 to 1000000000, got -20")
    }

    @Test(arguments: [
        (
            ["countdown", "main", "3", "4"],
            "ringcast: unexpected argument '4'; SECONDS is one number (see ringcast countdown --help)"
        ),
        (["countdown", "main", "--cancle"], "ringcast: unknown option '--cancle' (see ringcast countdown --help)"),
        (
            ["push", "main", "move", "1", "2"],
            "ringcast: unexpected argument '2'; VALUE is one number, or none (see ringcast push --help)"
        ),
    ])
    func aSecondValueOrAnUnknownOption_isStillAUsageError(arguments: [String], line: String) throws {
        do {
            _ = try RingCastCommand.parseAsRoot(arguments)
            Issue.record("parsed \(arguments)")
        } catch {
            let printed = try #require(RingCastCommand.oneLine(for: error, arguments: arguments))
            #expect(printed.text == line)
            #expect(printed.status == .validationFailure)
        }
    }

    // MARK: --transition

    /// Each name the help lists is one the API's own reader takes.
    @Test(arguments: SetPlaylist.transitions + ["none", "45", "-30"])
    func eachTransitionTheHelpLists_isTaken(name: String) throws {
        let request = try SetPlaylist.parse(["wall", "--boards", "main", "--seconds", "30", "--transition", name]).request()
        #expect(request.method == "PUT")
    }

    @Test func anUnknownTransition_isRefusedInTheCLIsTerms() throws {
        let message = refusal {
            _ = try SetPlaylist.parse(["wall", "--boards", "main", "--seconds", "30", "--transition", "diagonal"]).request()
        }
        #expect(
            message
                == #"unknown --transition "diagonal"; use leftToRight, rightToLeft, topToBottom, bottomToTop, circle, "#
                + "an angle in degrees (e.g. 45) or none")
    }

    // MARK: help

    /// The ranges a help text gives are the ones the checks use (`Limits`), and no help shows the API's JSON
    /// where the CLI takes a plain word or number.
    @Test func helpTexts_listWhatIsAccepted() {
        let push = Push.helpMessage(columns: 1000)
        for range in [
            "The value that is 100 %, 1e-6 to 1e9", "Seconds, 0.001 to 60", "in seconds, 0.001 to 60",
            "damping fraction, 0.001 to 10", "with --duration, -0.9 to 0.999", "in characters, 1 to 64",
        ] {
            #expect(push.contains(range), "push --help: \(range)")
        }
        #expect(!push.contains("(-1, 1)") && !push.contains("reads the widget's kind from the server first"))
        #expect(push.contains("ringcast countdown BOARD SECONDS"))
        let countdown = CountdownCommand.helpMessage(columns: 1000)
        #expect(countdown.contains("Seconds the countdown runs, 0.001 to 86400 (a day)."), "\(countdown)")
        let playlist = SetPlaylist.helpMessage(columns: 1000)
        #expect(!playlist.contains("{\"angle\""), "\(playlist)")
        #expect(playlist.contains("leftToRight, rightToLeft, topToBottom, bottomToTop, circle, an angle in degrees"))
        #expect(HistoryCommand.helpMessage(columns: 1000).contains("value for a counter"))
    }
}
