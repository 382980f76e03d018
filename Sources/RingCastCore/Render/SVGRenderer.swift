import Foundation

/// A board, one ring, or a ring's badge as a standalone SVG document, drawn from the same layout and frame the
/// page draws (web/draw.js), in the same order: background and splash layers, then per ring its track, arc,
/// start cap, tip and the tip again with its shadow, its title and label (docs/SVG.md).
///
/// SVG has no conic gradient: an arc is drawn as segments of at most `segmentAngle`, each in the gradient's
/// colour at its middle. What else is approximated (text narrowed to a width, a counter's rolling digits, a
/// wave text's scales) is listed in docs/SVG.md. Pure and deterministic: the same layout and frame give the
/// same bytes, whatever the frame's `seq` and `t` (the server sends those as headers).
public enum SVGRenderer {
    /// The largest angle one arc segment spans (2.5°: 144 a turn).
    static let segmentAngle = Double.pi / 72
    /// The fewest segments an arc is drawn in: the gradient runs over the arc however short it is, so a short
    /// arc needs as many steps of colour as a long one.
    static let minimumSegments = 64
    /// How far, at least, each segment but the last reaches under the next along the ring's inner edge, in logical
    /// units (a pixel at 1×). Each reaches under the whole next segment, or this much if more: a segment's
    /// anti-aliased start edge then lies over its predecessor's full colour, never over the track. (It reached
    /// 0.25° under the next, under a third of a pixel at 1× on a ring of radius 72, and seams showed.)
    static let segmentOverlap = 1.0
    /// The page's stale look (web/draw.js): the ring at this opacity, the "updated … ago" under its label.
    static let staleAlpha = 0.4
    static let staleSize = 0.4
    static let staleMinimumSize = 10.0
    static let staleGap = 0.1
    /// Seed 004's look of a `style: seed` countdown (web/draw.js).
    static let seedDisc = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.25)
    static let seedStroke = RGBAColor(red: 1, green: 1, blue: 1)
    static let seedLineWidth = 4.0
    /// A counter's unit is drawn this much smaller than its digits (web/draw.js).
    static let counterUnit = 0.5

    /// A counter's unit beside digits of `size`: half their size, but never under the 14 units every text keeps
    /// while the digits are not (issue 34; web/draw.js does the same).
    static func unitSize(_ size: Double) -> Double {
        max(size * counterUnit, min(size, minimumTextSize))
    }

    /// The index of the arrangement called `name` in `layout` (nil: the board's own, the first).
    public static func arrangementIndex(named name: String?, in layout: Layout) -> Int? {
        guard let name else { return 0 }
        return layout.arrangements.firstIndex { $0.name == name }
    }

    /// The whole board in arrangement `arrangement` (an index into `layout.arrangements`).
    public static func board(_ layout: Layout, frame: Frame, arrangement index: Int) -> String {
        let arrangement = layout.arrangements[index]
        var canvas = SVGCanvas()
        background(&canvas, frame: frame, arrangement: index, width: arrangement.width, height: arrangement.height)
        for (ring, place) in zip(layout.rings, arrangement.rings) {
            draw(&canvas, ring: ring, place: place, values: values(of: ring, in: frame), automaticText: frame.background.text)
        }
        return canvas.document(
            width: arrangement.width, height: arrangement.height,
            viewBox: (0, 0, arrangement.width, arrangement.height),
            attributes: attributes(layout, arrangement: arrangement.name))
    }

    /// One ring as the board shows it in arrangement `arrangement`: the part of the board around the ring and
    /// its texts, background included. Nil when the layout has no ring `id`.
    public static func ring(_ id: String, _ layout: Layout, frame: Frame, arrangement index: Int) -> String? {
        let arrangement = layout.arrangements[index]
        guard let position = layout.rings.firstIndex(where: { $0.id == id }) else { return nil }
        let ring = layout.rings[position]
        let place = arrangement.rings[position]
        let values = values(of: ring, in: frame)
        let box = bounds(of: ring, place: place, values: values)
        var canvas = SVGCanvas()
        background(&canvas, frame: frame, arrangement: index, width: arrangement.width, height: arrangement.height)
        draw(&canvas, ring: ring, place: place, values: values, automaticText: frame.background.text)
        return canvas.document(
            width: box.width, height: box.height, viewBox: box,
            attributes: attributes(layout, arrangement: arrangement.name) + " data-ring=\"\(SVGNumber.escaped(id))\"")
    }

    /// A badge of ring `id` for a README: a small ring, its title and its label on the board's background,
    /// like a shields.io badge. Nil when the layout has no ring `id`.
    public static func badge(_ id: String, _ layout: Layout, frame: Frame) -> String? {
        guard let ring = layout.rings.first(where: { $0.id == id }) else { return nil }
        let values = values(of: ring, in: frame)
        let height = 40.0
        let figure = Badge.hasFigure(ring)
        let textX = figure ? height : 10
        let titleColor = ring.titleColor ?? frame.background.text
        let title = TextSpec(x: textX, y: 14, size: 12, align: "left")
        let label = TextSpec(x: textX, y: 28, size: 14, align: "left")
        let labelText = values?.label ?? ""
        let width = textX + max(estimatedWidth(ring.title, size: 12), estimatedWidth(labelText, size: 14)) + 10
        var canvas = SVGCanvas()
        let n = SVGNumber.text
        canvas.add(
            "<rect width=\"\(n(width))\" height=\"\(n(height))\" rx=\"6\"\(SVGCanvas.paint("fill", frame.background.color))/>")
        if figure {
            let small = Badge.ring(ring)
            let place = Layout.Placement(
                id: ring.id, cx: height / 2, cy: height / 2, r: small.r, thickness: small.thickness, titleText: title,
                labelText: label)
            let scaled = values.map { Badge.values($0, from: ring, to: small) }
            figureOnly(&canvas, ring: small, place: place, values: scaled)
        }
        canvas.add(SVGCanvas.text(ring.title, at: title, weight: 600, color: titleColor, role: "title"))
        if let values {
            canvas.add(SVGCanvas.text(values.label, at: label, weight: 700, color: values.labelColor, role: "label"))
        }
        return canvas.document(
            width: width, height: height, viewBox: (0, 0, width, height),
            attributes: attributes(layout, arrangement: nil) + " data-ring=\"\(SVGNumber.escaped(id))\" data-badge=\"1\"")
    }

    // MARK: - The board's parts

    private static func attributes(_ layout: Layout, arrangement: String?) -> String {
        var text = " data-board=\"\(SVGNumber.escaped(layout.board))\""
        if let arrangement { text += " data-arrangement=\"\(SVGNumber.escaped(arrangement))\"" }
        return text + " font-family=\"\(SVGCanvas.fontStack)\""
    }

    /// The ring's entry in the frame, when it carries one of the ring's kind (web/draw.js draws nothing for an
    /// entry of another kind: a board reshaped under a stale value).
    private static func values(of ring: Layout.Ring, in frame: Frame) -> RingFrame? {
        guard let values = frame.rings.first(where: { $0.id == ring.id }) else { return nil }
        let kind = values.widget?.kind
        guard ring.widget == nil ? kind == nil : kind == ring.kind else { return nil }
        return values
    }

    /// The background colour over the whole canvas, then each splash layer's shape for the arrangement.
    private static func background(_ canvas: inout SVGCanvas, frame: Frame, arrangement: Int, width: Double, height: Double) {
        let n = SVGNumber.text
        // Splash shapes reach past the board (SplashShape.Reach); the root viewport clips them.
        canvas.add(
            "<rect x=\"\(n(-width))\" y=\"\(n(-height))\" width=\"\(n(3 * width))\" height=\"\(n(3 * height))\""
                + "\(SVGCanvas.paint("fill", frame.background.color))/>")
        for layer in frame.background.splash where arrangement < layer.shapes.count {
            switch layer.shapes[arrangement] {
            case .polygon(let points):
                let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
                canvas.add("<polygon points=\"\(list)\"\(SVGCanvas.paint("fill", layer.color))/>")
            case .circle(let cx, let cy, let r):
                canvas.add(
                    "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(max(r, 0)))\"\(SVGCanvas.paint("fill", layer.color))/>")
            }
        }
    }

    /// One ring or widget and its texts, in a group named after it; a stale one at `staleAlpha` with its
    /// "updated … ago" at full opacity under its label.
    private static func draw(
        _ canvas: inout SVGCanvas, ring: Layout.Ring, place: Layout.Placement, values: RingFrame?, automaticText: RGBAColor
    ) {
        let stale = values?.stale
        let opacity = stale == nil ? "" : " opacity=\"\(SVGNumber.text(staleAlpha))\""
        canvas.add("<g data-ring=\"\(SVGNumber.escaped(ring.id))\"\(opacity)>")
        figureOnly(&canvas, ring: ring, place: place, values: values)
        if let values, ring.widget != nil {
            widgetText(&canvas, ring: ring, place: place, values: values)
        }
        let titleColor = ring.titleColor ?? automaticText
        canvas.add(fittedText(ring.title, at: place.titleText, weight: 600, color: titleColor, role: "title"))
        if ring.widget == nil, let values {
            canvas.add(fittedText(values.label, at: place.labelText, weight: 700, color: values.labelColor, role: "label"))
            if let spark = values.spark, let line = sparkline(spark, under: place.labelText, color: values.labelColor) {
                canvas.add(line)
            }
        }
        canvas.add("</g>")
        if let stale, let values {
            let spot = place.labelText
            // Never under the 14 units every text keeps (issue 34): small beside a label, still read on a phone.
            let size = max(spot.size * staleSize, staleMinimumSize, minimumTextSize)
            let under = TextSpec(
                x: spot.x, y: spot.y + spot.size * (0.5 + staleGap), size: size, align: spot.align, width: spot.width)
            canvas.add(fittedText(stale, at: under, weight: 600, color: values.labelColor, baseline: "text-before-edge"))
        }
    }

    /// What a ring or widget draws besides its title and (a ring's) label.
    private static func figureOnly(_ canvas: inout SVGCanvas, ring: Layout.Ring, place: Layout.Placement, values: RingFrame?) {
        switch ring.widget {
        case nil:
            canvas.add("<g transform=\"translate(\(SVGNumber.text(place.cx)) \(SVGNumber.text(place.cy)))\">")
            if ring.style == "seed" {
                seedRing(&canvas, r: ring.r, values: values)
            } else {
                arcs(&canvas, ring: ring, values: values)
            }
            canvas.add("</g>")
        case .indicator(let lineWidth, let dash, let dashPhase):
            guard let values, values.p != nil, values.a1 > values.a0, case .indicator(let color) = values.widget else { return }
            let n = SVGNumber.text
            canvas.add(
                "<path d=\"\(arcPath(cx: place.cx, cy: place.cy, r: ring.r, from: values.a0, to: values.a1))\" fill=\"none\""
                    + "\(SVGCanvas.paint("stroke", color)) stroke-width=\"\(n(lineWidth))\" stroke-linecap=\"butt\""
                    + " stroke-dasharray=\"\(dash.map(n).joined(separator: " "))\" stroke-dashoffset=\"\(n(dashPhase))\"/>")
        case .gradient(let width, let height, let corner):
            guard let values, case .gradient(let stops) = values.widget else { return }
            let n = SVGNumber.text
            let left = place.cx - width / 2
            let top = place.cy - height / 2
            let id = canvas.define("card") { id in
                "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(left))\" y1=\"\(n(top))\""
                    + " x2=\"\(n(left + width))\" y2=\"\(n(top + height))\">"
                    + stops.map { "<stop offset=\"\(n($0.offset))\"\(SVGCanvas.paint("stop-color", $0.color))/>" }.joined()
                    + "</linearGradient>"
            }
            let radius = min(corner, width / 2, height / 2)
            canvas.add(
                "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(width))\" height=\"\(n(height))\" rx=\"\(n(radius))\""
                    + " fill=\"url(#\(id))\"/>")
        case .counter, .text:
            break
        }
    }

    /// A widget's text: a counter's digits, a wave text, an indicator's or a card's label.
    private static func widgetText(_ canvas: inout SVGCanvas, ring: Layout.Ring, place: Layout.Placement, values: RingFrame) {
        let spot = place.labelText
        switch (ring.widget, values.widget) {
        case (.counter(let format), .counter(let value, let sign, let digits)) where value != nil && !digits.isEmpty:
            let number = counterText(sign: sign, digits: digits, format: format)
            var estimated = estimatedWidth(number, size: spot.size)
            if let unit = format.unit, !unit.isEmpty { estimated += estimatedWidth(" " + unit, size: unitSize(spot.size)) }
            var element = SVGCanvas.text(
                number, at: spot, weight: 700, color: values.labelColor, family: SVGCanvas.monoStack, role: "label",
                narrowing: narrowing(estimated, into: spot))
            if let unit = format.unit, !unit.isEmpty {
                let n = SVGNumber.text
                element = element.replacingLast(
                    "</text>",
                    "<tspan font-family=\"\(SVGCanvas.fontStack)\" font-size=\"\(n(unitSize(spot.size)))\" font-weight=\"600\">"
                        + SVGNumber.escaped(" " + unit) + "</tspan></text>")
            }
            canvas.add(element)
        case (.text, .text(let text, _)):
            canvas.add(
                SVGCanvas.text(
                    text, at: spot, weight: 700, color: values.labelColor, family: SVGCanvas.monoStack, role: "label",
                    narrowing: narrowing(estimatedWidth(text, size: spot.size), into: spot)))
        case (.gradient, _) where values.label.isEmpty:
            break
        default:
            canvas.add(fittedText(values.label, at: spot, weight: 700, color: values.labelColor, role: "label"))
        }
    }

    /// A counter's number as web/widgets.js lays out its pieces: the sign, the integer columns grouped by
    /// threes, the point and the decimals. A rolling column shows the digit it is nearer to.
    static func counterText(sign: String, digits: [Odometer.Column], format: CounterFormat) -> String {
        var text = sign
        let integers = max(0, digits.count - format.decimals)
        for (index, column) in digits.enumerated() {
            if index == integers { text += "." }
            if index > 0, index < integers, let grouping = format.grouping, !grouping.isEmpty, (integers - index) % 3 == 0 {
                text += grouping
            }
            text += String(column.fraction < 0.5 ? column.digit : (column.digit + 1) % 10)
        }
        return text
    }

    // MARK: - Rings

    /// The ring of DESIGN §5, relative to its centre: track, arc in segments, start cap, tip, and the tip again
    /// with its shadow when the frame shows it.
    private static func arcs(_ canvas: inout SVGCanvas, ring: Layout.Ring, values: RingFrame?) {
        let n = SVGNumber.text
        canvas.add(
            "<circle r=\"\(n(ring.r))\" fill=\"none\"\(SVGCanvas.paint("stroke", ring.track)) stroke-width=\"\(n(ring.thickness))\"/>"
        )
        guard let values, let p = values.p, p > 0 else { return }
        // canvas.arc draws a whole circle for a sweep of a turn or more; the gradient's last turn ends at a1.
        let start = values.a1 - values.a0 >= 2 * Double.pi ? values.a1 - 2 * Double.pi : values.a0
        let sweep = values.a1 - start
        let count = max(minimumSegments, Int((sweep / segmentAngle).rounded(.up)))
        let overlap = max(sweep / Double(count), segmentOverlap / max(ring.r - ring.thickness / 2, 1))
        canvas.add("<g class=\"arc\" fill=\"none\" stroke-width=\"\(n(ring.thickness))\" stroke-linecap=\"butt\">")
        for index in 0..<count {
            let from = start + sweep * Double(index) / Double(count)
            let to = start + sweep * Double(index + 1) / Double(count)
            let reach = index == count - 1 ? to : min(to + overlap, values.a1)
            let color = color(of: values.gradient, at: (from + to) / 2)
            canvas.add(
                "<path d=\"\(arcPath(cx: 0, cy: 0, r: ring.r, from: from, to: reach))\"\(SVGCanvas.paint("stroke", color))/>")
        }
        canvas.add("</g>")
        let radius = ring.thickness / 2
        if values.cap.visible {
            canvas.add(
                "<circle class=\"cap\" cx=\"\(n(values.cap.x))\" cy=\"\(n(values.cap.y))\" r=\"\(n(radius))\""
                    + "\(SVGCanvas.paint("fill", values.cap.color))/>")
        }
        let tip = values.tip
        let disc = "cx=\"\(n(tip.x))\" cy=\"\(n(tip.y))\" r=\"\(n(radius))\"\(SVGCanvas.paint("fill", tip.color))"
        canvas.add("<circle class=\"tip\" \(disc)/>")
        if tip.visible {
            // canvas shadowBlur b is a Gaussian of standard deviation b / 2 (HTML §4.12.5.1.18).
            let shadow = tip.shadow
            let id = canvas.define("tip") { id in
                "<filter id=\"\(id)\" x=\"-100%\" y=\"-100%\" width=\"300%\" height=\"300%\">"
                    + "<feDropShadow dx=\"\(n(shadow.dx))\" dy=\"\(n(shadow.dy))\" stdDeviation=\"\(n(shadow.blur / 2))\""
                    + " flood-color=\"#000000\" flood-opacity=\"\(n(shadow.alpha))\"/></filter>"
            }
            canvas.add("<circle class=\"tip-shadow\" \(disc) filter=\"url(#\(id))\"/>")
        }
    }

    /// Seed 004's CircleProgressView: a white disc at alpha 0.25 and a white butt-capped arc from a0 to a1.
    private static func seedRing(_ canvas: inout SVGCanvas, r: Double, values: RingFrame?) {
        let n = SVGNumber.text
        canvas.add("<circle r=\"\(n(r))\"\(SVGCanvas.paint("fill", seedDisc))/>")
        guard let values, let p = values.p, p > 0 else { return }
        canvas.add(
            "<path class=\"arc\" d=\"\(arcPath(cx: 0, cy: 0, r: r, from: values.a0, to: values.a1))\" fill=\"none\""
                + "\(SVGCanvas.paint("stroke", seedStroke)) stroke-width=\"\(n(seedLineWidth))\" stroke-linecap=\"butt\"/>")
    }

    /// A path along the circle of radius `r` about (cx, cy) clockwise from angle `from` to `to` (radians, 0 = 3
    /// o'clock, y down, as canvas.arc); a turn or more is the whole circle, in two halves (one SVG arc command
    /// cannot close a circle).
    static func arcPath(cx: Double, cy: Double, r: Double, from: Double, to: Double) -> String {
        let n = SVGNumber.text
        func point(_ angle: Double) -> String { "\(n(cx + r * cos(angle))) \(n(cy + r * sin(angle)))" }
        let sweep = to - from
        if sweep >= 2 * Double.pi {
            return "M \(point(from)) A \(n(r)) \(n(r)) 0 1 1 \(point(from + Double.pi)) A \(n(r)) \(n(r)) 0 1 1 \(point(from))"
        }
        let large = sweep > Double.pi ? 1 : 0
        return "M \(point(from)) A \(n(r)) \(n(r)) 0 \(large) 1 \(point(to))"
    }

    /// The colour a canvas conic gradient shows at `angle`: the stops interpolated at the angle's offset, a
    /// fraction of a turn clockwise from the gradient's start.
    static func color(of gradient: ConicGradient, at angle: Double) -> RGBAColor {
        let stops = gradient.stops
        guard let first = stops.first, let last = stops.last else { return RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
        var offset = ((angle - gradient.start) / (2 * Double.pi)).truncatingRemainder(dividingBy: 1)
        if offset < 0 { offset += 1 }
        if offset <= first.offset { return first.color }
        if offset >= last.offset { return last.color }
        for (low, high) in zip(stops, stops.dropFirst()) where offset < high.offset {
            guard high.offset > low.offset else { continue }
            return low.color.mixed(with: high.color, fraction: (offset - low.offset) / (high.offset - low.offset))
        }
        return last.color
    }

    // MARK: - Sizes

    /// A text's width in logical units, estimated at 0.6 em a character (the fonts are the viewer's).
    static func estimatedWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.6
    }

    /// The part of the board a ring and its texts cover, with a margin.
    private static func bounds(of ring: Layout.Ring, place: Layout.Placement, values: RingFrame?) -> (
        x: Double, y: Double, width: Double, height: Double
    ) {
        var half = ring.r + ring.thickness / 2
        if case .gradient(let width, let height, _) = ring.widget { half = max(width, height) / 2 }
        var minX = place.cx - half
        var maxX = place.cx + half
        var minY = place.cy - half
        var maxY = place.cy + half
        for (spot, string) in [(place.titleText, ring.title), (place.labelText, values?.label ?? "")] where !string.isEmpty {
            let width = spot.width ?? estimatedWidth(string, size: spot.size)
            let left =
                switch spot.align {
                case "left": spot.x
                case "right": spot.x - width
                default: spot.x - width / 2
                }
            minX = min(minX, left)
            maxX = max(maxX, left + width)
            minY = min(minY, spot.y - spot.size * 0.6)
            maxY = max(maxY, spot.y + spot.size * (values?.stale == nil ? 0.6 : 1.2))
        }
        let margin = 8.0
        return (minX - margin, minY - margin, maxX - minX + 2 * margin, maxY - minY + 2 * margin)
    }

    /// The small ring of a badge.
    enum Badge {
        static let radius = 13.0
        static let thickness = 6.0

        /// Rings and the widgets that draw a figure get one in the badge; counters and texts are their text.
        static func hasFigure(_ ring: Layout.Ring) -> Bool {
            switch ring.widget {
            case nil, .indicator, .gradient: true
            case .counter, .text: false
            }
        }

        static func ring(_ ring: Layout.Ring) -> Layout.Ring {
            var small = ring
            let scale = radius / ring.r
            small.r = radius
            small.thickness = ring.widget == nil && ring.style != "seed" ? thickness : ring.thickness * scale
            switch ring.widget {
            case .indicator(let lineWidth, let dash, let dashPhase):
                small.widget = .indicator(
                    lineWidth: lineWidth * scale, dash: dash.map { $0 * scale }, dashPhase: dashPhase * scale)
            case .gradient:
                small.widget = .gradient(width: 2 * radius, height: 2 * radius, corner: 4)
            default:
                break
            }
            return small
        }

        /// The frame's cap and tip moved to the small ring (angles and colours stay).
        static func values(_ values: RingFrame, from ring: Layout.Ring, to small: Layout.Ring) -> RingFrame {
            var scaled = values
            let scale = small.r / ring.r
            scaled.cap.x *= scale
            scaled.cap.y *= scale
            scaled.tip.x *= scale
            scaled.tip.y *= scale
            scaled.tip.shadow.dx *= scale
            scaled.tip.shadow.dy *= scale
            return scaled
        }
    }
}

extension String {
    /// The string with the last `target` replaced by `replacement` (unchanged without one).
    fileprivate func replacingLast(_ target: String, _ replacement: String) -> String {
        guard let range = range(of: target, options: .backwards) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
