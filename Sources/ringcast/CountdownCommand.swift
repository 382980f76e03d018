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

    @Argument(help: "Seconds the countdown runs, (0, 86400].")
    var seconds: Double?

    @Flag(help: "Cancel the countdown: the ring shows no data again.")
    var cancel = false

    @Flag(help: "Step the stroke once per whole second instead of filling it continuously (\"animated\":false).")
    var stepped = false

    @OptionGroup var server: ServerOptions

    func run() throws {
        // Checked here rather than in validate(): one line, `ringcast: WHAT`, without usage text.
        switch (seconds, cancel) {
        case (nil, true):
            _ = try server.connection().request("DELETE", api: ["boards", board, "countdown"])
            print("\(board): countdown cancelled")
        case (let seconds?, false):
            try PushAnimation.check("seconds", seconds, in: Limits.countdownSeconds, unit: "(a day at most)")
            let request = try APIRequest(
                "POST", ["boards", board, "countdown"], json: Start(seconds: seconds, animated: stepped ? false : nil),
                checkedAs: CountdownStart.self)
            _ = try server.connection().send(request.minimal)
            print("\(board): countdown of \(PushAnimation.describe(seconds)) s started")
        case (_?, true):
            throw CommandFailure("give SECONDS to start the countdown, or --cancel to stop it, not both")
        case (nil, false):
            throw CommandFailure("give SECONDS to start the countdown (e.g. ringcast countdown \(board) 30), or --cancel")
        }
    }

    /// The body of `POST …/countdown`.
    private struct Start: Encodable {
        var seconds: Double
        /// Sent only as false: a plain start's body is what it always was.
        var animated: Bool?
    }
}
