import Foundation
import Testing

@testable import RingCastCore

/// The SVG's texts follow the page's fitting rule (issue 34, `TextFit`, widths estimated at 0.6 em a character), and
/// its arc segments overlap so that no seam shows at 1×.
@Suite("SVG text and seams")
struct SVGTextTests {
    static let long = "Integration tests on staging cluster"

    /// A board the server lays out with a long title, a fraction label and a counter, at rest.
    static func board() throws -> (Layout, Frame) {
        let definition = """
            {"rings":[{"id":"build","title":"Build"},{"id":"tests","title":"\(long)","label":"fraction","max":5678},
            {"id":"deploy"},{"id":"runs","kind":"counter","value":1234567,"unit":"tests","grouping":","}]}
            """
        let spec = try RequestDecoder.decode(BoardDefinition.self, from: Array(definition.utf8)).spec(
            named: "ci", maximumRings: 255)
        var animator = Animator(spec: spec, fps: 60, tick: SVGRendererTests.origin)
        let patch = try RequestDecoder.decode(
            BoardPatch.self, from: Array(#"{"rings":{"build":{"progress":0.9},"tests":{"value":1234}},"animation":"none"}"#.utf8))
        try animator.accept(.patch(patch), at: SVGRendererTests.origin + 1, now: SVGRendererTests.origin)
        return (FrameComposer.layout(of: spec), animator.restingFrame(at: SVGRendererTests.origin + 10))
    }

    /// The sideways scale of a text's `transform="matrix(kx 0 0 ky …)"`, 1 without one.
    static func narrowing(_ text: SVGDocument.Element) -> (x: Double, y: Double) {
        guard let transform = text.attributes["transform"] else { return (1, 1) }
        let numbers = transform.dropFirst("matrix(".count).dropLast().split(separator: " ").compactMap { Double($0) }
        return (numbers[0], numbers[3])
    }

    @Test(arguments: [0, 1])
    func everyTitleAndLabel_fitsItsWidth_narrowedAtMost10Percent(arrangement index: Int) throws {
        let (layout, frame) = try Self.board()
        let document = try SVGDocument(SVGRenderer.board(layout, frame: frame, arrangement: index))
        let places = layout.arrangements[index].rings
        for (ring, place) in zip(layout.rings, places) {
            let group = try #require(document.group(ring: ring.id))
            for (role, spot) in [("title", place.titleText), ("label", place.labelText)] {
                guard let text = group.all("text", class: role).first, let width = spot.width else { continue }
                let size = try #require(Double(text.attributes["font-size"] ?? ""))
                let tspans = text.all("tspan")
                let lines = tspans.isEmpty ? [text.text] : tspans.map(\.text)
                let (x, y) = Self.narrowing(text)
                // Never narrowed more than 10 % against its height: a counter's row too wide even so is scaled down
                // whole (x and y), as its unit, kept at 14 units, makes the test board's counter.
                #expect(x / y >= TextFit.squeeze - 1e-3 && y <= 1, "\(ring.id)'s \(role) narrowed to \(x) × \(y)")
                #expect(y == 1 || (ring.widget != nil && role == "label"), "only a counter's row is scaled up and down")
                for line in lines {
                    let estimated = SVGRenderer.estimatedWidth(line, size: size) * x
                    #expect(estimated <= width + 0.01, "\(ring.id)'s \(role) \"\(line)\": \(estimated) wide in \(width)")
                }
                #expect(lines.count <= 2)
                #expect(size >= min(spot.size, max(0.7 * spot.size, 14)) - 1e-3 || y < 1, "\(ring.id)'s \(role) at \(size)")
            }
        }
        let tests = try #require(document.group(ring: "tests")?.all("text", class: "title").first)
        #expect(tests.all("tspan").map(\.text).joined(separator: " ").hasPrefix("Integration"), "the long title is drawn")
    }

    @Test func aLongTitle_wrapsToTwoLines_centredOnItsSpot() {
        let spot = TextSpec(x: 100, y: 50, size: 20, align: "center", width: 200)
        let svg = SVGRenderer.fittedText(Self.long, at: spot, weight: 600, color: Fixtures.white, role: "title")
        // 36 characters at 0.6 em are 21.6 sizes: one line would need 18 × 0.9 / 21.6 of the size, under the floor.
        // Two: "Integration tests" (17) and "on staging cluster" (18), at 20 × (200 / 0.9) / (18 × 12) = 20.576 → 20.
        #expect(
            svg
                == "<text class=\"title\" x=\"100\" y=\"50\" font-family=\"\(SVGCanvas.fontStack)\" font-size=\"20\" font-weight=\"600\""
                + " fill=\"#ffffff\" text-anchor=\"middle\" dominant-baseline=\"central\" transform=\"matrix(0.926 0 0 1 7.407 0)\">"
                + "<tspan x=\"100\" y=\"39.5\">Integration tests</tspan><tspan x=\"100\" y=\"60.5\">on staging cluster</tspan></text>"
        )
    }

    @Test(arguments: [
        (r: 72.0, thickness: 20.0, p: 0.9), (r: 220, thickness: 38, p: 0.5), (r: 13, thickness: 6, p: 0.3),
        (r: 72, thickness: 20, p: 0.01),
    ])
    func arcSegments_reachUnderTheWholeNextSegment_andAtLeastAUnitAtTheInnerEdge(
        r: Double, thickness: Double, p: Double
    ) throws {
        let (layout, frame) = try Self.board()
        var ring = try #require(layout.rings.first { $0.id == "build" })
        ring.r = r
        ring.thickness = thickness
        var values = try #require(frame.rings.first { $0.id == "build" })
        values.a0 = -Double.pi / 2
        values.a1 = -Double.pi / 2 + 2 * Double.pi * p
        var small = layout
        small.rings = [ring]
        small.arrangements = small.arrangements.map { arrangement in
            var arrangement = arrangement
            arrangement.rings = [arrangement.rings[0]]
            return arrangement
        }
        var single = frame
        single.rings = [values]
        let document = try SVGDocument(SVGRenderer.board(small, frame: single, arrangement: 0))
        let paths = try #require(document.all("g", class: "arc").first).all("path")
        func angle(_ point: (x: Double, y: Double)) -> Double {
            var a = atan2(point.y, point.x)
            while a < values.a0 - 1e-6 { a += 2 * Double.pi }
            return a
        }
        let starts = paths.map { angle($0.pathPoints.first!) }
        let ends = paths.map { angle($0.pathPoints.last!) }
        let inner = r - thickness / 2
        for index in 0..<(paths.count - 1) {
            let step = starts[index + 1] - starts[index]
            let under = ends[index] - starts[index + 1]
            let wanted = max(step, 1 / inner)
            // Thousandths of a unit in the document: an angle is good to about 0.001 / r.
            let slack = 0.002 / r
            #expect(under >= min(wanted, values.a1 - starts[index + 1]) - slack, "segment \(index): \(under) under the next")
            #expect(ends[index] <= values.a1 + slack)
        }
        #expect(abs(ends.last! - values.a1) < 0.002 / r, "the last ends at a1")
    }

    /// A counter's unit is half its digits' size but never under the 14 units every text keeps, nor over the digits.
    @Test(arguments: [(40.0, 20.0), (28.0, 14.0), (20.0, 14.0), (14.0, 14.0), (10.0, 10.0)])
    func aCountersUnit_keepsTheFloor(digits: Double, unit: Double) {
        #expect(SVGRenderer.unitSize(digits) == unit)
    }
}
