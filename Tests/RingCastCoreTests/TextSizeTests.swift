import Testing

@testable import RingCastCore

/// The text sizes of the boards the server lays out (issue 34): every text is at least 14 CSS pixels on a 390×844
/// phone, and a counter's or text widget's value is at least its title's size, in both arrangements.
@Suite("Text sizes")
struct TextSizeTests {
    /// The page draws a 9:19.5 canvas at least this many CSS pixels wide on a 390×844 phone held upright (its
    /// header takes some of the 844; `Arranger.phoneReadableDivisor`).
    static let phoneCanvasWidth = 364.0

    /// Boards by definition: lone rings, groups, widgets, many rings.
    static let definitions: [String] = [
        #"{"rings":[{"id":"a"}]}"#,
        #"{"rings":[{"id":"a"},{"id":"b"},{"id":"c"}]}"#,
        #"{"rings":[{"id":"m"},{"id":"e"},{"id":"s"},{"id":"t1"},{"id":"t2"}],"groups":[["m","e","s"]]}"#,
        #"{"rings":[{"id":"move"},{"id":"tests","kind":"counter","value":1234,"unit":"tests","grouping":","},{"id":"status","kind":"text","text":"Deploying"},{"id":"load","kind":"indicator"},{"id":"mood","kind":"gradient"}]}"#,
        #"{"rings":[{"id":"n","kind":"counter","value":7}]}"#,
        "{\"rings\":[" + (1...12).map { "{\"id\":\"r\($0)\"}" }.joined(separator: ",") + "]}",
        "{\"rings\":[" + (1...8).map { "{\"id\":\"g\($0)\"}" }.joined(separator: ",")
            + "],\"groups\":[[\"g1\",\"g2\",\"g3\",\"g4\",\"g5\",\"g6\"]]}",
    ]

    static func spec(_ definition: String) throws -> BoardSpec {
        try RequestDecoder.decode(BoardDefinition.self, from: Array(definition.utf8)).spec(named: "b", maximumRings: 255)
    }

    @Test(arguments: definitions)
    func everyText_isAtLeast14CSSPixelsOnAPhone(definition: String) throws {
        let spec = try Self.spec(definition)
        let portrait = try #require(spec.arrangements.first { $0.name == "portrait" })
        let cssPerUnit = Self.phoneCanvasWidth / portrait.width
        for placement in portrait.placements {
            for (name, text) in [("title", placement.titleText), ("label", placement.labelText)] {
                #expect(text.size * cssPerUnit >= 14 - 1e-9, "\(placement.id)'s \(name): \(text.size * cssPerUnit) CSS pixels")
            }
        }
        #expect(LayoutCheck.problems(in: spec) == [])
    }

    @Test(arguments: definitions)
    func counterAndTextValues_areAtLeastTheirTitles_andAsWideAsTheirCells(definition: String) throws {
        let spec = try Self.spec(definition)
        let widgets = spec.rings.filter { $0.kind.tag == .counter || $0.kind.tag == .text }
        for arrangement in spec.arrangements {
            for ring in widgets {
                let placement = try #require(arrangement.placement(of: ring.id))
                #expect(placement.labelText.size >= placement.titleText.size, "\(arrangement.name): \(ring.id)")
                #expect(placement.labelText.width == placement.titleText.width, "\(arrangement.name): \(ring.id)")
            }
        }
    }
}
