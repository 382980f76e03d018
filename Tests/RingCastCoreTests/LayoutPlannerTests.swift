import Testing

@testable import RingCastCore

/// The planner the server lays boards out with: the same layouts as `Arranger` alone, whether plans are remembered,
/// found at once or found on another thread and handed back.
@Suite("Layout planner")
struct LayoutPlannerTests {
    static func board(_ count: Int, groupsOf size: Int?) throws -> (rings: [RingSpec], groups: [[String]]) {
        let (rings, _) = try BoardTemplate.tasks.rings(count: count - 1, maximumRings: 255)
        let ids = rings.map(\.id)
        guard let size else { return (rings, []) }
        return (rings, stride(from: 0, to: ids.count, by: size).map { Array(ids[$0..<min($0 + size, ids.count)]) })
    }

    @Test func aShapeIsWhatPlansDependOn_notIdsOrTitles() throws {
        let board = try Self.board(40, groupsOf: 3)
        var renamed = board.rings
        for index in renamed.indices {
            renamed[index].title = "Something else \(index)"
        }
        #expect(LayoutShape(rings: board.rings, groups: board.groups) == LayoutShape(rings: renamed, groups: board.groups))
        #expect(LayoutShape(rings: board.rings, groups: board.groups) != LayoutShape(rings: board.rings, groups: []))
        #expect(LayoutShape(rings: board.rings, groups: board.groups).ringCount == 40)
    }

    @Test(arguments: [(4, nil), (24, 3), (25, nil), (100, 3), (255, nil), (255, 5)] as [(Int, Int?)])
    func aDeferringPlanner_asksForBigNewShapes_andLaysOutAsTheArrangerOnceTheyAreRemembered(
        count: Int, groupSize: Int?
    ) throws {
        let board = try Self.board(count, groupsOf: groupSize)
        let shape = LayoutShape(rings: board.rings, groups: board.groups)
        let alone = Arranger.arrange(board.rings, groups: board.groups)
        let planner = LayoutPlanner()
        let (first, wanted) = planner.deferringNewBigShapes {
            Arranger.arrange(board.rings, groups: board.groups, planner: planner)
        }
        if count > LayoutPlanner.immediateRings {
            #expect(wanted == [shape])
            // Found elsewhere (as the pipeline's worker does) and handed back.
            planner.remember(Arranger.plans(for: shape), for: shape)
        } else {
            #expect(wanted.isEmpty)
            #expect(first == alone)
        }
        let (again, wantedAgain) = planner.deferringNewBigShapes {
            Arranger.arrange(board.rings, groups: board.groups, planner: planner)
        }
        #expect(again == alone)
        #expect(wantedAgain.isEmpty)
    }

    @Test func aPlannerThatIsNotDeferring_plansAtOnce_andRemembersAtMostItsCapacity() throws {
        let planner = LayoutPlanner(capacity: 2)
        let boards = try [30, 31, 32].map { try Self.board($0, groupsOf: nil) }
        for board in boards {
            #expect(
                Arranger.arrange(board.rings, groups: board.groups, planner: planner)
                    == Arranger.arrange(board.rings, groups: board.groups))
        }
        // The oldest shape was forgotten: asked again while deferring, it is wanted; the newest is not.
        let newest = planner.deferringNewBigShapes { Arranger.arrange(boards[2].rings, groups: [], planner: planner) }
        #expect(newest.wanted.isEmpty)
        let oldest = planner.deferringNewBigShapes { Arranger.arrange(boards[0].rings, groups: [], planner: planner) }
        #expect(oldest.wanted == [LayoutShape(rings: boards[0].rings, groups: [])])
    }
}
