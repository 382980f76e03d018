import Testing

@testable import RingCastCore

/// The rule every text with a width is fitted by (issue 34): narrowed at most 10 %, then shrunk down to a floor,
/// then two lines, then cut with "…". The same table as Tests/web/text-fit.test.mjs, which tests web/text-fit.js.
@Suite("Text fit")
struct TextFitTests {
    static let title = "Integration tests on staging cluster"

    struct Case: Sendable, CustomTestStringConvertible {
        var what: String
        var string: String
        var size: Double
        var width: Double?
        var minimum: Double
        var fittedSize: Double
        var lines: [String]
        var testDescription: String { what }
    }

    static let cases: [Case] = [
        Case(
            what: "a text that fits is drawn as it is", string: "Move", size: 20, width: 100, minimum: 14, fittedSize: 20,
            lines: ["Move"]),
        Case(
            what: "narrowed by 5 %: the same size", string: "abcdefghij", size: 20, width: 95, minimum: 14, fittedSize: 20,
            lines: ["abcdefghij"]),
        Case(
            what: "narrowed by exactly 10 %: the same size", string: "abcdefghij", size: 20, width: 90, minimum: 14,
            fittedSize: 20, lines: ["abcdefghij"]),
        Case(
            what: "wider: shrunk, narrowed 10 %", string: "abcdefghijkl", size: 20, width: 90, minimum: 14,
            fittedSize: 20 * (100.0 / 120), lines: ["abcdefghijkl"]),
        Case(
            what: "below the floor in one line: two lines, the longer narrowed 10 %", string: title, size: 20, width: 150,
            minimum: 14,
            fittedSize: 20 * (150 / 0.9 / 180), lines: ["Integration tests", "on staging cluster"]),
        Case(
            what: "two lines are never bigger than the spot's size", string: title, size: 20, width: 300, minimum: 19,
            fittedSize: 20,
            lines: ["Integration tests", "on staging cluster"]),
        Case(
            what: "a number breaks after its slash", string: "1,234/5,678", size: 20, width: 50, minimum: 14,
            fittedSize: 20 * (50 / 0.9 / 60), lines: ["1,234/", "5,678"]),
        Case(
            what: "too long for two lines at the floor: cut with … on the second", string: title, size: 20, width: 80,
            minimum: 14,
            fittedSize: 14, lines: ["Integration", "tests on st…"]),
        Case(
            what: "no place to break: one line cut with … at the floor", string: "Supercalifragilistic", size: 20, width: 60,
            minimum: 14, fittedSize: 14, lines: ["Supercal…"]),
        Case(
            what: "the floor is 0.7 of a big size", string: "abcdefghijklmnopqrst", size: 40, width: 200, minimum: 14,
            fittedSize: 28, lines: ["abcdefghijklmn…"]),
        Case(
            what: "a size under the minimum is not shrunk", string: "abcdefghijkl", size: 12, width: 50, minimum: 14,
            fittedSize: 12, lines: ["abcdefgh…"]),
        Case(
            what: "a spot without a width is drawn as it is", string: title, size: 20, width: nil, minimum: 14, fittedSize: 20,
            lines: [title]),
    ]

    /// A fake font: every character is half the font size wide.
    static func halfEm(_ size: Double) -> (String) -> Double { { Double($0.count) * size * 0.5 } }

    @Test(arguments: cases)
    func fit_followsTheRule(_ example: Case) {
        let spot = TextSpec(x: 0, y: 0, size: example.size, align: "center", width: example.width)
        let fit = TextFit.fit(example.string, in: spot, minimum: example.minimum, measure: Self.halfEm(example.size))
        #expect(fit.lines == example.lines)
        #expect(abs(fit.size - example.fittedSize) < 1e-9, "size \(fit.size)")
        guard let width = example.width else { return }
        for line in fit.lines {
            let drawn = Self.halfEm(example.size)(line) * fit.size / example.size
            #expect(drawn * TextFit.squeeze <= width + 1e-9, "\"\(line)\" narrowed more than 10 %")
        }
        #expect(fit.size >= min(example.size, max(0.7 * example.size, example.minimum)) - 1e-9, "never under the floor")
    }

    @Test(arguments: [10.0, 14, 16, 20, 24, 30, 60])
    func aTextCutAtTheFloor_isAtTheRulesFloor(size: Double) {
        let spot = TextSpec(x: 0, y: 0, size: size, align: "center", width: 50)
        let fit = TextFit.fit(String(repeating: "x", count: 200), in: spot, minimum: 14, measure: Self.halfEm(size))
        #expect(fit.size == min(size, max(0.7 * size, 14)))
        #expect(fit.lines.count == 1)
    }

    @Test func breaks_fallAfterSpacesAndSlashes_neverAtTheEnds() {
        func offsets(_ string: String) -> [Int] {
            TextFit.breakPoints(string).map { string.distance(from: string.startIndex, to: $0) }
        }
        #expect(offsets("a b") == [2])
        #expect(offsets("a  b") == [3])
        #expect(offsets(" a/b ") == [3])
        #expect(offsets("ab/") == [])
        #expect(offsets("abc") == [])
    }

    @Test func twoLines_sit1point05OfTheirSizeApart_centredOnTheSpot() {
        #expect(TextFit.lineOffset(0, of: 1, size: 20) == 0)
        #expect(TextFit.lineOffset(0, of: 2, size: 20) == -10.5)
        #expect(TextFit.lineOffset(1, of: 2, size: 20) == 10.5)
    }
}
