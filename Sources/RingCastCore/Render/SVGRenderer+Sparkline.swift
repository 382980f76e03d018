/// A ring's sparkline (issue 33) in SVG: the page's line (web/draw.js `drawSpark`), in the same band under the label.
extension SVGRenderer {
    /// The band's width in label sizes (at most; the label's width when narrower), its top below the label's middle
    /// and its height, in label sizes, and the line's width (docs/PROTOCOL.md, "Sparklines").
    static let sparkWidth = 2.5
    static let sparkTop = 0.45
    static let sparkHeight = 0.4
    static let sparkLine = 0.07

    /// The band under the label at `spot` a sparkline is drawn in: a pure function of the spot, as on the page.
    static func sparkBand(_ spot: TextSpec) -> (left: Double, top: Double, width: Double, height: Double) {
        let width = min(spot.width ?? .infinity, sparkWidth * spot.size)
        let left =
            switch spot.align {
            case "left": spot.x
            case "right": spot.x - width
            default: spot.x - width / 2
            }
        return (left, spot.y + sparkTop * spot.size, width, sparkHeight * spot.size)
    }

    /// `line` (`RingFrame.spark`: x, y pairs in 0…1, y up) as a `<polyline>` in the band under `spot`, stroked in the
    /// label's colour with round joins and caps; nil without two points.
    static func sparkline(_ line: [Double], under spot: TextSpec, color: RGBAColor) -> String? {
        guard line.count >= 4 else { return nil }
        let band = sparkBand(spot)
        let n = SVGNumber.text
        let points = stride(from: 0, to: line.count - 1, by: 2).map { index in
            "\(n(band.left + line[index] * band.width)),\(n(band.top + (1 - line[index + 1]) * band.height))"
        }
        return "<polyline class=\"spark\" points=\"\(points.joined(separator: " "))\" fill=\"none\""
            + SVGCanvas.paint("stroke", color) + " stroke-width=\"\(n(sparkLine * spot.size))\""
            + " stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
    }
}
