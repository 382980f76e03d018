import Foundation
import Testing

@testable import RingCastCore

/// Boards placed by hand (the config's) get a portrait arrangement from the server (issue 23): laid out from
/// their rings and the rings that share a centre, each ring at its own size, and readable on a phone.
@Suite struct HandPlacedPortraitTests {
    /// config/ringcast.json's main board as the config reads it: the hand placement alone.
    static var configMain: BoardSpec {
        var spec = LayoutCheckTests.configMain
        spec.groups = []
        return spec
    }

    /// The CSS pixels the page has for the board on a 390×844 phone held upright, under its 35-pixel header.
    static let phoneStage = (width: 390.0, height: 809.0)

    /// How many CSS pixels one logical unit of `arrangement` takes on that phone (the page fits it, letterboxed).
    static func phoneScale(_ arrangement: Arrangement) -> Double {
        min(phoneStage.width / arrangement.width, phoneStage.height / arrangement.height)
    }

    @Test func configsMainBoard_getsAPortraitInWhichEveryTextIsAtLeast14CSSPixelsOnAPhone() throws {
        let spec = Self.configMain.withPortrait()
        #expect(spec.arrangements.map(\.name) == ["landscape", "portrait"])
        let portrait = try #require(spec.alternates.first)
        #expect(LayoutCheck.problems(in: spec) == [])
        #expect(abs(portrait.width / portrait.height - 9 / 19.5) < 0.01)
        let scale = Self.phoneScale(portrait)
        for placement in portrait.placements {
            #expect(placement.titleText.size * scale >= 14, "\(placement.id)'s title")
            #expect(placement.labelText.size * scale >= 14, "\(placement.id)'s label")
        }
        // The landscape is the hand placement, untouched; the rings keep their sizes (the layout's r and thickness).
        #expect(spec.rings == Self.configMain.rings)
        #expect(spec.width == 1280 && spec.height == 720)
    }

    @Test func ringsSharingACentre_stayOneGroup_andBecomeTheBoardsGroups() throws {
        let spec = Self.configMain.withPortrait()
        #expect(spec.groups == [["move", "exercise", "stand"]])
        #expect(spec.concentricGroups == [["move", "exercise", "stand"]])
        let portrait = try #require(spec.alternates.first)
        let activity = ["move", "exercise", "stand"].map { portrait.placement(of: $0)! }
        #expect(Set(activity.map(\.cx)).count == 1 && Set(activity.map(\.cy)).count == 1)
        // A ring added through the API still joins the group, as it did before the board had a portrait.
        let added = try spec.adding(RingSpec(id: "sleep"), group: "stand", maximumRings: 24)
        #expect(added.groups.first == ["move", "exercise", "stand", "sleep"])
    }

    @Test func aBoardNoWiderThanTall_isItsOwnPortrait() {
        var tall = Self.configMain
        tall.width = 720
        tall.height = 1280
        #expect(tall.withPortrait().alternates == [])
        var square = Self.configMain
        square.height = square.width
        #expect(square.withPortrait().alternates == [])
    }

    @Test func aGivenPortrait_isTakenAsItIs() {
        let given = Arrangement(
            name: "portrait", width: 10, height: 20,
            placements: Self.configMain.rings.map {
                RingPlacement(id: $0.id, cx: 1, cy: 2, titleText: $0.titleText, labelText: $0.labelText)
            })
        let spec = Self.configMain.withPortrait(given)
        #expect(spec.alternates == [given])
        #expect(spec.groups == [["move", "exercise", "stand"]])
    }

    @Test func theSameBoard_getsTheSamePortraitTwice() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for board in Self.randomBoards.prefix(40) + [Self.configMain] {
            #expect(try encoder.encode(board.withPortrait()) == encoder.encode(board.withPortrait()))
        }
    }

    /// Boards of 1 to 24 rings placed by hand at random (lone rings and widgets of random sizes, concentric
    /// groups, texts wherever the hand placement passes `LayoutCheck`): every one gets a portrait in which
    /// nothing overlaps, every ring keeps its size, titles are at least a 26th of the width, and labels as big
    /// as that or as the ring's hole holds.
    @Test func randomHandPlacedBoards_getASoundReadablePortrait() throws {
        #expect(Self.randomBoards.count == 120)
        for board in Self.randomBoards {
            let context = "\(board.rings.count) rings: \(board.rings.map { "\($0.id) r\($0.r) t\($0.thickness)" })"
            let spec = board.withPortrait()
            let portrait = try #require(spec.alternates.first, "no portrait for \(context)")
            #expect(LayoutCheck.problems(in: spec) == [], "\(context)")
            #expect(portrait.height > portrait.width, "\(context)")
            #expect(abs(portrait.width / portrait.height - 9 / 19.5) < 0.01, "\(context)")
            #expect(portrait.placements.map(\.id) == board.rings.map(\.id), "\(context)")
            let readable = max(Arranger.minimumTextSize, portrait.width / Arranger.phoneReadableDivisor)
            let grouped = Set(spec.groups.joined())
            for (ring, placement) in zip(spec.rings, portrait.placements) {
                #expect(placement.titleText.size >= readable, "\(context): \(ring.id)")
                let holds = Arranger.Cell.labelFit(RingSize(r: ring.r, thickness: ring.thickness))
                let label = grouped.contains(ring.id) ? readable : min(readable, holds)
                #expect(placement.labelText.size >= label, "\(context): \(ring.id)")
            }
        }
    }

    // MARK: Random hand-placed boards

    /// SplitMix64, as in ArrangerTests: the same boards on every machine and every run.
    static let randomBoards: [BoardSpec] = {
        var generator = ArrangerTests.SeededGenerator(state: 23)
        var boards: [BoardSpec] = []
        while boards.count < 120 {
            let board = randomBoard(count: boards.count % 24 + 1, generator: &generator)
            if LayoutCheck.problems(in: board).isEmpty { boards.append(board) }
        }
        return boards
    }()

    /// `count` rings in a wide canvas, one cell of a grid each (a cell may hold a concentric group of two or
    /// three instead): random radii and thicknesses, titles below, labels in a lone ring's hole or below a group.
    static func randomBoard(count: Int, generator: inout ArrangerTests.SeededGenerator) -> BoardSpec {
        let columns = Int(Double(count).squareRoot().rounded(.up)) + 1
        let cell = 260.0
        var rings: [RingSpec] = []
        var slot = 0
        while rings.count < count {
            let cx = Double(slot % columns) * cell + cell / 2
            let cy = Double(slot / columns) * (cell + 60) + cell / 2
            slot += 1
            let members = min(count - rings.count, Int.random(in: 0..<4, using: &generator) == 0 ? 3 : 1)
            let titleSize = Double(Int.random(in: 12...20, using: &generator))
            var outer = Double(Int.random(in: 30...110, using: &generator))
            for member in 0..<members {
                let id = "r\(rings.count)"
                let thickness = Double(Int.random(in: 4...max(4, Int(outer * 0.4)), using: &generator))
                let r = outer - thickness / 2
                let kind: RingKind
                switch Int.random(in: 0..<6, using: &generator) {
                case 0 where members == 1: kind = .indicator
                case 1 where members == 1: kind = .gradient
                case 2: kind = .countdown
                default: kind = .plain
                }
                let textX = cx + Double(member - (members - 1) / 2) * (cell / 3)
                let bottom = cy + outer + 4
                let labelText =
                    members == 1
                    ? TextSpec(x: cx, y: cy, size: max(6, (r - thickness / 2) / 3), align: "center")
                    : TextSpec(x: textX, y: bottom + titleSize * 2.2, size: titleSize, align: "center")
                rings.append(
                    RingSpec(
                        id: id, title: ["A", "Move", "Task 3"].randomElement(using: &generator)!, cx: cx, cy: cy, r: r,
                        thickness: thickness, track: Fixtures.track,
                        colors: kind == .gradient
                            ? [Palette.lightRed, Palette.darkRed, Palette.lightBlue] : [Palette.lightRed, Palette.darkRed],
                        kind: kind,
                        titleText: TextSpec(x: textX, y: bottom + titleSize / 2 + 2, size: titleSize, align: "center"),
                        labelText: labelText, titleColor: nil, labelColor: nil))
                outer = r - thickness / 2 - Double(Int.random(in: 2...10, using: &generator))
                if outer < 12 { break }
            }
        }
        let rows = (slot + columns - 1) / columns
        let width = Double(columns) * cell
        let height = Double(rows) * (cell + 60)
        // Wider than tall, as a hand placement for a screen is (a taller one is its own portrait).
        return BoardSpec(
            name: "hand", width: max(width, height * 1.2), height: height, background: LayoutCheckTests.black, rings: rings)
    }
}
