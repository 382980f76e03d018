import Foundation
import Testing

@testable import RingCastCore

@Suite struct ArrangerTests {
    /// SplitMix64 (Steele, Lea, Flood 2014): the same boards on every machine and every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    static let titles = ["A", "Move", "Task 12", "Reading list", "Quarterly revenue target", "Überstunden"]

    /// A board of `count` rings with random kinds, labels, titles and concentric groups.
    static func randomBoard(count: Int, generator: inout SeededGenerator) -> (rings: [RingSpec], groups: [[String]]) {
        let ids = (0..<count).map { "r\($0)" }
        let rings = ids.map { id in
            let kind: RingKind
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: kind = .countdown
            case 1: kind = .derived(sources: [ids.randomElement(using: &generator)!])
            default: kind = .plain
            }
            let label: LabelFormat = [.percent, .fraction, .value, .text("Done")].randomElement(using: &generator)!
            return RingSpec(
                id: id, title: titles.randomElement(using: &generator)!, cx: 0, cy: 0, r: 0, thickness: 0,
                track: Fixtures.track, colors: [Palette.lightRed, Palette.darkRed], kind: kind,
                titleText: TextSpec(x: 0, y: 0, size: 0, align: "center"),
                labelText: TextSpec(x: 0, y: 0, size: 0, align: "center"), titleColor: nil, labelColor: nil, label: label,
                maximum: Double(Int.random(in: 1...100_000, using: &generator)))
        }
        // Groups from a shuffled subset, in random sizes, so group order differs from ring order.
        var pool = ids.shuffled(using: &generator).prefix(Int.random(in: 0...count, using: &generator))
        var groups: [[String]] = []
        while !pool.isEmpty {
            let size = Int.random(in: 1...pool.count, using: &generator)
            groups.append(Array(pool.prefix(size)))
            pool = pool.dropFirst(size)
        }
        return (rings, groups)
    }

    static let randomBoards: [(rings: [RingSpec], groups: [[String]])] = {
        var generator = SeededGenerator(state: 13)
        return (0..<240).map { index in randomBoard(count: index % 24 + 1, generator: &generator) }
    }()

    static let templateBoards: [(rings: [RingSpec], groups: [[String]])] =
        BoardTemplate.allCases.map { try! $0.rings(count: nil, maximumRings: 24) }
        + [1, 2, 9, 23].map { try! BoardTemplate.tasks.rings(count: $0, maximumRings: 24) }

    /// Boards beyond 24 rings (`limits.maxRingsPerBoard` goes to 255): laid out soundly and at once. Before, the
    /// lone rings grew 2.5 times a round for 64 rounds past about 30 rings (radii of 10^27), and 254 tasks
    /// took a hundred seconds to lay out.
    @Test(arguments: [30, 60, 100, 200, 254])
    func bigTaskBoards_areLaidOutSoundly_withRingsOfTheBaseSize(count: Int) throws {
        let board = try BoardTemplate.tasks.rings(count: count, maximumRings: 255)
        // Past about 30 lone rings no ring size holds a label of a 45th of the canvas: that is the one check
        // such a board is spared.
        Self.expectSound(board.rings, groups: board.groups, readableText: count < 30)
        let spec = Self.laidOut(board)
        #expect(spec.rings.allSatisfy { $0.r <= Arranger.maximumSingleRadius }, "\(count) tasks")
    }

    @Test func everyTemplate_isLaidOutSoundly() {
        for board in Self.templateBoards {
            Self.expectSound(board.rings, groups: board.groups)
        }
    }

    @Test func randomBoardsOf1To24Rings_areLaidOutSoundly() {
        for board in Self.randomBoards {
            Self.expectSound(board.rings, groups: board.groups)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 8, 12, 24])
    func groupsOfEqualSize_upTo24Rings_areLaidOutSoundly(size: Int) throws {
        let (rings, _) = try BoardTemplate.tasks.rings(count: 23, maximumRings: 24)
        let ids = rings.map(\.id)
        let groups = stride(from: 0, to: ids.count, by: size).map { Array(ids[$0..<min($0 + size, ids.count)]) }
        Self.expectSound(rings, groups: groups)
        // The same groups with lone rings between them.
        Self.expectSound(rings, groups: groups.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
    }

    @Test func theSameBoard_isLaidOutTheSameTwice() throws {
        for board in Self.randomBoards.prefix(48) + Self.templateBoards {
            let first = BoardSpec.laidOut(
                name: "b", title: nil, background: Fixtures.white, rings: board.rings, groups: board.groups)
            let second = BoardSpec.laidOut(
                name: "b", title: nil, background: Fixtures.white, rings: board.rings, groups: board.groups)
            #expect(first == second)
            // Foundation's encoder orders keys by hash unless told to sort them.
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            #expect(try encoder.encode(first) == encoder.encode(second))
            #expect(Arranger.arrange(board.rings, groups: board.groups) == Arranger.arrange(board.rings, groups: board.groups))
        }
    }

    @Test func laidOut_carriesTheLandscapeOnTheRings_andThePortraitAsTheAlternate() throws {
        let (rings, groups) = try BoardTemplate.main.rings(count: nil, maximumRings: 24)
        let arranged = Arranger.arrange(rings, groups: groups)
        let spec = BoardSpec.laidOut(name: "main", title: "Today", background: Fixtures.white, rings: rings, groups: groups)
        #expect(spec.name == "main" && spec.title == "Today" && spec.groups == groups)
        #expect(spec.width == arranged.landscape.width && spec.height == arranged.landscape.height)
        #expect(spec.arrangements == [arranged.landscape, arranged.portrait])
        #expect(spec.alternates.map(\.name) == ["portrait"])
        for ring in spec.rings {
            #expect(arranged.sizes[ring.id] == RingSize(r: ring.r, thickness: ring.thickness))
        }
        #expect(spec.rings.map(\.id) == rings.map(\.id))
        #expect(spec.rings.map(\.colors) == rings.map(\.colors))
    }

    @Test func loneRings_haveTheirLabelInTheHole_andTheirTitleBelow() throws {
        let spec = Self.laidOut(try BoardTemplate.tasks.rings(count: 5, maximumRings: 24))
        for arrangement in spec.arrangements {
            for ring in spec.rings {
                let placement = try! #require(arrangement.placement(of: ring.id))
                #expect(placement.labelText.x == placement.cx && placement.labelText.y == placement.cy)
                let label = placement.labelText
                let halfDiagonal = ((label.width! / 2) * (label.width! / 2) + label.size * label.size / 4).squareRoot()
                #expect(halfDiagonal <= ring.r - ring.thickness / 2)
                #expect(placement.titleText.y - placement.titleText.size / 2 >= placement.cy + ring.r + ring.thickness / 2)
            }
        }
    }

    @Test func aGroupsTexts_goBelowIt_inRingOrderFromLeftToRight() throws {
        let spec = Self.laidOut(try BoardTemplate.activity.rings(count: nil, maximumRings: 24))
        for arrangement in spec.arrangements {
            let placements = spec.rings.map { arrangement.placement(of: $0.id)! }
            let bottom = placements[0].cy + spec.rings[0].r + spec.rings[0].thickness / 2
            #expect(Set(placements.map(\.cx)).count == 1 && Set(placements.map(\.cy)).count == 1)
            #expect(placements.allSatisfy { $0.titleText.y - $0.titleText.size / 2 >= bottom })
            #expect(placements.allSatisfy { $0.labelText.y > $0.titleText.y })
            #expect(placements.map(\.titleText.x) == placements.map(\.titleText.x).sorted())
        }
    }

    @Test func ringProportions_areConfigs_forLoneRingsAndGroupsOfUpToThree() throws {
        for template in [BoardTemplate.main, .activity, .single, .tasks] {
            let spec = Self.laidOut(try template.rings(count: nil, maximumRings: 24))
            for ring in spec.rings {
                #expect((0.17...0.28).contains(ring.thickness / ring.r), "\(template) \(ring.id)")
            }
        }
    }

    @Test func mainTemplate_keepsConfigsGroupSizes() throws {
        let spec = Self.laidOut(try BoardTemplate.main.rings(count: nil, maximumRings: 24))
        #expect(spec.rings.prefix(3).map(\.r) == [220, 178, 136])
        #expect(spec.rings.prefix(3).map(\.thickness) == [38, 38, 38])
    }

    static func laidOut(_ board: (rings: [RingSpec], groups: [[String]])) -> BoardSpec {
        BoardSpec.laidOut(name: "b", title: nil, background: Fixtures.white, rings: board.rings, groups: board.groups)
    }

    // MARK: The independent check

    struct Box {
        var left, top, right, bottom: Double
        init(_ text: TextSpec) {
            #expect(text.align == "center")
            let width = text.width ?? .infinity
            left = text.x - width / 2
            right = text.x + width / 2
            top = text.y - text.size / 2
            bottom = text.y + text.size / 2
        }
        func meets(_ other: Box) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }
        /// Whether any point of the box is nearer than `radius` to (x, y).
        func reaches(x: Double, y: Double, radius: Double) -> Bool {
            let dx = max(left - x, 0, x - right)
            let dy = max(top - y, 0, y - bottom)
            return dx * dx + dy * dy < radius * radius
        }
    }

    /// LayoutCheck finds nothing, and, computed here without it: rings of different cells have
    /// disjoint discs, a group's rings share a centre and have disjoint bands, texts have widths,
    /// readable sizes and disjoint boxes inside the canvas, clear of every stroke except a label in
    /// its own lone ring's hole, sizes are the same in both arrangements, landscape is wide and
    /// portrait tall.
    static func expectSound(
        _ rings: [RingSpec], groups: [[String]], readableText: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let arranged = Arranger.arrange(rings, groups: groups)
        let spec = BoardSpec.laidOut(name: "b", title: nil, background: Fixtures.white, rings: rings, groups: groups)
        let context = "\(rings.count) rings, groups \(groups)"
        #expect(LayoutCheck.problems(in: spec) == [], "\(context)", sourceLocation: sourceLocation)
        #expect(arranged.landscape.width > arranged.landscape.height, sourceLocation: sourceLocation)
        #expect(arranged.portrait.height > arranged.portrait.width, sourceLocation: sourceLocation)
        #expect(abs(arranged.landscape.width / arranged.landscape.height - 16.0 / 9) < 0.01, sourceLocation: sourceLocation)
        #expect(abs(arranged.portrait.width / arranged.portrait.height - 9 / 19.5) < 0.01, sourceLocation: sourceLocation)
        var groupOf: [String: Int] = [:]
        for (index, group) in groups.enumerated() {
            for id in group { groupOf[id] = index }
        }
        for arrangement in [arranged.landscape, arranged.portrait] {
            let name = "\(context), \(arrangement.name)"
            #expect(arrangement.placements.map(\.id) == rings.map(\.id), sourceLocation: sourceLocation)
            // A 45th of a landscape's height, a 26th of a portrait's width (14 CSS pixels on a phone, issue 34).
            let readable = max(14, min(arrangement.width, arrangement.height) / (arrangement.name == "portrait" ? 26 : 45))
            var boxes: [(id: String, box: Box)] = []
            for placement in arrangement.placements {
                let size = arranged.sizes[placement.id]!
                let outer = size.r + size.thickness / 2
                #expect(
                    placement.cx - outer > 0 && placement.cy - outer > 0 && placement.cx + outer < arrangement.width
                        && placement.cy + outer < arrangement.height, "\(name): \(placement.id)",
                    sourceLocation: sourceLocation)
                let title = placement.titleText
                let label = placement.labelText
                if readableText {
                    #expect(title.size >= readable && label.size >= readable, "\(name)", sourceLocation: sourceLocation)
                }
                #expect((title.width ?? 0) >= 6 * title.size, "\(name)", sourceLocation: sourceLocation)
                #expect((label.width ?? 0) >= Arranger.Cell.labelBoxWidth * label.size, "\(name)", sourceLocation: sourceLocation)
                boxes += [(placement.id, Box(title)), (placement.id, Box(label))]
            }
            for (index, a) in arrangement.placements.enumerated() {
                let sizeA = arranged.sizes[a.id]!
                for b in arrangement.placements[(index + 1)...] {
                    let sizeB = arranged.sizes[b.id]!
                    if let group = groupOf[a.id], groupOf[b.id] == group {
                        #expect(a.cx == b.cx && a.cy == b.cy, "\(name)", sourceLocation: sourceLocation)
                        let (outer, inner) = sizeA.r > sizeB.r ? (sizeA, sizeB) : (sizeB, sizeA)
                        #expect(
                            outer.r - outer.thickness / 2 >= inner.r + inner.thickness / 2, "\(name): \(a.id) \(b.id)",
                            sourceLocation: sourceLocation)
                    } else {
                        let distance = ((a.cx - b.cx) * (a.cx - b.cx) + (a.cy - b.cy) * (a.cy - b.cy)).squareRoot()
                        #expect(
                            distance >= sizeA.r + sizeA.thickness / 2 + sizeB.r + sizeB.thickness / 2,
                            "\(name): \(a.id) \(b.id)", sourceLocation: sourceLocation)
                    }
                }
            }
            for (index, a) in boxes.enumerated() {
                #expect(
                    a.box.left >= 0 && a.box.top >= 0 && a.box.right <= arrangement.width
                        && a.box.bottom <= arrangement.height, "\(name): \(a.id)", sourceLocation: sourceLocation)
                for b in boxes[(index + 1)...] {
                    #expect(!a.box.meets(b.box), "\(name): \(a.id) \(b.id)", sourceLocation: sourceLocation)
                }
                // Clear of every stroke: outside each disc, or (a lone ring's label) inside its own hole.
                for placement in arrangement.placements {
                    let size = arranged.sizes[placement.id]!
                    let outside = !a.box.reaches(x: placement.cx, y: placement.cy, radius: size.r + size.thickness / 2)
                    let inHole =
                        placement.id == a.id && groupOf[a.id] == nil
                        && [
                            (a.box.left, a.box.top), (a.box.right, a.box.top), (a.box.left, a.box.bottom),
                            (a.box.right, a.box.bottom),
                        ].allSatisfy { x, y in
                            let dx = x - placement.cx
                            let dy = y - placement.cy
                            return dx * dx + dy * dy <= (size.r - size.thickness / 2) * (size.r - size.thickness / 2)
                        }
                    #expect(outside || inHole, "\(name): \(a.id) on \(placement.id)", sourceLocation: sourceLocation)
                }
            }
        }
        for ring in spec.rings {
            #expect(arranged.sizes[ring.id] == RingSize(r: ring.r, thickness: ring.thickness), sourceLocation: sourceLocation)
        }
        #expect(Set(arranged.sizes.keys) == Set(rings.map(\.id)), sourceLocation: sourceLocation)
    }
}
