import ArgumentParser
import Foundation
import RingCastCore

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set one ring's progress or a widget's number or text, and optionally its colours, label and title.",
        discussion: """
            Sends PUT /api/v1/boards/BOARD/rings/RING. VALUE is the progress (1 = one full turn), \
            or with --max N a value out of N: 12 --max 20 is 60 %, and the server remembers the \
            maximum for the ring's fraction and value labels.

            Widgets (ringcast widget add): for a counter, VALUE is its number, within ±1e12, a \
            negative one as it is: ringcast push ci tests -5. A number from 0 to 10 is sent as a \
            progress, and again as the number when the ring refuses a progress (a counter); a \
            number outside 0 to 10 can only be a counter's, which push checks with GET …/rings/RING \
            first. A text widget takes --text T (its new text, arriving with a wave) and no VALUE; \
            --wave runs the wave again over the same text, --wave-width W sets its width in \
            characters (and runs it). A countdown ring follows the clock: start it with ringcast \
            countdown BOARD SECONDS.

            Colours: --colors sets the gradient; --status S colours the ring as S \
            (success, failure, running, warning, unknown); --thresholds picks the colours from \
            the displayed progress, 'V:#colour,…' (V:#start:#end for a gradient), e.g. \
            '0:#e74c3c,0.5:#f1c40f,0.9:#2ecc71'. One of the three; none for --status or \
            --thresholds goes back to the ring's own colours.

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
              ringcast push ci passed 1234
              ringcast push ci status --text Deployed --wave-width 4
              ringcast push ci build --status running
              ringcast push ci coverage 0.72 --thresholds '0:#e74c3c,0.5:#f1c40f,0.9:#2ecc71'
            """
    )

    @Argument(help: "Board name, e.g. main.")
    var board: String

    @Argument(help: "Ring or widget id, e.g. move.")
    var ring: String

    /// VALUE, collected with ArgumentParser's `.allUnrecognized`: its way to take an argument that
    /// starts with `-`, so a counter's `-5` or a progress of `-0.1` (refused as out of range, by
    /// name) needs no `--` before it (swift-argument-parser issue #31 reads `-5` as an option
    /// otherwise). `validate()` allows one, a number or `none`, and refuses an unknown option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            """
            Progress, 0 to 10 (1 = 100 %); with --max, a value from 0 (12 of 20); a counter's number; \
            `none`: back to no data. Not for a text widget (--text).
            """, valueName: "value"))
    var values: [String] = []

    /// VALUE as given, if it was (a `--` before it, still accepted, is not part of it).
    var value: String? { try? SignedArgument.value(in: values, named: "VALUE", takes: "one number, or none") }

    func validate() throws {
        _ = try SignedArgument.value(in: values, named: "VALUE", takes: "one number, or none")
    }

    // Every option that takes a number reads it `.unconditional`ly: the next argument is its value even when it
    // starts with `-`, so a negative one reaches the range check, by name, instead of "missing value".
    @Option(
        parsing: .unconditional,
        help: "The value that is 100 %, \(Push.range(Limits.ringMaximums)): VALUE is then sent as a value, not a progress.")
    var max: Double?

    @Option(help: "What the ring's label shows: \(LabelFormat.choices) (at most 32 characters).")
    var label: String?

    @Option(help: "The ring's new title, 1 to 64 characters.")
    var title: String?

    @Option(help: "How the ring moves: \(PushAnimation.choices) (see above).")
    var animation: String?

    @Option(
        parsing: .unconditional,
        help: "Seconds, \(Push.range(Limits.durations)): a curve's length (default 1), or a spring's with --bounce.")
    var duration: Double?

    @Option(parsing: .unconditional, help: "A spring's response in seconds, \(Push.range(Limits.durations)) (default 0.5).")
    var response: Double?

    @Option(
        parsing: .unconditional,
        help: "A spring's damping fraction, \(Push.range(Limits.dampingFractions)): below 1 it overshoots (default 0.825).")
    var damping: Double?

    @Option(
        parsing: .unconditional,
        help: "A spring's bounce with --duration, \(Push.range(Limits.bounces)): 0 none, 0.3 bouncy (default 0).")
    var bounce: Double?

    @Option(
        help: "New gradient colours, start and end: '#rrggbb,#rrggbb' (or #rrggbbaa); a gradient card's 2 to 8.")
    var colors: String?

    @Option(help: "New colour of the ring's label: '#rrggbb' (or #rrggbbaa).")
    var labelColor: String?

    @Option(help: "Colour the ring by a status: \(RingStatus.allCases.map(\.rawValue).joined(separator: ", ")), or none.")
    var status: String?

    @Option(help: "Colour the ring by its progress: 'V:#colour,…' (V:#start:#end for a gradient), or none.")
    var thresholds: String?

    @Option(help: "A text widget's new text, 1 to 32 characters; it arrives with a wave.")
    var text: String?

    @Flag(help: "Run a text widget's wave again over its text.")
    var wave = false

    @Option(
        parsing: .unconditional,
        help: "A text widget's wave width in characters, \(Push.range(Limits.waveWidths)), remembered; runs the wave.")
    var waveWidth: Double?

    @Option(help: "Deprecated: the same as --animation, which also takes springs.")
    var curve: String?

    @OptionGroup var server: ServerOptions

    /// `0.001 to 60`, `-1e12 to 1e12`: a range as help and messages write it.
    static func range(_ range: ClosedRange<Double>) -> String {
        "\(PushAnimation.describe(range.lowerBound, short: true)) to \(PushAnimation.describe(range.upperBound, short: true))"
    }

    func run() throws {
        // Checked here rather than in validate(): a bad value is one line, `ringcast: WHAT`, not a
        // usage error followed by ArgumentParser's usage text; checked before anything is sent.
        let number = try max == nil && text == nil ? number() : nil
        if let number, !Limits.progress.contains(number), !Limits.counterValues.contains(number) {
            throw CommandFailure(
                "VALUE must be a progress from \(Push.range(Limits.progress)) (1 = 100 %) or a counter's number from "
                    + "\(Push.range(Limits.counterValues)), got \(PushAnimation.describe(number))")
        }
        // A number no progress can be is checked as a counter's (-5).
        _ = try request(counter: number.map { !Limits.progress.contains($0) } ?? false)
        let connection = try server.connection()
        let counter = try push(number, on: connection)
        print("\(board)/\(ring) → \(try shown(counter: counter))")
    }

    /// Sends the push; whether it went to a counter (VALUE was its number). A push needs only write access: a bare
    /// number from 0 to 10 goes as a progress, and again as a counter's number when the ring's kind takes no
    /// progress (the server's 422 names the key); only a number no progress can be (-5, 1234) asks the ring's kind
    /// first, since a ring with a `max` would take it as a value and show it as a fraction.
    private func push(_ number: Double?, on connection: ServerConnection) throws(CommandFailure) -> Bool {
        guard let number else {
            try send(request(), on: connection)
            return false
        }
        guard Limits.progress.contains(number) else {
            // When the kind cannot be read (a refused token, a missing ring), the write goes as a counter's number and
            // its answer is the one shown: a token that may not read a board may not write it either (read ⊂ write),
            // and the write's refusal says so in its own words.
            let kind = try? ringKind(on: connection)
            if kind == "countdown" { throw countdownAdvice() }
            if let kind, kind != "counter" {
                // Then VALUE is a progress out of its range: refused by name before anything is sent.
                try send(request(), on: connection)
                return false
            }
            try send(request(counter: true), on: connection)
            return true
        }
        do throws(CommandFailure) {
            try send(request(), on: connection)
            return false
        } catch let refusal where refusal.serverError?.code == "invalid_value" && refusal.serverError?.field == "progress" {
            do throws(CommandFailure) {
                try send(request(counter: true), on: connection)
                return true
            } catch let again where again.serverError?.field == "value" {
                // Neither a progress nor a number (a text widget): the first refusal lists what the kind takes.
                throw refusal
            }
        }
    }

    /// Sends `request`; a refusal because the ring is a countdown (which follows the clock) names `ringcast
    /// countdown` rather than the REST route.
    private func send(_ request: APIRequest, on connection: ServerConnection) throws(CommandFailure) {
        do throws(CommandFailure) {
            _ = try connection.send(request)
        } catch let refusal where refusal.serverError?.code == "read_only" {
            guard (try? ringKind(on: connection)) == "countdown" else { throw refusal }
            throw countdownAdvice()
        }
    }

    /// The ring's kind as the server names it (`plain`, `counter`, `countdown`…): `GET …/rings/RING`.
    private func ringKind(on connection: ServerConnection) throws(CommandFailure) -> String {
        try connection.decode(BoardReading.Ring.self, from: connection.request("GET", api: ["boards", board, "rings", ring]))
            .kind
    }

    /// Why a countdown ring takes no push, and the command that does start it.
    func countdownAdvice() -> CommandFailure {
        CommandFailure(
            "ring \"\(ring)\" is a countdown: it follows the clock; start it with ringcast countdown \(board) SECONDS, "
                + "stop it with ringcast countdown \(board) --cancel")
    }

    /// What the push set, as its one line of output shows it: `42%`, `12/20 (60%)`, `1234`, `"Deployed"`.
    func shown(counter: Bool) throws(CommandFailure) -> String {
        var parts: [String] = []
        switch try number() {
        case nil where value == "none":
            parts.append("no data")
        case nil:
            break
        case let value? where counter:
            parts.append(PushAnimation.describe(value))
        case let value? where max != nil:
            let max = max ?? 1
            parts.append(
                "\(PushAnimation.describe(value))/\(PushAnimation.describe(max)) (\(PercentLabel.string(for: value / max)))")
        case let value?:
            parts.append(PercentLabel.string(for: value))
        }
        if let text {
            parts.append("\"\(text)\"")
        } else if wave || waveWidth != nil {
            parts.append("wave")
        }
        if let label, let format = try? LabelFormat(argument: label), case .text(let text) = format {
            parts.append("label \"\(text)\"")
        }
        if let status {
            parts.append(status == "none" ? "own colours" : "status \(status)")
        } else if let thresholds {
            parts.append(thresholds == "none" ? "own colours" : "thresholds")
        }
        if parts.isEmpty, let title {
            parts.append("title \"\(title)\"")
        }
        return parts.isEmpty ? "updated" : parts.joined(separator: ", ")
    }

    /// VALUE as a number; nil for `none` (no data).
    func number() throws(CommandFailure) -> Double? {
        guard let value, value != "none" else { return nil }
        guard let number = Double(value) else {
            throw CommandFailure("VALUE must be a number, or none for no data, got \"\(value)\"")
        }
        // The server's words for a number a 64-bit float cannot hold (0.1e-400 would read as 0, 1e400 as inf).
        if let problem = StrictJSON.rangeProblem(ofNumber: Array(value.utf8)) {
            throw CommandFailure("VALUE: \(problem)")
        }
        return number
    }

    /// `PUT /api/v1/boards/BOARD/rings/RING` with `requestBody()`, asking for the minimal answer: what is printed
    /// comes from the arguments.
    /// `counter`: the target is a counter widget, and VALUE its number.
    func request(counter: Bool = false) throws(CommandFailure) -> APIRequest {
        try APIRequest(
            "PUT", ["boards", board, "rings", ring], json: requestBody(counter: counter), checkedAs: RingUpdate.self
        ).minimal
    }

    /// `{"progress":P,…}`, or `{"value":V,"max":M,…}` with --max or for a counter, or a text widget's
    /// `{"text":T,"wave":…}`, from the arguments, each checked.
    func requestBody(counter: Bool = false) throws(CommandFailure) -> PushBody {
        try DefinitionFlags.check(max: max)
        try PushAnimation.check("--wave-width", waveWidth, in: Limits.waveWidths, unit: "characters")
        let wave: PushBody.Wave? = waveWidth.map { .width($0) } ?? (self.wave ? .again : nil)
        if self.value == nil {
            guard
                text != nil || wave != nil || title != nil || colors != nil || labelColor != nil || label != nil
                    || status != nil || thresholds != nil
            else {
                throw CommandFailure(
                    "give VALUE (a progress, a counter's number, or none), or --text for a text widget, "
                        + "e.g. ringcast push \(board) \(ring) 0.5")
            }
        }
        let labelFormat = try label.map { text throws(CommandFailure) in try LabelFormat(argument: text) }
        // The keys every push may send besides its value, as the arguments give them.
        func body(progress: Double? = nil, value: Double? = nil) throws(CommandFailure) -> PushBody {
            PushBody(
                progress: progress,
                value: value,
                max: max,
                colors: try colors.map { text throws(CommandFailure) in try ColorArgument.list(text, flag: "--colors") },
                labelColor: try labelColor.map { text throws(CommandFailure) in
                    try ColorArgument.color(text, flag: "--label-color")
                },
                label: labelFormat,
                title: title,
                animation: try pushAnimation(),
                text: text,
                wave: wave,
                coloring: try coloring())
        }
        guard let value = try number() else {
            try DefinitionFlags.check(title: title)
            guard self.value == nil else {
                return PushBody(clear: true, max: max, label: labelFormat, title: title, coloring: try coloring())
            }
            return try body()
        }
        if counter {
            try PushAnimation.check("value", value, in: Limits.counterValues, unit: "(a counter's number)")
        } else if max != nil {
            // The server divides by the maximum and checks the progress that gives.
            guard value.isFinite, value >= 0 else {
                throw CommandFailure("value must be a number from 0 with --max, got \(PushAnimation.describe(value))")
            }
        } else {
            try PushAnimation.check("value", value, in: Limits.progress, unit: "(1 = 100 %)")
        }
        try DefinitionFlags.check(title: title)
        return try body(progress: max == nil && !counter ? value : nil, value: max == nil && !counter ? nil : value)
    }

    /// `--status` or `--thresholds` as the body's key; the server's decoder checks the rest.
    func coloring() throws(CommandFailure) -> PushBody.Coloring? {
        if status != nil, thresholds != nil {
            throw CommandFailure("--status and --thresholds both given; a ring is coloured by one of them")
        }
        if let status {
            return .status(status == "none" ? nil : status)
        }
        guard let thresholds else { return nil }
        guard thresholds != "none" else { return .thresholds(nil) }
        var entries: [PushBody.Threshold] = []
        for part in thresholds.split(separator: ",", omittingEmptySubsequences: false) {
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard (2...3).contains(fields.count), let value = Double(fields[0]) else {
                throw CommandFailure(
                    "--thresholds takes 'V:#colour,…' (V:#start:#end for a gradient), such as "
                        + "'0:#e74c3c,0.5:#f1c40f,0.9:#2ecc71'; got \"\(part)\"")
            }
            try PushAnimation.check("a threshold's value", value, in: Limits.progress, unit: "(1 = 100 %)")
            let colors = try fields.dropFirst().map { text throws(CommandFailure) in
                try ColorArgument.color(text, flag: "--thresholds")
            }
            entries.append(PushBody.Threshold(value: value, colors: colors))
        }
        return .thresholds(entries)
    }

    /// The animation the flags ask for, checked; nil for the server's default.
    func pushAnimation() throws(CommandFailure) -> PushAnimation? {
        if animation != nil, curve != nil {
            throw CommandFailure("--curve and --animation both given; use --animation (--curve is its old name)")
        }
        return try PushAnimation(
            name: animation ?? curve, duration: duration, response: response, damping: damping, bounce: bounce)
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
    /// A text widget's new text.
    var text: String?
    var wave: Wave?
    /// `--status` or `--thresholds`.
    var coloring: Coloring?

    /// `"status":S`, `"thresholds":[…]`, or either as `null` (nil): back to the ring's own colours.
    enum Coloring {
        case status(String?)
        case thresholds([Threshold]?)
    }

    /// `[value, "#colour"]`, or `[value, ["#start", "#end"]]`.
    struct Threshold: Encodable {
        var value: Double
        var colors: [String]

        func encode(to encoder: any Encoder) throws {
            var pair = encoder.unkeyedContainer()
            try pair.encode(value)
            if colors.count == 1 {
                try pair.encode(colors[0])
            } else {
                try pair.encode(colors)
            }
        }
    }

    /// A text widget's wave: `true` runs it again, `{"width":W}` also sets its width.
    enum Wave: Encodable {
        case again
        case width(Double)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .again:
                var container = encoder.singleValueContainer()
                try container.encode(true)
            case .width(let width):
                try ["width": width].encode(to: encoder)
            }
        }
    }
}

extension PushBody {
    private enum CodingKeys: String, CodingKey {
        case progress, value, max, colors, labelColor, label, title, animation, text, wave, status, thresholds
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
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(wave, forKey: .wave)
        switch coloring {
        case .status(let status?): try container.encode(status, forKey: .status)
        case .status(nil): try container.encodeNil(forKey: .status)
        case .thresholds(let thresholds?): try container.encode(thresholds, forKey: .thresholds)
        case .thresholds(nil): try container.encodeNil(forKey: .thresholds)
        case nil: break
        }
    }
}
