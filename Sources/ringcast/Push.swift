import ArgumentParser
import Foundation
import RingCastCore

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set one ring's progress, and optionally its colours, on a running server.",
        discussion: """
            Sends PUT /api/v1/boards/BOARD/rings/RING. How the ring moves (--animation):

              none                    jump to the value
              linear, easeIn,         a curve over 1 s, or over --duration S seconds;
              easeOut, easeInOut      --duration alone means easeInOut
              smooth, snappy, bouncy  a spring preset
              spring                  a spring: --response R --damping Z (SwiftUI's
                                      .spring(response:dampingFraction:)), or
                                      --duration S --bounce B (iOS 17's
                                      .spring(duration:bounce:)); alone, response
                                      0.5 and damping 0.825. --response, --damping
                                      or --bounce alone mean spring.

            Without any, the server's default: easeInOut over 1 s. --curve is the old
            name of --animation.

            Examples:
              ringcast push main move 0.8 --animation easeOut --duration 0.6
              ringcast push main stand 1.2 --response 0.5 --damping 0.6
              ringcast push main task1 0.9 --animation bouncy --colors '#9b59b6,#8e44ad'
            """
    )

    @Argument(help: "Board name, e.g. main.")
    var board: String

    @Argument(help: "Ring id, e.g. move.")
    var ring: String

    @Argument(help: "Progress, 0 to 10 (1 = 100 %).")
    var value: Double

    @Option(help: "How the ring moves: \(PushAnimation.choices) (see above).")
    var animation: String?

    @Option(help: "Seconds, (0, 60]: a curve's length (default 1), or a spring's with --bounce.")
    var duration: Double?

    @Option(help: "A spring's response in seconds, (0, 60] (default 0.5).")
    var response: Double?

    @Option(help: "A spring's damping fraction, (0, 10]: below 1 it overshoots (default 0.825).")
    var damping: Double?

    @Option(help: "A spring's bounce with --duration, (-1, 1): 0 none, 0.3 bouncy (default 0).")
    var bounce: Double?

    @Option(help: "New gradient colours, start and end: '#rrggbb,#rrggbb' (or #rrggbbaa).")
    var colors: String?

    @Option(help: "New colour of the ring's label: '#rrggbb' (or #rrggbbaa).")
    var labelColor: String?

    @Option(help: "Deprecated: the same as --animation, which also takes springs.")
    var curve: String?

    @OptionGroup var server: ServerOptions

    func run() throws {
        // Checked here rather than in validate(): a bad value is one line, `ringcast: WHAT`, not a
        // usage error followed by ArgumentParser's usage text.
        let body = try requestBody()
        let connection = try server.connection()
        let json = try JSONEncoder().encode(body)
        _ = try connection.request("PUT", api: ["boards", board, "rings", ring], json: Array(json))
        print("\(board)/\(ring) → \(PercentLabel.string(for: value))")
    }

    /// `{"progress":P,"colors":[…],"labelColor":…,"animation":…}` from the arguments, each checked.
    func requestBody() throws(CommandFailure) -> PushBody {
        guard value.isFinite, Limits.progress.contains(value) else {
            throw CommandFailure("value must be between 0 and 10 (1 = 100 %), got \(PushAnimation.describe(value))")
        }
        if animation != nil, curve != nil {
            throw CommandFailure("--curve and --animation both given; use --animation (--curve is its old name)")
        }
        let colors = try colors.map { text throws(CommandFailure) in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else {
                throw CommandFailure(
                    "--colors takes two colours, start and end, such as '#9b59b6,#8e44ad'; got \(parts.count) in \"\(text)\"")
            }
            return try parts.map { part throws(CommandFailure) in try Self.color(part, flag: "--colors") }
        }
        return PushBody(
            progress: value,
            colors: colors,
            labelColor: try labelColor.map { text throws(CommandFailure) in try Self.color(text, flag: "--label-color") },
            animation: try PushAnimation(
                name: animation ?? curve, duration: duration, response: response, damping: damping, bounce: bounce)
        )
    }

    /// `text` when it is a colour the API takes.
    private static func color(_ text: String, flag: String) throws(CommandFailure) -> String {
        guard RGBAColor(hex: text) != nil else {
            throw CommandFailure("\(flag): \"\(text)\" is not a colour; expected #rrggbb or #rrggbbaa, such as #2ecc71")
        }
        return text
    }
}

/// The body of `PUT /rings/{ring}`; what is nil is left out.
struct PushBody: Encodable {
    var progress: Double
    var colors: [String]?
    var labelColor: String?
    var animation: PushAnimation?
}
