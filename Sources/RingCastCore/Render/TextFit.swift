/// How a text fits its spot's width (issue 34): never narrowed more than 10 % sideways. web/text-fit.js is the
/// same rule for the page, which measures with the viewer's font; the SVG has no font metrics and measures with
/// `SVGRenderer.estimatedWidth` (0.6 em a character). In this order:
///
/// 1. one line at the spot's size, narrowed by at most `squeeze`;
/// 2. one line shrunk uniformly (and narrowed by at most `squeeze`) down to the floor,
///    `min(size, max(floorRatio × size, minimum))`;
/// 3. two lines, broken after a space or a "/", each narrowed by at most `squeeze`, at the biggest size from the
///    floor up to the spot's own that fits (of breaks giving the same size, the most even), `linePitch` of their
///    size apart and centred on the spot's y: never taller than two lines of the spot's size;
/// 4. at the floor, the text cut with "…": on two lines when it breaks, else on one.
///
/// A spot without a width (hand-placed boards) is drawn as it is.
public struct TextFit: Sendable, Hashable {
    /// The font size to draw at.
    public var size: Double
    /// One or two lines, each at most the spot's width / `squeeze` wide at `size`.
    public var lines: [String]

    public init(size: Double, lines: [String]) {
        self.size = size
        self.lines = lines
    }

    /// The most a line is narrowed sideways: to 90 % of its width.
    public static let squeeze = 0.9
    /// The floor is this part of the spot's size, or the minimum if bigger (never more than the size).
    public static let floorRatio = 0.7
    /// Two lines are this many of their size apart.
    public static let linePitch = 1.05

    /// The fit of `string` in `spot`; `measure` gives a string's width at the spot's size (widths grow in
    /// proportion to the size), `minimum` is the floor's lower bound in the spot's units.
    public static func fit(_ string: String, in spot: TextSpec, minimum: Double, measure: (String) -> Double) -> TextFit {
        let size = spot.size
        guard let width = spot.width else { return TextFit(size: size, lines: [string]) }
        let room = width / squeeze
        let natural = measure(string)
        if natural <= room { return TextFit(size: size, lines: [string]) }
        let floor = min(size, max(floorRatio * size, minimum))
        let shrunk = size * room / natural
        if shrunk >= floor { return TextFit(size: shrunk, lines: [string]) }
        let breaks = breakPoints(string)
        var best: (size: Double, lines: [String], widest: Double)?
        for index in breaks {
            let lines = [trimmingEnd(string[..<index]), trimmingStart(string[index...])]
            let widest = max(measure(lines[0]), measure(lines[1]))
            let fits = widest > 0 ? min(size, size * room / widest) : size
            if let current = best, !(fits > current.size || (fits == current.size && widest < current.widest)) { continue }
            best = (fits, lines, widest)
        }
        if let best, best.size >= floor { return TextFit(size: best.size, lines: best.lines) }
        func fitsAtFloor(_ text: String) -> Bool { measure(text) * floor / size <= room }
        if let first = breaks.last(where: { fitsAtFloor(trimmingEnd(string[..<$0])) }) {
            let rest = trimmingStart(string[first...])
            return TextFit(size: floor, lines: [trimmingEnd(string[..<first]), cut(rest, fits: fitsAtFloor)])
        }
        return TextFit(size: floor, lines: [cut(string, fits: fitsAtFloor)])
    }

    /// Where a string may break into two lines: after each run of spaces and after each "/", never at its ends.
    static func breakPoints(_ string: String) -> [String.Index] {
        var points: [String.Index] = []
        var previous: Character?
        var seenText = false
        for index in string.indices {
            let character = string[index]
            if let before = previous {
                if before != " " { seenText = true }
                if before == " " || before == "/", character != " ", seenText { points.append(index) }
            }
            previous = character
        }
        return points
    }

    /// Where line `index` of `count` lines of font `size` sits, from the spot's y.
    public static func lineOffset(_ index: Int, of count: Int, size: Double) -> Double {
        (Double(index) - Double(count - 1) / 2) * linePitch * size
    }

    /// The string's longest start (whole characters, trailing spaces dropped) that fits with "…" after it.
    private static func cut(_ string: String, fits: (String) -> Bool) -> String {
        if fits(string) { return string }
        let characters = Array(string)
        for count in stride(from: characters.count - 1, to: 0, by: -1) {
            let candidate = trimmingEnd(characters[..<count]) + "…"
            if fits(candidate) { return candidate }
        }
        return "…"
    }

    private static func trimmingEnd<S: Collection<Character>>(_ text: S) -> String {
        var result = String(text)
        while result.last == " " { result.removeLast() }
        return result
    }

    private static func trimmingStart(_ text: Substring) -> String {
        String(text.drop { $0 == " " })
    }
}
