import Foundation
import Testing

@testable import RingCastCore

/// Issue 30, problem 6: binary frames cut a label at 255 bytes inside a character (a counter's emoji-family
/// grouping and unit drew "…👩�") while JSON carried it whole. Every title, label and text is now cut once, by the
/// composer, at a character (grapheme cluster) boundary within 255 bytes, so JSON, binary and SVG carry the same
/// string; a counter whose longest label cannot fit is refused where it is defined.
@Suite("Text cut at whole characters")
struct TextCutTests {
    /// 👩‍👩‍👧‍👦: four 4-byte emoji joined by three 3-byte U+200D, one character of 25 bytes.
    static let family = "👩‍👩‍👧‍👦"
    /// 👩‍💻: one character of 11 bytes.
    static let coder = "👩‍💻"
    /// 🇫🇷: two regional indicators, one character of 8 bytes.
    static let flag = "🇫🇷"
    /// 👩🏽‍👩🏽‍👧🏽‍👦🏽: four emoji with skin tones joined by U+200D, one character of 41 bytes.
    static let tonedFamily = "\u{1F469}\u{1F3FD}\u{200D}\u{1F469}\u{1F3FD}\u{200D}\u{1F467}\u{1F3FD}\u{200D}\u{1F466}\u{1F3FD}"
    /// é as e and U+0301, one character of 3 bytes.
    static let accented = "e\u{301}"

    static func times(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

    struct Cut: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var expected: String
        var testDescription: String { name }
    }

    /// Each row that is cut would lose half a character to a cut by bytes or by scalars.
    static let cuts: [Cut] = [
        Cut(name: "empty", text: "", expected: ""),
        Cut(name: "short", text: "73%", expected: "73%"),
        Cut(name: "255 ASCII bytes: exactly at the limit", text: times("a", 255), expected: times("a", 255)),
        Cut(name: "256 ASCII bytes: one over", text: times("a", 256), expected: times("a", 255)),
        Cut(name: "families at the limit", text: times(family, 10) + "abcde", expected: times(family, 10) + "abcde"),
        Cut(name: "families one byte over", text: times(family, 10) + "abcdef", expected: times(family, 10) + "abcde"),
        // A byte cut ends in the 11th family's first emoji's bytes, a scalar cut after its 👩 and U+200D.
        Cut(name: "emoji families", text: "a" + times(family, 11), expected: "a" + times(family, 10)),
        // A scalar cut keeps 👩 and the joiner of the 23rd.
        Cut(name: "ZWJ sequences", text: "abcd" + times(coder, 24), expected: "abcd" + times(coder, 22)),
        // A scalar cut keeps one regional indicator: a letter in a box, not a flag.
        Cut(name: "flags", text: "abc" + times(flag, 32), expected: "abc" + times(flag, 31)),
        // A scalar cut keeps the last e without its accent.
        Cut(name: "combining marks", text: "x" + times(accented, 85), expected: "x" + times(accented, 84)),
        // One character longer than the limit cannot be shown whole: nothing of it is.
        Cut(name: "one character over 255 bytes", text: "a" + times("\u{301}", 200), expected: ""),
    ]

    @Test(arguments: cuts)
    func aTextIsCutAtACharacterBoundary_withinTheByteLimit(_ cut: Cut) {
        let result = Limits.fitting(cut.text)
        #expect(result == cut.expected)
        #expect(result.utf8.count <= Limits.maximumTextBytes)
        // Whole characters of the text, as many as fit: the next one would not.
        let characters = Array(cut.text)
        #expect(characters.starts(with: Array(result)))
        if result.count < characters.count {
            #expect(result.utf8.count + String(characters[result.count]).utf8.count > Limits.maximumTextBytes)
        }
        // What the binary writer sends is the same text.
        var writer = BinaryWriter()
        writer.str8(cut.text)
        #expect(writer.bytes == [UInt8(result.utf8.count)] + Array(result.utf8))
    }

    // MARK: Frames

    /// A counter whose longest label (−10¹², signed, 13 digits, 4 groupings, 3 decimals, the unit) is exactly
    /// 255 bytes: 19 + 4 × 25 + 136; a text widget, a fixed label, a board and a ring title of 255 bytes.
    static let atTheLimit = times(family, 10) + "abcde"
    static let unitAtTheLimit = times(family, 5) + "abcdefghijk"

    static func boardAtTheLimit() throws -> Board {
        let definition = """
            {"title":"\(atTheLimit)","rings":[
              {"id":"people","title":"\(atTheLimit)","kind":"counter","value":-1e12,"sign":true,"decimals":3,
               "grouping":"\(family)","unit":"\(unitAtTheLimit)"},
              {"id":"note","kind":"text","text":"\(atTheLimit)"},
              {"id":"move","label":{"text":"\(atTheLimit)"}}
            ]}
            """
        let spec = try RequestDecoder.decode(BoardDefinition.self, from: Array(definition.utf8))
            .spec(named: "families", maximumRings: 255)
        var board = Board(spec: spec)
        // A fixed label shows once the ring has data.
        try board.apply(WidgetBoardTests.patch(#"{"rings":{"move":0.5},"animation":"none"}"#), at: 0)
        return board
    }

    /// The frame's labels and texts as the binary keyframe carries them (each checked to be valid UTF-8), and as
    /// the JSON frame does, by ring.
    static func labels(of board: Board) throws -> (binary: [[String]], json: [[String]]) {
        let layout = FrameComposer.layout(of: board.spec)
        guard case .layout(let decodedLayout) = try BinaryFrame.decode(BinaryFrame.encode(layout)) else {
            throw BinaryFrame.DecodingError(description: "not a layout")
        }
        let frame = FrameComposer.frame(of: board, at: 0, seq: 1, wallClockMilliseconds: 0)
        let decoded = try BinaryWidgetTests.decodedFrame(BinaryFrame.encode(frame, previous: nil), layout: decodedLayout)
        var binary: [[String]] = []
        for ring in decoded.rings {
            let label = try #require(String(validating: ring.values.label, as: UTF8.self), "ring \(ring.index): not UTF-8")
            var texts = [label]
            if let widget = decodedLayout.widgets[ring.index] {
                let entry = try BinaryFrame.widgetEntry(id: "", layout: widget, values: ring.values)
                if case .text(let text, let scales) = entry.widget {
                    // The widget's own text field, read byte for byte.
                    let bytes = ring.values.widget
                    let length = Int(bytes[0])
                    #expect(String(validating: bytes[1..<(1 + length)], as: UTF8.self) == text)
                    #expect(scales.count == text.count, "one scale per character of the text as sent")
                    texts.append(text)
                }
            }
            binary.append(texts)
        }
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(FrameEncoder.json(frame))) as? [String: Any])
        let rings = try #require(object["rings"] as? [[String: Any]])
        let json = rings.map { ring in [ring["label"] as? String, ring["text"] as? String].compactMap { $0 } }
        return (binary, json)
    }

    @Test func labelsOfEmojiFamiliesAtTheByteLimit_decodeAsValidUTF8InBinaryFrames_andEqualJSONs() throws {
        let board = try Self.boardAtTheLimit()
        let frame = FrameComposer.frame(of: board, at: 0, seq: 1, wallClockMilliseconds: 0)
        #expect(
            frame.rings[0].label
                == "-1\(Self.family)000\(Self.family)000\(Self.family)000\(Self.family)000.000 \(Self.unitAtTheLimit)")
        #expect(frame.rings.map(\.label.utf8.count) == [255, 255, 255], "every label exactly at the limit, whole")
        let (binary, json) = try Self.labels(of: board)
        #expect(binary == json)
        #expect(json == [[frame.rings[0].label], [Self.atTheLimit, Self.atTheLimit], [Self.atTheLimit]])
        // The layout's titles too.
        let layout = FrameComposer.layout(of: board.spec)
        guard case .layout(let decoded) = try BinaryFrame.decode(BinaryFrame.encode(layout)) else {
            Issue.record("not a layout")
            return
        }
        #expect(layout.title == Self.atTheLimit && decoded.title == layout.title)
        #expect(layout.rings[0].title == Self.atTheLimit)
    }

    /// A board stored by an older build may hold longer texts than the API now takes (`BoardSpec.check` leaves
    /// texts alone): the composer cuts them, once, so JSON and binary still agree, at whole families.
    @Test func textsBeyondTheLimit_areCutByTheComposer_theSameInJSONAndBinary() throws {
        var spec = try Self.boardAtTheLimit().spec
        let long = Self.times(Self.family, 11)
        spec.title = long
        spec.rings[0].title = long
        spec.rings[1].label = .text("a" + long)
        spec.rings[2].label = .text(long + "!")
        var board = Board(spec: spec)
        try board.apply(WidgetBoardTests.patch(#"{"rings":{"move":0.5},"animation":"none"}"#), at: 0)
        let (binary, json) = try Self.labels(of: board)
        #expect(binary == json)
        let cut = Self.times(Self.family, 10)
        #expect(json.dropFirst() == [["a" + cut, "a" + cut], [cut]])
        let layout = FrameComposer.layout(of: spec)
        #expect(layout.title == cut && layout.rings[0].title == cut)
        // The SVG draws the composer's text, cut the same way.
        let svg = SVGRenderer.board(
            layout, frame: FrameComposer.frame(of: board, at: 0, seq: 1, wallClockMilliseconds: 0), arrangement: 0)
        #expect(svg.contains("a" + cut + "<") && !svg.contains(long))
    }

    // MARK: Definitions

    /// The longest label a counter's format can compose, against the limit: `Limits.labelProblem(of:)`.
    @Test(
        arguments: [
            // The issue's: a family between groups and a unit of ten families, 19 + 100 + 250 bytes.
            (CounterFormat(grouping: family, unit: times(family, 10)), "unit", 365),
            (CounterFormat(sign: true, grouping: family, unit: unitAtTheLimit), nil, 0),
            (CounterFormat(decimals: 3, sign: true, grouping: family, unit: unitAtTheLimit), nil, 0),
            // One byte more: an é for an a.
            (CounterFormat(decimals: 3, grouping: family, unit: times(family, 5) + "ébcdefghijk"), "unit", 256),
            // Groupings of 60 bytes leave no room for any unit; without one, they are what is too long.
            // 👩🏽‍👩🏽‍👧🏽‍👦🏽 is one character of 41 bytes.
            (
                CounterFormat(decimals: 3, grouping: times(tonedFamily, 2), unit: "x"), "grouping", 18 + 4 * 82 + 2
            ),
            (CounterFormat(decimals: 3, grouping: times(tonedFamily, 2)), "grouping", 18 + 4 * 82),
            (CounterFormat(digits: 13, decimals: 3, sign: true, grouping: ",", unit: times("x", 16)), nil, 0),
        ] as [(CounterFormat, String?, Int)])
    func aCounterWhoseLongestLabelCannotFit_isRefusedNamingTheKey(format: CounterFormat, key: String?, bytes: Int) {
        let problem = Limits.labelProblem(of: format)
        #expect(problem?.key == key)
        if let problem {
            #expect(problem.message.contains("\(bytes) bytes of UTF-8, at most 255"), "\(problem.message)")
        }
    }

    /// A counter stored by an older build, whose longest label is now refused at definition, still loads (as an old
    /// title does): its state restores, and the composer cuts its label at whole characters, alike in JSON and binary.
    @Test func aStoredCounterWhoseLabelCannotFit_stillLoads_andIsCutAlikeInJSONAndBinary() throws {
        var spec = try Self.boardAtTheLimit().spec
        spec.rings[0].kind = .counter(
            CounterWidget(
                format: CounterFormat(grouping: Self.family, unit: Self.times(Self.family, 10)), value: spec.rings[0].value))
        var board = Board(spec: spec)
        // Stored with its spec, as a board the API shaped is: the spec is checked when the state loads.
        board.isShapedByAPI = true
        let state = board.state(fps: 60, epoch: 0)
        #expect(state.spec != nil)
        let restored = try Animator(spec: spec, fps: 60, state: state).projected
        let label = FrameComposer.frame(of: restored, at: 0, seq: 1, wallClockMilliseconds: 0).rings[0].label
        // -1,000,000,000,000 and the unit's space: 1 + 13 + 4 × 25 + 1 bytes, then five families of the ten.
        #expect(label == "-1\(Self.family)000\(Self.family)000\(Self.family)000\(Self.family)000 " + Self.times(Self.family, 5))
        let (binary, json) = try Self.labels(of: restored)
        #expect(binary == json)
    }
}
