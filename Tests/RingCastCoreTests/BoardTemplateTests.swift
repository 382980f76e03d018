import Foundation
import RingCastCore
import Testing

@Suite struct BoardTemplateTests {
    @Test func activity_isMoveExerciseStand_asOneConcentricGroup() throws {
        let (rings, groups) = try BoardTemplate.activity.rings(count: nil, maximumRings: 24)
        #expect(rings.map(\.id) == ["move", "exercise", "stand"])
        #expect(rings.map(\.title) == ["Move", "Exercise", "Stand"])
        #expect(rings.allSatisfy { $0.kind.tag == .plain })
        #expect(groups == [["move", "exercise", "stand"]])
    }

    @Test(arguments: [nil, 1, 7, 23] as [Int?])
    func tasks_areNumberedTasks_andAnOverallDerivedFromAll(count: Int?) throws {
        let (rings, groups) = try BoardTemplate.tasks.rings(count: count, maximumRings: 24)
        let tasks = (1...(count ?? 4)).map { "task\($0)" }
        #expect(rings.map(\.id) == tasks + ["overall"])
        #expect(rings.dropLast().map(\.title) == (1...(count ?? 4)).map { "Task \($0)" })
        #expect(rings.dropLast().allSatisfy { $0.kind.tag == .plain })
        #expect(rings.last?.title == "Overall")
        #expect(rings.last?.kind.sources == tasks)
        #expect(groups.isEmpty)
    }

    @Test func tasks_cycleConfigsTaskColours() throws {
        let (rings, _) = try BoardTemplate.tasks.rings(count: 6, maximumRings: 24)
        #expect(rings[4].colors == rings[0].colors)
        #expect(rings[5].colors == rings[1].colors)
        #expect(Set(rings[0..<4].map(\.colors)).count == 4)
    }

    @Test func countdown_isOneCountdownRing() throws {
        let (rings, groups) = try BoardTemplate.countdown.rings(count: nil, maximumRings: 24)
        #expect(rings.map(\.id) == ["countdown"])
        #expect(rings[0].kind.tag == .countdown)
        #expect(groups.isEmpty)
    }

    @Test func single_isOnePlainRingCalledProgress() throws {
        let (rings, groups) = try BoardTemplate.single.rings(count: nil, maximumRings: 24)
        #expect(rings.map(\.id) == ["progress"])
        #expect(rings.map(\.title) == ["Progress"])
        #expect(rings[0].kind.tag == .plain)
        #expect(groups.isEmpty)
    }

    @Test func everyTemplate_leavesGeometryToTheArranger_andHasTwoColoursPerRing() throws {
        for template in BoardTemplate.allCases {
            for ring in try template.rings(count: nil, maximumRings: 24).rings {
                #expect(ring.cx == RingPlace.unplaced.cx && ring.r == RingPlace.unplaced.r, "\(template) \(ring.id)")
                #expect(ring.colors.count == 2)
            }
        }
    }

    /// The shipped config's main board, as far as a template names it.
    struct ConfigFile: Decodable {
        struct Board: Decodable {
            var name: String
            var rings: [Ring]
        }
        struct Ring: Decodable {
            var id: String
            var title: String
            var kind: String?
            var sources: [String]?
            var colors: [String]
            var track: String?
            var titleColor: String?
            var labelColor: String?
        }
        var boards: [Board]
    }

    @Test func main_hasConfigsMainRings_idsTitlesKindsAndColours() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/ringcast.json")
        let config = try JSONDecoder().decode(ConfigFile.self, from: Data(contentsOf: url))
        let main = try #require(config.boards.first { $0.name == "main" })
        let (rings, groups) = try BoardTemplate.main.rings(count: nil, maximumRings: 24)
        #expect(rings.map(\.id) == main.rings.map(\.id))
        #expect(rings.map(\.title) == main.rings.map(\.title))
        #expect(rings.map(\.kind.name) == main.rings.map { $0.kind ?? "plain" })
        #expect(rings.map { ring in ring.colors.map(\.hex) } == main.rings.map { $0.colors.map { $0 + "ff" } })
        for (ring, entry) in zip(rings, main.rings) {
            if let sources = ring.kind.sources { #expect(sources == entry.sources) }
            #expect(ring.track == RGBAColor(hex: entry.track ?? "#2c2c2e"))
            #expect(ring.titleColor == entry.titleColor.flatMap(RGBAColor.init(hex:)))
            #expect(ring.labelColor == entry.labelColor.flatMap(RGBAColor.init(hex:)))
        }
        #expect(groups == [["move", "exercise", "stand"]])
    }
}

@Suite("Template counts")
struct TemplateCountTests {
    /// Issue 20, defect 2: a count the board's limit allows was a trap in `rings(count:)` beyond 23. Every count
    /// from 0 to 300 either makes the tasks and their Overall or is refused as 422 naming `count`.
    @Test(arguments: [24, 255])
    func everyCount_makesTheBoard_orIsRefusedNamingCount(maximumRings: Int) {
        for count in 0...300 {
            do {
                let (rings, _) = try BoardTemplate.tasks.rings(count: count, maximumRings: maximumRings)
                #expect(count >= 1 && count < maximumRings, "count \(count) was accepted")
                #expect(rings.count == count + 1)
            } catch {
                #expect(!(1..<maximumRings).contains(count), "count \(count) was refused: \(error.message)")
                #expect(error.status == 422 && error.field == "count", "count \(count): \(error)")
            }
        }
    }
}
