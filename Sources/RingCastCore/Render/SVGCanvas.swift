/// An SVG document being written: the elements in drawing order and the definitions they refer to
/// (filters, gradients), each definition with an id numbered in the order it was made, so the same drawing
/// gives the same bytes.
struct SVGCanvas {
    private(set) var elements = ""
    private(set) var definitions = ""
    private var nextID = 0

    /// The page's fonts (web/draw.js), in attribute form.
    static let fontStack = "ui-rounded, 'SF Pro Rounded', system-ui, sans-serif"
    static let monoStack = "ui-monospace, Menlo, 'DejaVu Sans Mono', 'Liberation Mono', monospace"

    /// Appends an element (or a group's opening or closing tag) as is.
    mutating func add(_ element: String) {
        elements += element
        elements += "\n"
    }

    /// Adds a definition made from its new id; returns the id.
    mutating func define(_ prefix: String, _ make: (String) -> String) -> String {
        let id = "\(prefix)\(nextID)"
        nextID += 1
        definitions += make(id)
        definitions += "\n"
        return id
    }

    /// The whole document: `width` × `height` on screen showing `viewBox`, with `attributes` on the root
    /// (already formatted, each with a leading space).
    func document(
        width: Double, height: Double, viewBox: (x: Double, y: Double, width: Double, height: Double), attributes: String
    )
        -> String
    {
        let n = SVGNumber.text
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\""
        text += " viewBox=\"\(n(viewBox.x)) \(n(viewBox.y)) \(n(viewBox.width)) \(n(viewBox.height))\"\(attributes)>\n"
        if !definitions.isEmpty {
            text += "<defs>\n" + definitions + "</defs>\n"
        }
        text += elements
        text += "</svg>\n"
        return text
    }

    /// `name="#rrggbb"`, and `name-opacity` when the colour is not opaque: `#rrggbbaa` is CSS Color 4, which
    /// browsers read but older SVG renderers (e-ink converters, image proxies) may not.
    static func paint(_ name: String, _ color: RGBAColor) -> String {
        let hex = color.hex
        let rgb = String(hex.prefix(7))
        let alpha = hex.suffix(2)
        guard alpha != "ff" else { return " \(name)=\"\(rgb)\"" }
        let byte = Int(alpha, radix: 16) ?? 255
        return " \(name)=\"\(rgb)\" \(name)-opacity=\"\(SVGNumber.text(Double(byte) / 255))\""
    }

    /// A `<text>` at a spot of the layout: canvas `textBaseline = "middle"` is the middle of the em box,
    /// SVG's `central`; the spot's `align` is the anchor. `role`: its class (`title`, `label`). More than one of
    /// `lines` are `<tspan>`s `TextFit.linePitch` sizes apart, centred on the spot's y
    /// (for `central`; else the first at y). `narrowing` scales the
    /// text about the spot's (x, y), sideways by `x` and up and down by `y` (1, 1: not at all).
    static func text(
        _ string: String, at spot: TextSpec, weight: Int, color: RGBAColor, family: String = fontStack,
        baseline: String = "central", role: String? = nil, lines: [String]? = nil,
        narrowing: (x: Double, y: Double) = (1, 1)
    ) -> String {
        let n = SVGNumber.text
        let anchor =
            switch spot.align {
            case "left": "start"
            case "right": "end"
            default: "middle"
            }
        let name = role.map { " class=\"\($0)\"" } ?? ""
        let lines = lines ?? [string]
        let content =
            lines.count == 1
            ? SVGNumber.escaped(lines[0])
            : lines.enumerated().map { index, line in
                // Centred on y for `central`; under y, the first line's top at it, for a top baseline.
                let first = baseline == "central" ? 0 : TextFit.lineOffset(0, of: lines.count, size: spot.size)
                let y = spot.y + TextFit.lineOffset(index, of: lines.count, size: spot.size) - first
                return "<tspan x=\"\(n(spot.x))\" y=\"\(n(y))\">\(SVGNumber.escaped(line))</tspan>"
            }.joined()
        var transform = ""
        if narrowing.x != 1 || narrowing.y != 1 {
            // Scaling about (x, y): x' = kx·x + x(1 − kx), y' = ky·y + y(1 − ky).
            transform =
                " transform=\"matrix(\(n(narrowing.x)) 0 0 \(n(narrowing.y)) \(n(spot.x * (1 - narrowing.x)))"
                + " \(n(spot.y * (1 - narrowing.y))))\""
        }
        return "<text\(name) x=\"\(n(spot.x))\" y=\"\(n(spot.y))\" font-family=\"\(family)\" font-size=\"\(n(spot.size))\""
            + " font-weight=\"\(weight)\"\(paint("fill", color)) text-anchor=\"\(anchor)\" dominant-baseline=\"\(baseline)\"\(transform)>"
            + content + "</text>"
    }
}
