import Foundation
import RingCastCore
import Testing

/// Sparklines (issue 33): the definition's key by table, then the line through the animator by tick — it follows the
/// pushes, its newest point the progress shown, its span counted back from the newest point, the same after a
/// restore, and a JSON delta carries it only when it changed.
@Suite("Sparklines")
struct SparklineTests {
    static let fps = 60
    static let origin: Int64 = 1_795_000_000 * 60

    static func spec(_ sparkline: String = #"{"seconds":600}"#) throws -> BoardSpec {
        let definition = #"{"rings":[{"id":"build","sparkline":\#(sparkline)},{"id":"tests"}]}"#
        return try RequestDecoder.decode(BoardDefinition.self, from: Array(definition.utf8)).spec(named: "ci", maximumRings: 255)
    }

    @Test(arguments: [(#"{"seconds":600}"#, 600), ("true", 3_600), (#"{"seconds":60}"#, 60), (#"{"seconds":604800}"#, 604_800)])
    func definition_takesASpan(_ text: String, seconds: Int) throws {
        let spec = try Self.spec(text)
        #expect(spec.rings[0].sparkline == Sparkline(seconds: seconds))
        #expect(spec.rings[1].sparkline == nil)
        // Written back as it was read.
        let written = try JSONEncoder().encode(spec.rings[0])
        #expect(String(decoding: written, as: UTF8.self).contains(#""sparkline":{"seconds":\#(seconds)}"#))
    }

    @Test(arguments: [
        (#"{"rings":[{"id":"a","sparkline":{"seconds":59}}]}"#, 422, "rings.0.sparkline.seconds"),
        (#"{"rings":[{"id":"a","sparkline":{"seconds":1.5}}]}"#, 422, "rings.0.sparkline.seconds"),
        (#"{"rings":[{"id":"a","sparkline":{"span":60}}]}"#, 400, "rings.0.sparkline.span"),
        (#"{"rings":[{"id":"a","sparkline":"1h"}]}"#, 400, "rings.0.sparkline"),
        (#"{"rings":[{"id":"a","kind":"countdown","sparkline":true}]}"#, 422, "rings.0.sparkline"),
        (#"{"rings":[{"id":"a","kind":"counter","sparkline":true}]}"#, 422, "rings.0.sparkline"),
    ])
    func definition_refusesWhatItCannotDraw(_ body: String, status: Int, field: String) {
        let error = #expect(throws: APIError.self) { try RequestDecoder.decode(BoardDefinition.self, from: Array(body.utf8)) }
        #expect(error?.status == status, "\(error?.message ?? "")")
        #expect(error?.field == field, "\(error?.message ?? "")")
    }

    static func animator() throws -> Animator {
        Animator(spec: try spec(), fps: fps, tick: origin - 1000)
    }

    static func push(_ animator: inout Animator, _ progress: Double, at tick: Int64, _ animation: Animation? = Animation.none)
        throws
    {
        try animator.accept(.ring("build", RingUpdate(progress: progress, animation: animation)), at: tick, now: tick - 1)
    }

    static func spark(_ animator: inout Animator, at tick: Int64) -> [Double]? {
        animator.frame(at: tick).rings.first { $0.id == "build" }?.spark
    }

    @Test func theLineFollowsThePushes_itsNewestPointTheProgressShown() throws {
        var animator = try Self.animator()
        try Self.push(&animator, 0.2, at: Self.origin)
        #expect(Self.spark(&animator, at: Self.origin) == nil, "one point: no line")
        try Self.push(&animator, 0.6, at: Self.origin + 600)
        try Self.push(&animator, 0.4, at: Self.origin + 1200)
        #expect(Self.spark(&animator, at: Self.origin + 1200) == [0, 0.2, 0.5, 0.6, 1, 0.4])
        #expect(animator.frame(at: Self.origin + 1201).rings.contains { $0.id == "tests" && $0.spark == nil })

        // Animated: the newest point climbs with the ring, and rests on its target.
        try Self.push(&animator, 1, at: Self.origin + 1800, .timing(.linear, duration: 1))
        let middle = try #require(Self.spark(&animator, at: Self.origin + 1830))
        #expect(middle.count == 8 && middle[6] == 1)
        #expect(middle[7] > 0.4 && middle[7] < 1, "\(middle)")
        #expect(Self.spark(&animator, at: Self.origin + 1900)?.last == 1)
    }

    @Test func theSpanCountsBackFromTheNewestPoint_andTheScaleFitsTheHighestValue() throws {
        var animator = try Self.animator()
        // Points every 5 minutes over an hour; the span is 10 minutes.
        for index in 0...12 {
            try Self.push(&animator, Double(index) / 10, at: Self.origin + Int64(index) * 300 * 60)
        }
        let line = try #require(Self.spark(&animator, at: Self.origin + 12 * 300 * 60))
        // 10 min back from the newest: points 10, 11 and 12 (1.0, 1.1, 1.2 scaled by 1.2).
        #expect(line == [0, 0.833, 0.5, 0.917, 1, 1])
        // Waiting changes nothing: the line changes only with a point.
        #expect(Self.spark(&animator, at: Self.origin + 20 * 300 * 60) == line)
    }

    @Test func manyPoints_areThinnedToWhatTheLineDraws_theSameAfterARestore() throws {
        var animator = try Self.animator()
        var seeded = ArrangerTests.SeededGenerator(state: 33)
        for index in 0..<2_000 {
            try Self.push(&animator, Double.random(in: 0...1, using: &seeded), at: Self.origin + Int64(index) * 6)
        }
        let tick = Self.origin + 2_000 * 6
        let line = try #require(Self.spark(&animator, at: tick))
        #expect(line.count <= RecentHistory.sparklinePoints * 2 && line.count >= 8)
        let xs = stride(from: 0, to: line.count, by: 2).map { line[$0] }
        #expect(xs == xs.sorted() && xs.first == 0 && xs.last == 1)
        let state = try AnimatorTests.roundTrip(animator.state)
        var restored = try Animator(spec: try Self.spec(), fps: Self.fps, state: state)
        #expect(Self.spark(&restored, at: tick) == line)
        try Self.push(&animator, 0.5, at: tick + 6)
        try Self.push(&restored, 0.5, at: tick + 6)
        #expect(Self.spark(&restored, at: tick + 6) == Self.spark(&animator, at: tick + 6))
    }

    @Test func aJSONDeltaCarriesTheLineOnlyWhenItChanged() throws {
        var animator = try Self.animator()
        try Self.push(&animator, 0.2, at: Self.origin)
        try Self.push(&animator, 0.6, at: Self.origin + 60, .timing(.linear, duration: 1))
        var carried: [Int64: Bool] = [:]
        for tick in (Self.origin + 60)...(Self.origin + 200) {
            let (frame, base) = animator.frames(at: tick)
            let delta = try JSONSerialization.jsonObject(with: Data(try FrameEncoder.json(frame, previous: base))) as? [String: Any]
            let rings = delta?["rings"] as? [[String: Any]] ?? []
            carried[tick] = rings.contains { $0["id"] as? String == "build" && $0["spark"] != nil }
        }
        #expect(carried.filter(\.value).keys.allSatisfy { $0 <= Self.origin + 121 }, "only while the newest point moves")
        #expect(carried[Self.origin + 61] == true && carried[Self.origin + 200] == false)
        let keyframe = try JSONSerialization.jsonObject(with: Data(try FrameEncoder.json(animator.frame(at: Self.origin + 201))))
        let entry = ((keyframe as? [String: Any])?["rings"] as? [[String: Any]])?.first { $0["id"] as? String == "build" }
        #expect(entry?["spark"] as? [Double] == [0, 0.2, 1, 0.6])
    }
}
