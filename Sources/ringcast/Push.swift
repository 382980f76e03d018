import ArgumentParser
import Foundation
import RingCastCore

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set one ring's progress, and optionally its colours, label and title, on a running server.",
        discussion: """
            Sends PUT /api/v1/boards/BOARD/rings/RING. VALUE is the progress (1 = one full turn), \
            or with --max N a value out of N: 12 --max 20 is 60 %, and the server remembers the \
            maximum for the ring's fraction and value labels.

            How the ring moves (--animation):

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
              ringcast push ci tests 12 --max 20 --label fraction --title Tests
            """
    )

    @Argument(help: "Board name, e.g. main.")
    var board: String

    @Argument(help: "Ring id, e.g. move.")
    var ring: String

    @Argument(help: "Progress, 0 to 10 (1 = 100 %); with --max, a value from 0 (12 of 20); `none`: back to no data.")
    var value: String

    @Option(help: "The value that is 100 %, (0, 1e9]: VALUE is then sent as a value, not a progress.")
    var max: Double?

    @Option(help: "What the ring's label shows: \(LabelFormat.choices) (at most 32 characters).")
    var label: String?

    @Option(help: "The ring's new title, 1 to 64 characters.")
    var title: String?

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
        let request = try request()
        _ = try server.connection().send(request)
        var shown: String
        switch try number() {
        case nil:
            shown = "no data"
        case let value? where max != nil:
            let max = max ?? 1
            shown = "\(PushAnimation.describe(value))/\(PushAnimation.describe(max)) (\(PercentLabel.string(for: value / max)))"
        case let value?:
            shown = PercentLabel.string(for: value)
        }
        if let label, let format = try? LabelFormat(argument: label), case .text(let text) = format {
            shown += ", label \"\(text)\""
        }
        print("\(board)/\(ring) → \(shown)")
    }

    /// VALUE as a number; nil for `none` (no data).
    func number() throws(CommandFailure) -> Double? {
        if value == "none" { return nil }
        guard let number = Double(value) else {
            throw CommandFailure("VALUE must be a number, or none for no data, got \"\(value)\"")
        }
        return number
    }

    /// `PUT /api/v1/boards/BOARD/rings/RING` with `requestBody()`.
    func request() throws(CommandFailure) -> APIRequest {
        try APIRequest("PUT", ["boards", board, "rings", ring], json: requestBody(), checkedAs: RingUpdate.self)
    }

    /// `{"progress":P,…}`, or `{"value":V,"max":M,…}` with --max, from the arguments, each checked.
    func requestBody() throws(CommandFailure) -> PushBody {
        try RingDefinition.check(max: max)
        guard let value = try number() else {
            try RingDefinition.check(title: title)
            return PushBody(
                clear: true, max: max,
                label: try label.map { text throws(CommandFailure) in try LabelFormat(argument: text) }, title: title)
        }
        if max != nil {
            // The server divides by the maximum and checks the progress that gives.
            guard value.isFinite, value >= 0 else {
                throw CommandFailure("value must be a number from 0 with --max, got \(PushAnimation.describe(value))")
            }
        } else {
            try PushAnimation.check("value", value, in: Limits.progress, unit: "(1 = 100 %)")
        }
        try RingDefinition.check(title: title)
        if animation != nil, curve != nil {
            throw CommandFailure("--curve and --animation both given; use --animation (--curve is its old name)")
        }
        return PushBody(
            progress: max == nil ? value : nil,
            value: max == nil ? nil : value,
            max: max,
            colors: try colors.map { text throws(CommandFailure) in try ColorArgument.pair(text, flag: "--colors") },
            labelColor: try labelColor.map { text throws(CommandFailure) in
                try ColorArgument.color(text, flag: "--label-color")
            },
            label: try label.map { text throws(CommandFailure) in try LabelFormat(argument: text) },
            title: title,
            animation: try PushAnimation(
                name: animation ?? curve, duration: duration, response: response, damping: damping, bounce: bounce)
        )
    }
}

/// The body of `PUT /rings/{ring}`: a progress, or a value and its maximum, or `"progress":null` (no
/// data); what is nil is left out.
struct PushBody: Encodable {
    /// Sends `"progress":null`: the ring goes back to no data.
    var clear = false
    var progress: Double?
    var value: Double?
    var max: Double?
    var colors: [String]?
    var labelColor: String?
    var label: LabelFormat?
    var title: String?
    var animation: PushAnimation?
}

extension PushBody {
    private enum CodingKeys: String, CodingKey {
        case progress, value, max, colors, labelColor, label, title, animation
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if clear {
            try container.encodeNil(forKey: .progress)
        } else {
            try container.encodeIfPresent(progress, forKey: .progress)
        }
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(max, forKey: .max)
        try container.encodeIfPresent(colors, forKey: .colors)
        try container.encodeIfPresent(labelColor, forKey: .labelColor)
        try container.encodeIfPresent(label, forKey: .label)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(animation, forKey: .animation)
    }
}
