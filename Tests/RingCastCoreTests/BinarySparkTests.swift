import Foundation
import Testing

@testable import RingCastCore

/// Binary version 6's spark section (issue 33): a keyframe lists every ring's line, a delta each line that changed
/// (0 points when it went away) and nothing when none did, the values equal to the JSON's, and a frame without a
/// line keeps its older version's bytes.
@Suite("Binary sparklines")
struct BinarySparkTests {
    static let origin = SparklineTests.origin

    /// The sparkline board of `SparklineTests` after pushes 0.2, 0.6, 0.4 a second apart, at the last one.
    static func animator() throws -> Animator {
        var animator = try SparklineTests.animator()
        for (index, progress) in [0.2, 0.6, 0.4].enumerated() {
            try SparklineTests.push(&animator, progress, at: origin + Int64(index) * 60)
        }
        return animator
    }

    static func layout() throws -> BinaryFrame.DecodedLayout {
        try BinaryWidgetTests.layout(of: Board(spec: try SparklineTests.spec()))
    }

    /// The JSON frame's `spark` per ring id (absent: nil).
    static func jsonSparks(_ bytes: [UInt8]) throws -> [String: [Double]] {
        let message = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        var sparks: [String: [Double]] = [:]
        for ring in message["rings"] as? [[String: Any]] ?? [] {
            if let id = ring["id"] as? String, let spark = ring["spark"] as? [Double] { sparks[id] = spark }
        }
        return sparks
    }

    @Test func keyframe_listsEveryLine_inVersion6_withTheJSONsValues() throws {
        var animator = try Self.animator()
        let frame = animator.frame(at: Self.origin + 120)
        let bytes = BinaryFrame.encode(frame, previous: nil)
        #expect(bytes[1] == BinaryFrame.sparkVersion && bytes[3] & 0x04 != 0)
        let decoded = try BinaryWidgetTests.decodedFrame(bytes, layout: try Self.layout())
        #expect(decoded.sparks == [0: [0, 0.2, 0.5, 0.6, 1, 0.4]])
        let json = try Self.jsonSparks(try FrameEncoder.json(frame, previous: nil))
        #expect(json == ["build": [0, 0.2, 0.5, 0.6, 1, 0.4]])
        // Cut anywhere, a version 6 frame is refused, not trapped.
        for end in 0..<bytes.count {
            #expect(throws: BinaryFrame.DecodingError.self) {
                try BinaryFrame.decode(Array(bytes.prefix(end)), layout: try Self.layout())
            }
        }
    }

    @Test func delta_carriesALineThatChanged_evenWithoutARingEntry_andNoSectionWhenNoneDid() throws {
        var animator = try Self.animator()
        try SparklineTests.push(&animator, 0.9, at: Self.origin + 180)
        let (frame, base) = animator.frames(at: Self.origin + 180)
        let delta = try BinaryWidgetTests.decodedFrame(BinaryFrame.encode(frame, previous: base), layout: try Self.layout())
        let line = try #require(frame.rings[0].spark)
        #expect(delta.sparks == [0: line])
        #expect(try Self.jsonSparks(try FrameEncoder.json(frame, previous: base)) == ["build": line])
        // The same line in a frame where only the ring's progress moved: no section, version 3's bytes.
        var moved = frame
        moved.seq += 1
        moved.rings[1].label = "moved"
        let unchanged = BinaryFrame.encode(moved, previous: frame)
        #expect(unchanged[1] == BinaryFrame.ringsVersion && unchanged[3] & 0x04 == 0)
        #expect(try BinaryWidgetTests.decodedFrame(unchanged, layout: try Self.layout()).sparks.isEmpty)
        // And a frame without any line is the bytes it was before sparklines.
        var none = frame
        none.rings[0].spark = nil
        #expect(BinaryFrame.encode(none, previous: nil)[1] == BinaryFrame.ringsVersion)
    }

    @Test func removal_isAnEntryOfNoPoints_inBinary_andAnEmptyLineInJSON() throws {
        var animator = try Self.animator()
        let before = animator.frame(at: Self.origin + 120)
        var after = before
        after.seq += 1
        after.rings[0].spark = nil
        let delta = try BinaryWidgetTests.decodedFrame(BinaryFrame.encode(after, previous: before), layout: try Self.layout())
        #expect(delta.sparks == [0: []])
        #expect(try Self.jsonSparks(try FrameEncoder.json(after, previous: before)) == ["build": []])
        // A viewer's held line then goes: applying the keyframe and the delta leaves none.
        var held = try BinaryWidgetTests.decodedFrame(BinaryFrame.encode(before, previous: nil), layout: try Self.layout()).sparks
        for (index, line) in delta.sparks { held[index] = line.isEmpty ? nil : line }
        #expect(held.isEmpty)
    }

    @Test func aSparkSectionInAnOlderVersion_isRefused() throws {
        var animator = try Self.animator()
        var bytes = BinaryFrame.encode(animator.frame(at: Self.origin + 120), previous: nil)
        bytes[1] = BinaryFrame.staleVersion
        #expect(throws: BinaryFrame.DecodingError(description: "a spark section before version 6")) {
            try BinaryFrame.decode(bytes, layout: try Self.layout())
        }
    }

    /// The page's node test decodes these bytes (Tests/web/fixtures/spark.json); regenerate them with
    /// `RINGCAST_WRITE_FIXTURES=1 swift test --filter webFixture`.
    @Test func webFixture_matchesTheEncoder() throws {
        var animator = try Self.animator()
        let (keyframe, _) = animator.frames(at: Self.origin + 120)
        try SparklineTests.push(&animator, 0.9, at: Self.origin + 180)
        let changed = animator.frames(at: Self.origin + 180).frame
        var unchanged = changed
        unchanged.seq += 1
        unchanged.rings[1].label = "moved"
        var removed = unchanged
        removed.seq += 1
        removed.rings[0].spark = nil
        let json = { (frame: Frame, previous: Frame?) throws -> String in
            String(decoding: try FrameEncoder.json(frame, previous: previous), as: UTF8.self)
        }
        let fixture = SparkFixture(
            layout: BinaryFrame.encode(FrameComposer.layout(of: try SparklineTests.spec())),
            keyframe: BinaryFrame.encode(keyframe, previous: nil),
            changed: BinaryFrame.encode(changed, previous: keyframe),
            unchanged: BinaryFrame.encode(unchanged, previous: changed),
            removed: BinaryFrame.encode(removed, previous: unchanged),
            jsonLayout: String(
                decoding: try FrameEncoder.json(FrameComposer.layout(of: try SparklineTests.spec())), as: UTF8.self),
            jsonKeyframe: try json(keyframe, nil),
            jsonChanged: try json(changed, keyframe),
            jsonUnchanged: try json(unchanged, changed),
            jsonRemoved: try json(removed, unchanged))
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("web/fixtures/spark.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        if ProcessInfo.processInfo.environment["RINGCAST_WRITE_FIXTURES"] != nil {
            try encoder.encode(fixture).write(to: url)
        }
        let stored = try JSONDecoder().decode(SparkFixture.self, from: Data(contentsOf: url))
        #expect(stored == fixture)
    }

    struct SparkFixture: Codable, Equatable {
        var layout: [UInt8]
        var keyframe: [UInt8]
        var changed: [UInt8]
        var unchanged: [UInt8]
        var removed: [UInt8]
        var jsonLayout: String
        var jsonKeyframe: String
        var jsonChanged: String
        var jsonUnchanged: String
        var jsonRemoved: String
    }
}
