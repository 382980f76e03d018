import ArgumentParser
import RingCastCore

/// `ringcast widget`: add the widgets that are not rings (counters, wave texts, indicators, gradient
/// cards; DESIGN §12) to a board and delete them, through the same API as rings.
struct WidgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget",
        abstract: "Add a counter, text, indicator or gradient widget to a board, or delete one, on a running server.",
        discussion: """
            Widgets are laid out, pushed, stored and deleted like rings: ringcast push sets a \
            counter's number or a text widget's text.

            Examples:
              ringcast widget add ci passed --kind counter --grouping , --unit tests
              ringcast widget add ci status --kind text --text Idle
              ringcast widget delete ci status
            """,
        subcommands: [AddWidget.self, DeleteWidget.self]
    )
}

/// `ringcast widget add`: `POST /api/v1/boards/BOARD/rings` with a widget's definition, as
/// `ringcast ring add` sends a ring's.
struct AddWidget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a widget to a board.",
        discussion: """
            Sends POST /api/v1/boards/BOARD/rings with the widget's definition; the server lays the \
            board out again and every page showing it redraws. Each kind takes its own options:

              counter    --value V (its first number), --digits N (integer columns always
                         shown, 1 to 13), --decimals D (0 to 3), --sign (show + before
                         positive numbers), --grouping SEP (e.g. ','), --unit TEXT
              text       --text T (1 to 32 characters, default the id), --wave-width W
                         (characters, 1 to 64, default 6)
              indicator  --max M (the value that is 100 %), --colors '#start,#end'
              gradient   --colors '#a,#b,…' (2 to 8 colours)

            Any kind takes --title. An option another kind takes is refused in the API's words.

            Examples:
              ringcast widget add ci passed --kind counter --grouping , --unit tests
              ringcast widget add ci status --kind text --text Idle --wave-width 4
              ringcast widget add ci coverage --kind indicator --max 100
              ringcast widget add ci mood --kind gradient --colors '#9b59b6,#3498db,#2ecc71'
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var board: String

    @Argument(help: "The new widget's id, e.g. tests.")
    var id: String

    @Option(help: "\(DefinitionFlags.widgetKinds.joined(separator: ", ")).")
    var kind: String

    @Option(help: "Shown under the widget, 1 to 64 characters (default: the id).")
    var title: String?

    // `.unconditional`: the next argument is the value even when it starts with `-` (a negative number).
    @Option(parsing: .unconditional, help: "A counter's first number, within ±1e12 (default: none yet).")
    var value: Double?

    @Option(
        parsing: .unconditional, help: "A counter's integer columns always shown, 1 to 13 (default: as many as the number needs)."
    )
    var digits: Int?

    @Option(parsing: .unconditional, help: "A counter's columns after the decimal point, 0 to 3 (default 0).")
    var decimals: Int?

    @Flag(help: "A counter shows + before positive numbers.")
    var sign = false

    @Option(help: "A counter's separator between groups of three digits, e.g. ',' (default none).")
    var grouping: String?

    @Option(help: "Text after a counter's number, e.g. tests (at most 16 characters).")
    var unit: String?

    @Option(help: "A text widget's text, 1 to 32 characters (default: the id).")
    var text: String?

    @Option(parsing: .unconditional, help: "A text widget's wave width in characters, 1 to 64 (default 6).")
    var waveWidth: Double?

    @Option(help: "Colours: an indicator's start and end '#rrggbb,#rrggbb', a gradient's 2 to 8 '#a,#b,…'.")
    var colors: String?

    @Option(
        parsing: .unconditional, help: "An indicator's value that is 100 %, \(Push.range(Limits.ringMaximums)) (default 100).")
    var max: Double?

    @OptionGroup var reshape: ReshapeOption

    @OptionGroup var server: ServerOptions

    func run() throws {
        let request = try request()
        let connection = try server.connection()
        let widget = try connection.decode(BoardReading.Ring.self, from: connection.send(request))
        print("added \(widget.kind) widget \(widget.id) to board \(board)")
    }

    /// `POST /api/v1/boards/BOARD/rings` with the widget's definition, checked by the server's own
    /// decoder of it: an option the kind does not take is refused in the API's words.
    func request() throws(CommandFailure) -> APIRequest {
        guard let kind = RingKind.Name(rawValue: kind), !kind.isRing else {
            let rings = DefinitionFlags.ringKinds.contains(kind) ? " (rings are added with ringcast ring add)" : ""
            throw CommandFailure(
                "unknown --kind \"\(kind)\"; use \(DefinitionFlags.widgetKinds.joined(separator: ", "))\(rings)")
        }
        let given: [(key: String, flag: String, isGiven: Bool)] = [
            ("value", "--value", value != nil), ("digits", "--digits", digits != nil),
            ("decimals", "--decimals", decimals != nil), ("sign", "--sign", sign), ("grouping", "--grouping", grouping != nil),
            ("unit", "--unit", unit != nil), ("text", "--text", text != nil), ("waveWidth", "--wave-width", waveWidth != nil),
            ("colors", "--colors", colors != nil), ("max", "--max", max != nil),
        ]
        try DefinitionFlags.check(given.filter(\.isGiven).map { ($0.key, $0.flag) }, for: kind)
        try DefinitionFlags.check(title: title)
        try DefinitionFlags.check(max: max)
        try PushAnimation.check("--value", value, in: Limits.counterValues, unit: "(a counter's number)")
        try PushAnimation.check("--wave-width", waveWidth, in: Limits.waveWidths, unit: "characters")
        let colors = DefinitionFlags.colors(
            try colors.map { text throws(CommandFailure) in
                kind == .gradient
                    ? try ColorArgument.list(text, flag: "--colors") : try ColorArgument.pair(text, flag: "--colors")
            })
        let widget: RingKind =
            switch kind {
            case .counter:
                .counter(
                    CounterWidget(
                        format: CounterFormat(
                            digits: digits, decimals: decimals ?? 0, sign: sign, grouping: grouping, unit: unit),
                        value: value))
            case .text: .text(TextWidget(text: text, waveWidth: waveWidth ?? TextWidget.defaultWaveWidth))
            case .gradient: .gradient(GradientWidget(colors: colors))
            default: .indicator(IndicatorWidget(look: RingLook(colors: colors, maximum: max)))
            }
        return reshape.applied(to: try DefinitionFlags.request(board: board, ring: RingSpec(id: id, title: title, kind: widget)))
    }
}

/// `ringcast widget delete`: the same call as `ringcast ring delete`.
struct DeleteWidget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a widget from a board.",
        discussion: """
            Sends DELETE /api/v1/boards/BOARD/rings/WIDGET, as ringcast ring delete does; the server \
            lays the board out again. Example: ringcast widget delete ci status
            """
    )

    @Argument(help: "Board name, e.g. ci.")
    var board: String

    @Argument(help: "Widget id, e.g. status.")
    var id: String

    @OptionGroup var reshape: ReshapeOption

    @OptionGroup var server: ServerOptions

    func run() throws {
        _ = try server.connection().send(request())
        print("deleted widget \(id) from board \(board)")
    }

    func request() -> APIRequest {
        reshape.applied(to: APIRequest("DELETE", ["boards", board, "rings", id]))
    }
}
