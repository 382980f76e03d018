import Foundation
import Testing

@testable import RingCastCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The SVG of a board, a ring and a badge against the JSON frame of the same tick: every document parses as XML,
/// and its arc end points, colours and texts are the frame's.
@Suite("SVG renderer")
struct SVGRendererTests {
    static let origin: Int64 = 1_795_000_000 * 60

    /// The fixture board with `move` at 0.8 and `task1` at 1.3, pushed at `origin + 1` with a 2 s linear animation.
    static func animator() throws -> Animator {
        var animator = Animator(spec: Fixtures.board, fps: 60, tick: origin - 1000)
        let patch = BoardPatch(
            rings: ["move": RingPatch(progress: 0.8), "task1": RingPatch(progress: 1.3), "stand": RingPatch(progress: 0.97)],
            animation: .timing(.linear, duration: 2))
        try animator.accept(.patch(patch), at: origin + 1, now: origin)
        return animator
    }

    /// The frame as the page gets it in JSON, parsed.
    static func json(_ frame: Frame) throws -> [String: JSONValue] {
        try #require(JSONValue(decoding: Array(JSONEncoder().encode(frame))).object)
    }

    @Test(arguments: [false, true])
    func boardSVG_matchesTheJSONFrameOfTheSameTick(atRest: Bool) throws {
        var animator = try Self.animator()
        let tick = Self.origin + 61  // 1 s into the 2 s animation
        let frame = atRest ? animator.restingFrame(at: tick) : animator.frame(at: tick)
        let layout = FrameComposer.layout(of: animator.spec)
        let document = try SVGDocument(SVGRenderer.board(layout, frame: frame, arrangement: 0))
        let json = try Self.json(frame)
        let rings = try #require(json["rings"]?.array)
        #expect(document.root.attributes["width"] == "1280")
        var checked = 0
        for (index, entry) in rings.enumerated() {
            let ring = try #require(entry.object)
            let id = try #require(ring["id"]?.stringValue)
            let group = try #require(document.group(ring: id))
            let spec = layout.rings[index]
            #expect(group.all("text", class: "title").map(\.text) == [spec.title])
            let label = try #require(group.all("text", class: "label").first)
            #expect(label.text == ring["label"]?.stringValue)
            #expect(label.color("fill") == ring["labelColor"]?.stringValue)
            guard let p = ring["p"]?.numberValue, p > 0 else {
                #expect(group.all("path").isEmpty, "\(id): no arc without progress")
                continue
            }
            let a0 = try #require(ring["a0"]?.numberValue)
            let a1 = try #require(ring["a1"]?.numberValue)
            let paths = group.all("path")
            let first = try #require(paths.first?.pathPoints.first)
            let last = try #require(paths.last?.pathPoints.last)
            let start = a1 - a0 >= 2 * Double.pi ? a1 - 2 * Double.pi : a0
            #expect(abs(first.x - spec.r * cos(start)) < 0.001 && abs(first.y - spec.r * sin(start)) < 0.001, "\(id) start")
            #expect(abs(last.x - spec.r * cos(a1)) < 0.001 && abs(last.y - spec.r * sin(a1)) < 0.001, "\(id) end")
            let tip = try #require(ring["tip"]?.object)
            let disc = try #require(group.all("circle", class: "tip").first)
            #expect(abs((Double(disc.attributes["cx"] ?? "") ?? .nan) - (tip["x"]?.numberValue ?? 0)) < 0.001)
            #expect(abs((Double(disc.attributes["cy"] ?? "") ?? .nan) - (tip["y"]?.numberValue ?? 0)) < 0.001)
            #expect(disc.color("fill") == tip["color"]?.stringValue)
            #expect(group.all("circle", class: "tip-shadow").count == (tip["visible"] == .bool(true) ? 1 : 0), "\(id) shadow")
            let cap = try #require(ring["cap"]?.object)
            #expect(
                group.all("circle", class: "cap").first?.color("fill")
                    == (cap["visible"] == .bool(true) ? cap["color"]?.stringValue : nil))
            // The last segment ends at the tip, in the gradient's colour there: the tip's colour.
            // The last segment ends at the tip, in the gradient's colour half a segment before it: about the tip's.
            let end = try #require(paths.last?.color("stroke"))
            #expect(Self.distance(end, try #require(tip["color"]?.stringValue)) <= 4, "\(id) arc end colour \(end)")
            checked += 1
        }
        #expect(checked == 4, "move, stand, task1 and overall, which follows the tasks")
        #expect(document.all("rect").first?.color("fill") == json["background"]?.object?["color"]?.stringValue)
    }

    /// The largest difference of two `#rrggbbaa` colours' bytes.
    static func distance(_ a: String, _ b: String) -> Int {
        func bytes(_ hex: String) -> [Int] {
            stride(from: 1, to: 9, by: 2).map { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return Int(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? -999
            }
        }
        return zip(bytes(a), bytes(b)).map { abs($0 - $1) }.max() ?? .max
    }

    @Test func theSamePicture_givesTheSameBytes_whateverItsSeq() throws {
        var animator = try Self.animator()
        let layout = FrameComposer.layout(of: animator.spec)
        let early = animator.restingFrame(at: Self.origin + 200)
        let later = animator.restingFrame(at: Self.origin + 300)
        #expect(early.seq != later.seq)
        #expect(
            SVGRenderer.board(layout, frame: early, arrangement: 0) == SVGRenderer.board(layout, frame: later, arrangement: 0))
        #expect(
            SVGRenderer.badge("move", layout, frame: early) == SVGRenderer.badge("move", layout, frame: later))
    }

    @Test func everyArrangement_andEveryWidgetKind_parse() throws {
        let spec = try WidgetBoardTests.spec()
        var animator = Animator(spec: spec, fps: 60, tick: Self.origin)
        let patch = try WidgetBoardTests.patch(
            #"{"rings":{"move":{"progress":0.5},"tests":{"value":1234.5},"load":{"progress":0.6}},"animation":{"curve":"linear","duration":1}}"#
        )
        try animator.accept(.patch(patch), at: Self.origin + 1, now: Self.origin)
        let frame = animator.frame(at: Self.origin + 30)
        let layout = FrameComposer.layout(of: spec)
        for index in layout.arrangements.indices {
            let document = try SVGDocument(SVGRenderer.board(layout, frame: frame, arrangement: index))
            #expect(document.root.attributes["data-arrangement"] == layout.arrangements[index].name)
            #expect(document.group(ring: "status")?.all("text", class: "label").first?.text == "Deploying")
            #expect(document.group(ring: "load")?.all("path").count == 1)
            #expect(document.group(ring: "mood")?.all("rect").count == 1)
            #expect(document.all("linearGradient").first?.all("stop").count == 3)
            #expect(document.group(ring: "tests")?.all("text", class: "label").first?.text.hasSuffix(" tests") == true)
        }
        for ring in layout.rings {
            _ = try SVGDocument(try #require(SVGRenderer.ring(ring.id, layout, frame: frame, arrangement: 0)))
            _ = try SVGDocument(try #require(SVGRenderer.badge(ring.id, layout, frame: frame)))
        }
    }

    @Test func ringSVG_andBadge_carryTheRingsTexts() throws {
        var animator = try Self.animator()
        let frame = animator.restingFrame(at: Self.origin + 200)
        let layout = FrameComposer.layout(of: animator.spec)
        let ring = try SVGDocument(try #require(SVGRenderer.ring("move", layout, frame: frame, arrangement: 0)))
        #expect(ring.all("g").compactMap { $0.attributes["data-ring"] } == ["move"])
        #expect(ring.all("text", class: "label").map(\.text) == ["80%"])
        let badge = try SVGDocument(try #require(SVGRenderer.badge("move", layout, frame: frame)))
        #expect(badge.root.attributes["height"] == "40")
        #expect(badge.all("text", class: "title").map(\.text) == ["Move"])
        #expect(badge.all("text", class: "label").map(\.text) == ["80%"])
        #expect(badge.all("path").count > 1, "the badge's ring has its arc")
        #expect(SVGRenderer.ring("nope", layout, frame: frame, arrangement: 0) == nil)
        #expect(SVGRenderer.badge("nope", layout, frame: frame) == nil)
    }

    /// A ring's sparkline (issue 33) is a polyline in the band under its label (PROTOCOL.md, "Sparklines"): the frame's
    /// points placed by the band rule, in the label's colour; a ring without one has none.
    @Test func sparkline_isAPolylineInTheBandUnderTheLabel() throws {
        var animator = try SparklineTests.animator()
        for (index, progress) in [0.2, 0.6, 0.4].enumerated() {
            try SparklineTests.push(&animator, progress, at: SparklineTests.origin + Int64(index) * 60)
        }
        let frame = animator.frame(at: SparklineTests.origin + 120)
        let layout = FrameComposer.layout(of: animator.spec)
        let document = try SVGDocument(SVGRenderer.board(layout, frame: frame, arrangement: 0))
        #expect(try #require(document.group(ring: "tests")).all("polyline").isEmpty)
        let line = try #require(document.group(ring: "build")?.all("polyline", class: "spark").first)
        let spot = layout.arrangements[0].rings[0].labelText
        let width = min(spot.width ?? .infinity, 2.5 * spot.size)
        let (left, top, height) = (spot.x - width / 2, spot.y + 0.45 * spot.size, 0.4 * spot.size)
        let expected = [(0.0, 0.2), (0.5, 0.6), (1.0, 0.4)].map { (left + $0.0 * width, top + (1 - $0.1) * height) }
        let points = (line.attributes["points"] ?? "").split(separator: " ").map {
            $0.split(separator: ",").compactMap { Double($0) }
        }
        #expect(points.count == expected.count)
        for (point, want) in zip(points, expected) {
            #expect(abs(point[0] - want.0) < 0.001 && abs(point[1] - want.1) < 0.001, "\(point) against \(want)")
        }
        #expect(line.color("stroke") == frame.rings[0].labelColor.hex)
        #expect(line.attributes["fill"] == "none")
        #expect(line.attributes["stroke-width"] == SVGNumber.text(0.07 * spot.size))
        #expect(line.attributes["stroke-linejoin"] == "round" && line.attributes["stroke-linecap"] == "round")
    }

    @Test func text_isEscaped() throws {
        var spec = Fixtures.board
        spec.rings[0].title = #"<b> & "q" 'a'"#
        let animator = Animator(spec: spec, fps: 60, tick: Self.origin)
        var copy = animator
        let frame = copy.frame(at: Self.origin)
        let document = try SVGDocument(SVGRenderer.board(FrameComposer.layout(of: spec), frame: frame, arrangement: 0))
        #expect(document.group(ring: "move")?.all("text", class: "title").first?.text == #"<b> & "q" 'a'"#)
    }

    @Test(arguments: [
        (0.0, "0"), (12.0, "12"), (-0.5, "-0.5"), (3.14159, "3.142"), (0.0004, "0"), (-0.0004, "0"), (1e9, "10000000"),
        (Double.nan, "0"), (2.1, "2.1"), (0.05, "0.05"),
    ])
    func numbers_areWrittenTheSameWayEveryTime(value: Double, text: String) {
        #expect(SVGNumber.text(value) == text)
    }

    @Test func conicColour_interpolatesTheStops() {
        let red = RGBAColor(red: 1, green: 0, blue: 0)
        let blue = RGBAColor(red: 0, green: 0, blue: 1)
        let gradient = ConicGradient(start: 0, stops: [.init(offset: 0, color: red), .init(offset: 0.5, color: blue)])
        #expect(SVGRenderer.color(of: gradient, at: 0) == red)
        #expect(SVGRenderer.color(of: gradient, at: Double.pi / 2).hex == red.mixed(with: blue, fraction: 0.5).hex)
        #expect(SVGRenderer.color(of: gradient, at: 1.5 * Double.pi) == blue)
        #expect(SVGRenderer.color(of: gradient, at: -Double.pi / 2) == blue, "angles wrap around the turn")
    }
}

extension JSONValue {
    fileprivate var stringValue: String? {
        if case .string(let string) = self { string } else { nil }
    }

    fileprivate var numberValue: Double? {
        if case .number(let number) = self { number } else { nil }
    }
}

/// An SVG document as a tree of elements, parsed with Foundation's XMLParser: what a test asks of it.
final class SVGDocument {
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        /// Every element below this one named `name` (and of class `class`), in document order.
        func all(_ name: String, class className: String? = nil) -> [Element] {
            children.flatMap { child in
                let own = child.name == name && (className == nil || child.attributes["class"] == className) ? [child] : []
                return own + child.all(name, class: className)
            }
        }

        /// A paint attribute as `#rrggbbaa`, with its `-opacity` attribute folded in.
        func color(_ attribute: String) -> String? {
            guard let rgb = attributes[attribute] else { return nil }
            let opacity = attributes["\(attribute)-opacity"].flatMap(Double.init) ?? 1
            return rgb + String(format: "%02x", Int((opacity * 255).rounded()))
        }

        /// The end points of a path's `M` and `A` commands.
        var pathPoints: [(x: Double, y: Double)] {
            let parts = (attributes["d"] ?? "").split(separator: " ")
            var points: [(x: Double, y: Double)] = []
            var index = 0
            while index < parts.count {
                switch parts[index] {
                case "M":
                    points.append((Double(parts[index + 1]) ?? .nan, Double(parts[index + 2]) ?? .nan))
                    index += 3
                case "A":
                    points.append((Double(parts[index + 6]) ?? .nan, Double(parts[index + 7]) ?? .nan))
                    index += 8
                default:
                    index += 1
                }
            }
            return points
        }
    }

    let root: Element

    init(_ text: String) throws {
        let parser = XMLParser(data: Data(text.utf8))
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw SVGParseError(description: parser.parserError.map { "\($0)" } ?? "no root element")
        }
        #expect(root.name == "svg")
        self.root = root
    }

    func all(_ name: String, class className: String? = nil) -> [Element] { root.all(name, class: className) }

    /// The group a ring is drawn in.
    func group(ring id: String) -> Element? {
        all("g").first { $0.attributes["data-ring"] == id }
    }

    struct SVGParseError: Error, CustomStringConvertible {
        let description: String
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: Element?
        var stack: [Element] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let element = Element(name: name, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            for element in stack { element.text += string }
        }
    }
}
