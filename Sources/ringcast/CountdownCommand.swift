import ArgumentParser
import Foundation
import RingCastCore

/// `ringcast countdown`: starts, restarts or cancels a board's countdown ring.
struct CountdownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "countdown",
        abstract: "Start (or restart) a board's countdown ring, or cancel it.",
        discussion: """
            Sends POST /api/v1/boards/BOARD/countdown with {"seconds":SECONDS}, or DELETE with \
            --cancel. The countdown ring fills over SECONDS (0.2 of a turn at 8 s left of 10) and its \
            label counts the whole seconds left. Examples: ringcast countdown main 30; ringcast countdown main --cancel
            """
    )

    @Argument(help: "Board name, e.g. main.")
    var board: String

    /// SECONDS, collected with `.allUnrecognized` (`SignedArgument`): `-3` needs no `--` and is refused as out of
    /// range, by name, rather than as an unknown option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Seconds the countdown runs, \(PushAnimation.describe(Limits.countdownSeconds.lowerBound)) to "
                + "\(PushAnimation.describe(Limits.countdownSeconds.upperBound)) (a day).",
            valueName: "seconds"))
    var collected: [String] = []

    func validate() throws {
        _ = try SignedArgument.value(in: collected, named: "SECONDS", takes: "one number")
    }

    /// SECONDS as a number; nil when it was not given.
    func givenSeconds() throws(CommandFailure) -> Double? {
        guard let text = try? SignedArgument.value(in: collected, named: "SECONDS", takes: "one number") else { return nil }
        guard let seconds = Double(text) else {
            throw CommandFailure("SECONDS must be a number, e.g. ringcast countdown \(board) 30; got \"\(text)\"")
        }
        return seconds
    }

    @Flag(help: "Cancel the countdown: the ring shows no data again.")
    var cancel = false

    @Flag(help: "Step the stroke once per whole second instead of filling it continuously (\"animated\":false).")
    var stepped = false

    @OptionGroup var server: ServerOptions

    func run() throws {
        // Checked here rather than in validate(): one line, `ringcast: WHAT`, without usage text.
        switch (try givenSeconds(), cancel) {
        case (nil, true):
            _ = try server.connection().request("DELETE", api: ["boards", board, "countdown"])
            print("\(board): countdown cancelled")
        case (let seconds?, false):
            let request = try request()
            _ = try server.connection().send(request)
            print("\(board): countdown of \(PushAnimation.describe(seconds)) s started")
        case (_?, true):
            throw CommandFailure("give SECONDS to start the countdown, or --cancel to stop it, not both")
        case (nil, false):
            throw CommandFailure("give SECONDS to start the countdown (e.g. ringcast countdown \(board) 30), or --cancel")
        }
    }

    /// `POST /api/v1/boards/BOARD/countdown` with SECONDS, checked first (a number out of range names it).
    func request() throws(CommandFailure) -> APIRequest {
        guard let seconds = try givenSeconds() else {
            throw CommandFailure("give SECONDS to start the countdown (e.g. ringcast countdown \(board) 30), or --cancel")
        }
        try PushAnimation.check("seconds", seconds, in: Limits.countdownSeconds, unit: "(a day at most)")
        return try APIRequest(
            "POST", ["boards", board, "countdown"], json: Start(seconds: seconds, animated: stepped ? false : nil),
            checkedAs: CountdownStart.self
        ).minimal
    }

    /// The body of `POST …/countdown`.
    private struct Start: Encodable {
        var seconds: Double
        /// Sent only as false: a plain start's body is what it always was.
        var animated: Bool?
    }
}
